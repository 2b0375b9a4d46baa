"""Protocols the use cases depend on; adapters implement them."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from reader.domain.models import Book, Chapter, Chunk, ExtractedBook, Page

ProgressCallback = Callable[[int, int], None]
"""Called with (done, total) as long work advances."""


class BookExtractor(Protocol):
    """Reads one file format into an ExtractedBook.

    Raises:
        ExtractionError: with a one-line message when the file cannot be read as a book.
    """

    def extract(
        self, path: Path, password: str | None = None, progress: ProgressCallback | None = None
    ) -> ExtractedBook: ...


class BookRepository(Protocol):
    """Stored books, their pages and chapters."""

    def get(self, book_id: str) -> Book | None: ...

    def list(self) -> list[Book]: ...

    def pages(self, book_id: str) -> builtins.list[Page]: ...

    def chapters(self, book_id: str) -> builtins.list[Chapter]: ...

    def set_current_page(self, book_id: str, page: int) -> None: ...

    def remove(self, book_id: str) -> bool: ...

    def mark_read(self, book_id: str) -> None: ...

    def index_version(self, book_id: str) -> int | None: ...

    def replace(
        self,
        book: Book,
        file_size: int,
        index_version: int,
        pages: Sequence[Page],
        chapters: Sequence[Chapter],
        chunks: Sequence[Chunk],
    ) -> None:
        """Write a whole book atomically, replacing an earlier copy but keeping its reading position."""
        ...


class ChunkRepository(Protocol):
    """Stored page-aligned chunks."""

    def get_by_page_range(self, book_id: str, start_page: int, end_page: int) -> Sequence[Chunk]:
        """All chunks overlapping [start_page, end_page], in reading order."""
        ...
