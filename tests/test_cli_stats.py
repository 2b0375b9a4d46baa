"""`reader stats`: time read, pages per day as a small plot, books finished."""

from __future__ import annotations

import json
from datetime import date, timedelta

import pytest

from reader.app.notes.reading_stats import day_chart
from reader.cli.main import main
from tests.tui_helpers import sample_services


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_stats_show_time_pages_per_day_and_finished_books(capsys: pytest.CaptureFixture[str]) -> None:
    services, book = sample_services()
    code, out = run(capsys, "stats")
    assert code == 0 and "none yet" in out and "finished   0 books" in out
    today = date.today()
    log = services.reading_time
    log.add(book.id, 2500, 600, 10, day=today)
    log.add(book.id, 1250, 300, 5, day=today - timedelta(days=2))
    log.add(book.id, 250, 60, 1, day=today - timedelta(days=60))  # before the plot, still in the totals
    services.books.set_current_page(book.id, book.page_count)
    code, out = run(capsys, "stats", "Keeper")
    assert "time read  16 min (16 pages, 4,000 words)" in out
    assert "last 4 weeks: 15 pages" in out and "most in a day: 10" in out
    assert "█" in out and "finished   yes" in out
    code, out = run(capsys, "stats", "--json")
    data = json.loads(out)
    assert data["pages"] == 16 and data["pages_per_day"][today.isoformat()] == 10
    assert [b["title"] for b in data["finished"]] == ["The Keeper of Gull Rock"]


def test_day_chart_scales_to_the_busiest_day() -> None:
    start = date(2026, 3, 2)  # a Monday
    days = [(start + timedelta(days=n), pages) for n, pages in enumerate([0, 8, 4, 0, 2, 0, 0, 1])]
    rows = day_chart(days, height=2)
    assert rows[0] == " █" and rows[1].startswith(" ██ ▄") and rows[2].startswith("|      |")
    assert rows[3].startswith("Mar 02")
