"""Reading time: words per page, the reader's pace from the reading log, time left, and logging reading."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from typing import TYPE_CHECKING

from reader.app.notes.reading_pace import Pace, TimeLeft, counts_as_reading, time_left
from reader.app.pages.page_lookup import page_chapter
from reader.domain.models import Book, Chapter

if TYPE_CHECKING:  # annotations only: the ports load with the adapters that implement them
    from reader.domain.annotation_ports import ReadingLogRepository
    from reader.domain.ports import ChunkRepository

PACE_DAYS = 90
"""The pace is measured over the reading of the last this many days."""


class ReadingTimeUseCase:
    """The reader's pace and the time left in a book, from their own page turns."""

    def __init__(self, chunks: ChunkRepository, log: ReadingLogRepository) -> None:
        self.chunks = chunks
        self.log = log

    def page_words(self, book: Book) -> list[int]:
        """How many words each page of `book` holds (counted in the library file, see ChunkRepository)."""
        counts = self.chunks.page_word_counts(book.id)
        return [counts.get(page, 0) for page in range(1, book.page_count + 1)]

    def pace(self, today: date | None = None) -> Pace:
        """The reader's pace over the last PACE_DAYS days (every book: a reader's pace is theirs)."""
        since = ((today or date.today()) - timedelta(days=PACE_DAYS)).isoformat()
        days = self.log.days(since=since)
        return Pace(sum(d.words for d in days), sum(d.seconds for d in days))

    def record(self, book_id: str, words: int, seconds: float, day: date | None = None) -> bool:
        """Log `seconds` on one page of `words` words if that was reading (not skimming, not idle)."""
        if not counts_as_reading(words, seconds):
            return False
        self.log.add(book_id, (day or date.today()).isoformat(), seconds, 1, words)
        return True

    def add(self, book_id: str, words: int, seconds: float, pages: int, day: date | None = None) -> None:
        """Log reading already checked page by page (the app's batched turns)."""
        self.log.add(book_id, (day or date.today()).isoformat(), seconds, pages, words)

    @staticmethod
    def time_left(
        book: Book, chapters: Sequence[Chapter], page_words: Sequence[int], page: int, wpm: float
    ) -> TimeLeft:
        chapter = page_chapter(book, chapters, page)
        end = (
            min(chapter.end_page, book.story_last)
            if chapter is not None and not book.matter_at(page)
            else None
        )
        return time_left(page, page_words, end, book.story_last, wpm)
