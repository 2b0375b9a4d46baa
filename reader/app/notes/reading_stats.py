"""Reading statistics from the local reading log: time read, pages per day, books finished."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from reader.domain.models import Book
from reader.domain.reading_log import ReadingDay

BARS = " ▁▂▃▄▅▆▇█"


@dataclass(frozen=True)
class ReadingStats:
    """Totals over the whole log and pages read per day over the last weeks (oldest day first)."""

    seconds: float
    pages: int
    words: int
    days: list[tuple[date, int]]
    finished: list[Book]
    """The finished books, in the order they were finished."""
    finished_on: dict[str, str]
    """The local date (YYYY-MM-DD) each finished book was first finished, by book id."""

    @property
    def hours(self) -> float:
        return self.seconds / 3600


def reading_stats(
    log: Sequence[ReadingDay],
    books: Sequence[Book],
    today: date,
    weeks: int = 4,
    finished_on: Mapping[str, str] | None = None,
) -> ReadingStats:
    """Stats of `log` (already limited to one book when asked); of `books`, those in `finished_on` (the
    day each was first finished) or read to the story's last page are finished."""
    first = today - timedelta(days=weeks * 7 - 1)
    per_day: dict[str, int] = {}
    for day in log:
        per_day[day.day] = per_day.get(day.day, 0) + day.pages
    days = [
        (first + timedelta(days=n), per_day.get((first + timedelta(days=n)).isoformat(), 0))
        for n in range(weeks * 7)
    ]
    dates = dict(finished_on or {})
    finished = [book for book in books if book.id in dates or book.current_page >= book.story_last]
    finished.sort(key=lambda book: (dates.get(book.id, today.isoformat()), book.title))
    return ReadingStats(
        sum(d.seconds for d in log),
        sum(d.pages for d in log),
        sum(d.words for d in log),
        days,
        finished,
        {book.id: dates[book.id] for book in finished if book.id in dates},
    )


def finished_date(day: str) -> str:
    """A finished date (YYYY-MM-DD) as "Nov 24, 2026" (as stored when it does not parse)."""
    try:
        return date.fromisoformat(day).strftime("%b %d, %Y")
    except ValueError:
        return day


def day_chart(days: Sequence[tuple[date, int]], height: int = 4) -> list[str]:
    """A bar chart of pages per day, `height` rows of block characters, then a row of week starts."""
    top = max((pages for _, pages in days), default=0)
    rows = []
    for row in range(height, 0, -1):
        line = ""
        for _, pages in days:
            filled = pages / top * height if top else 0
            eighths = round(max(0.0, min(1.0, filled - (row - 1))) * 8)
            line += BARS[eighths]
        rows.append(line.rstrip() or "")
    ticks = "".join("|" if day.weekday() == 0 else " " for day, _ in days)
    labels = ""
    for index, (day, _) in enumerate(days):
        if day.weekday() == 0 and len(labels) <= index:
            labels += " " * (index - len(labels)) + day.strftime("%b %d")
    return [*rows, ticks.rstrip(), labels]
