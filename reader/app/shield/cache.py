"""Spoiler-shield indexes, built once per book and kept for the session; the rules per horizon on top.

Reading a book's pages from the library is quick (War and Peace: about 40 ms) and happens in the
caller's thread (a connection belongs to its thread); indexing them (about 1.5 s there) runs in a
background thread, so a first answer does not wait for it unless its first sentence is ready first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future

from reader.app.shield.book_index import BookTextIndex
from reader.app.shield.rules import ShieldIndex
from reader.domain.models import Book
from reader.domain.ports import BookRepository, ChunkRepository, ConceptRepository

BOOKS_KEPT = 3
HORIZONS_KEPT = 16
BUILD_TIMEOUT = 60.0
"""Seconds an answer waits for a book's index at most before letting text through unchecked."""


class ShieldIndexes:
    """Book indexes (keyed by book and import time) and horizon rules, shared by every thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._books: OrderedDict[tuple[str, str], Future[BookTextIndex]] = OrderedDict()
        self._rules: OrderedDict[tuple[str, str, int], ShieldIndex] = OrderedDict()

    def book_text(self, book: Book, chunks: ChunkRepository) -> Future[BookTextIndex]:
        """The book's text index: building (in a background thread) or built."""
        key = (book.id, book.imported_at)
        with self._lock:
            future = self._books.get(key)
            if future is not None:
                self._books.move_to_end(key)
                return future
            future = Future()
            self._books[key] = future
            while len(self._books) > BOOKS_KEPT:
                self._books.popitem(last=False)
        pages = [(c.start_page, c.text) for c in chunks.get_by_page_range(book.id, 1, book.page_count)]

        def build() -> None:
            try:
                future.set_result(BookTextIndex.build(pages))
            except BaseException as error:  # noqa: BLE001 - handed to whoever waits
                future.set_exception(error)

        threading.Thread(target=build, name=f"shield-index-{book.short_id}", daemon=True).start()
        return future

    def warm(self, book: Book, chunks: ChunkRepository) -> None:
        """Start indexing the book now (when it is opened), so its first answer finds the index ready."""
        self.book_text(book, chunks)

    def source(
        self,
        book: Book,
        horizon: int,
        books: BookRepository,
        chunks: ChunkRepository,
        concepts: ConceptRepository | None,
    ) -> ShieldSource:
        """A source of the rules at `horizon`: what it needs from the library is read now, in this thread;
        calling it waits for the book's index if it is still being built."""
        text = self.book_text(book, chunks)
        names = concepts.names(book.id) if concepts is not None else []
        pages, chapters = books.pages(book.id), books.chapters(book.id)

        def rules_at(page: int) -> ShieldIndex:
            key = (book.id, book.imported_at, page)
            with self._lock:
                known = self._rules.get(key)
            if known is not None:
                return known
            index = ShieldIndex(book, page, text.result(BUILD_TIMEOUT), names, pages, chapters)
            with self._lock:
                self._rules[key] = index
                while len(self._rules) > HORIZONS_KEPT:
                    self._rules.popitem(last=False)
            return index

        return ShieldSource(rules_at, horizon)


class ShieldSource:
    """The rules at a horizon, made on first call (an `IndexSource`); `at(page)` gives another page's."""

    def __init__(self, rules_at: Callable[[int], ShieldIndex], horizon: int) -> None:
        self._rules_at = rules_at
        self.horizon = horizon

    def __call__(self) -> ShieldIndex | None:
        return self._rules_at(self.horizon)

    def at(self, page: int) -> ShieldIndex | None:
        return self._rules_at(page)
