"""The reader's pace (words per minute from page turns) and the time left in a chapter and a book."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

DEFAULT_WPM = 250.0
"""An adult's usual pace reading prose: where the estimate starts before any page was timed."""

PRIOR_MINUTES = 10.0
"""How many minutes of reading the default pace weighs as: the reader's own pace takes over gradually."""

SKIM_WPM = 900.0
"""A page turned faster than this was skimmed or skipped, not read: its time is not counted."""

IDLE_WPM = 40.0
"""A page that took longer than at this pace was left open (a break, a phone call): not counted."""

MIN_IDLE_SECONDS = 120.0
"""...and never counts as idle below two minutes (a short page read slowly is still reading)."""

WORDS_PER_CHAR = 1 / 6
"""Words from characters where only lengths are known (English averages about 6 characters a word)."""


class Pace(NamedTuple):
    """Words read in `seconds` of counted reading; the pace blends it with the default."""

    words: int = 0
    seconds: float = 0.0

    @property
    def wpm(self) -> float:
        minutes = self.seconds / 60
        return (self.words + DEFAULT_WPM * PRIOR_MINUTES) / (minutes + PRIOR_MINUTES)

    def plus(self, words: int, seconds: float) -> Pace:
        return Pace(self.words + words, self.seconds + seconds)


def counts_as_reading(words: int, seconds: float) -> bool:
    """Whether `seconds` on a page of `words` words was reading (not skimming, not an idle gap)."""
    if words <= 0 or seconds <= 0:
        return False
    wpm = words / (seconds / 60)
    idle = seconds > max(MIN_IDLE_SECONDS, words / IDLE_WPM * 60)
    return wpm <= SKIM_WPM and not idle


class TimeLeft(NamedTuple):
    """Minutes left at the reader's pace: in the chapter (None outside one) and in the story."""

    chapter_minutes: float | None
    book_minutes: float


def time_left(
    page: int, page_words: Sequence[int], chapter_end: int | None, story_last: int, wpm: float
) -> TimeLeft:
    """Time to read from the start of `page` to the chapter's last page and to the story's last page."""
    wpm = max(wpm, 1.0)

    def minutes(last: int) -> float:
        return sum(page_words[page - 1 : max(page - 1, last)]) / wpm

    return TimeLeft(minutes(chapter_end) if chapter_end is not None else None, minutes(story_last))


def format_minutes(minutes: float) -> str:
    """'under a minute', '12 min', '3 h 5 min'."""
    whole = round(minutes)
    if whole < 1:
        return "<1 min"
    if whole < 60:
        return f"{whole} min"
    hours, rest = divmod(whole, 60)
    return f"{hours} h {rest} min" if rest else f"{hours} h"


class PageClock:
    """Times page turns: a forward turn by one page after a counted stretch of reading is a timed page."""

    def __init__(self) -> None:
        self.page: int | None = None
        self.since = 0.0

    def shown(self, page: int, now: float) -> tuple[int, float] | None:
        """Page `page` appeared at `now`: returns (the page just read, seconds on it) after a turn forward."""
        previous, started = self.page, self.since
        self.page, self.since = page, now
        if previous is None or page != previous + 1:
            return None
        return previous, now - started
