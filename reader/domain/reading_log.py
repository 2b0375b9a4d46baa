"""The reading log: time spent and pages turned, day by day and book by book."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReadingDay:
    """Reading done on one day in one book: seconds spent on pages, pages turned, words read."""

    book_id: str
    day: str
    """The local date, YYYY-MM-DD."""
    seconds: float
    pages: int
    words: int
