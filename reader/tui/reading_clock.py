"""Times the reader's page turns for their pace, and says how long the chapter and the book have left."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.message import Message

from reader.app.notes.reading_pace import Pace, PageClock, TimeLeft, counts_as_reading
from reader.domain.models import Book

if TYPE_CHECKING:
    from textual.widget import Widget

    from reader.tui.reading_session import ReadingSession

FLUSH_PAGES = 5
"""Timed pages are written to the reading log in batches of this many (and when the book closes)."""


class PaceLoaded(Message):
    """The words on each page of a book and the reader's pace, read for the clock (`ReadingClock._load`)."""

    def __init__(self, book_id: str, words: list[int], pace: Pace) -> None:
        super().__init__()
        self.book_id = book_id
        self.words = words
        self.pace = pace


class ReadingClock:
    """Per open book: times forward page turns, keeps the pace and logs reading off the UI thread."""

    def __init__(self, owner: Widget, now: Callable[[], float] = time.monotonic) -> None:
        self.owner = owner
        self.now = now
        self.clock = PageClock()
        self.book_id: str | None = None
        self.words: list[int] | None = None
        self.pace = Pace()
        self._pending = (0, 0.0, 0)

    @property
    def wpm(self) -> float:
        return self.pace.wpm

    def open(self, book: Book | None) -> None:
        """Start timing `book` (None: no book); its words per page and the pace are read once the app's
        first page is on screen (at once after that)."""
        self.flush()
        self.clock = PageClock()
        self.words = None
        self.book_id = book.id if book is not None else None
        if book is None:
            return
        after_first_page = getattr(self.owner.app, "after_first_page", None)
        if after_first_page is None:
            self._load(book)
        else:
            after_first_page(lambda: self._load(book))

    def _load(self, book: Book) -> None:
        """Read `book`'s words per page and the pace on the UI thread: a short row per page that the
        library file keeps counted (`pages.word_count`), read in a millisecond or two for 1,000 pages,
        less than a worker thread costs to start. A failure is one line and the clock stays off."""
        services = getattr(self.owner.app, "services", None)
        if services is None or book.id != self.book_id:
            return  # no library, or another book opened before the first page came
        try:
            reading = services.reading_time
            loaded = PaceLoaded(book.id, reading.page_words(book), reading.pace())
        except Exception as error:  # noqa: BLE001 - shown, and reading goes on without the clock
            self.owner.notify(
                f"Loading the reading pace failed: {type(error).__name__}: {error}",
                severity="error",
                timeout=8,
            )
            return
        self.owner.post_message(loaded)

    def loaded(self, event: PaceLoaded) -> bool:
        """Take what was read; True if it is for the open book."""
        if event.book_id != self.book_id:
            return False
        self.words = event.words
        words, seconds, _ = self._pending
        self.pace = event.pace.plus(words, seconds)
        return True

    def shown(self, page: int) -> None:
        """Page `page` is on screen: the page before it was read if it was turned forward from."""
        read = self.clock.shown(page, self.now())
        if read is None or self.words is None:
            return
        number, seconds = read
        words = self.words[number - 1] if 1 <= number <= len(self.words) else 0
        if not counts_as_reading(words, seconds):
            return
        self.pace = self.pace.plus(words, seconds)
        total_words, total_seconds, pages = self._pending
        self._pending = (total_words + words, total_seconds + seconds, pages + 1)
        if pages + 1 >= FLUSH_PAGES:
            self.flush()

    def flush(self, *, wait: bool = False) -> None:
        """Write the timed pages not yet logged (in a worker, or at once with `wait`)."""
        words, seconds, pages = self._pending
        book_id = self.book_id
        services = getattr(self.owner.app, "services", None)
        if not pages or book_id is None or services is None:
            return
        self._pending = (0, 0.0, 0)
        if wait:
            services.reading_time.add(book_id, words, seconds, pages)
        else:
            self.owner.run_worker(
                lambda: services.reading_time.add(book_id, words, seconds, pages),
                thread=True,
                group="pace-log",
                exit_on_error=False,
            )

    def time_left(self, session: ReadingSession) -> TimeLeft | None:
        """Time left in the chapter and the book at the page on screen (None until the words are loaded)."""
        if self.words is None or self.book_id != session.book.id:
            return None
        from reader.app.notes.reading_time import ReadingTimeUseCase

        return ReadingTimeUseCase.time_left(
            session.book, session.chapters, self.words, session.number, self.wpm
        )
