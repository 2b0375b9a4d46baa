"""`reader stats`: time read, pages per day as a small plot, books finished."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

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
    assert "█" in out and f"finished   on {today.strftime('%b %d, %Y')}" in out
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


def test_finishing_a_book_records_the_day_and_stats_show_it(capsys: pytest.CaptureFixture[str]) -> None:
    services, book = sample_services()
    assert services.reading_time.log.finished() == {}
    services.books.set_current_page(book.id, book.story_last - 1)
    assert services.reading_time.log.finished() == {}
    services.books.set_current_page(book.id, book.story_last)
    today = date.today()
    assert services.reading_time.log.finished() == {book.id: today.isoformat()}
    services.books.set_current_page(book.id, 3)  # going back: it was still finished that day
    code, out = run(capsys, "stats", "Keeper")
    assert code == 0 and f"finished   on {today.strftime('%b %d, %Y')}" in out
    code, out = run(capsys, "stats")
    assert "finished   1 book" in out and f"The Keeper of Gull Rock  ({today.strftime('%b %d, %Y')})" in out
    code, out = run(capsys, "stats", "--json")
    assert json.loads(out)["finished"][0]["finished_on"] == today.isoformat()
    services.db.conn.execute("UPDATE finished_books SET finished_on = '2026-01-05'")
    services.books.set_current_page(book.id, book.story_last)  # finished again: the first day is kept
    assert services.reading_time.log.finished() == {book.id: "2026-01-05"}
    assert services.books.remove(book.id)
    assert services.reading_time.log.finished() == {}


def test_the_upgrade_dates_books_finished_before_it(tmp_path: Path) -> None:
    import sqlean

    from reader.adapters.sqlite.migrations import FINISHED_BOOKS_FROM
    from reader.services import Services
    from tests.support.schema_history import roll_back

    services, book = sample_services()
    services.db.conn.execute(
        "UPDATE books SET current_page = page_count, last_read_at = '2025-12-24T10:00:00Z' WHERE id = ?",
        (book.id,),
    )
    db_path = services.db.path
    services.db.close()
    old = sqlean.connect(str(db_path), isolation_level=None)
    roll_back(old, FINISHED_BOOKS_FROM)
    old.close()
    assert Services.open(db_path).reading_time.log.finished() == {book.id: "2025-12-24"}
