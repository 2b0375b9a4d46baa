"""Protocols for the reader's bookmarks, highlights, notes and reading log; adapters implement them."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # annotations only: the records load with the modules that make them
    from reader.domain.annotations import Anchor, Annotation, AnnotationLine, Bookmark
    from reader.domain.reading_log import ReadingDay


class BookmarkRepository(Protocol):
    """Stored bookmarks; every write is committed at once."""

    def add(self, book_id: str, page: int, name: str = "", anchor: str = "") -> Bookmark:
        """Bookmark `page` (renaming the bookmark already there); `anchor` is the start of its text."""
        ...

    def at(self, book_id: str, page: int) -> Bookmark | None: ...

    def list(self, book_id: str) -> builtins.list[Bookmark]:
        """The book's bookmarks in page order."""
        ...

    def remove(self, bookmark_id: int) -> Bookmark | None:
        """Delete one bookmark; returns it (for undo) or None when it was not there."""
        ...

    def restore(self, bookmark: Bookmark) -> None:
        """Put a removed bookmark back as it was."""
        ...

    def replace_all(self, book_id: str, bookmarks: Sequence[Bookmark]) -> None:
        """Replace the book's bookmarks with `bookmarks` (ids kept) at once (after a reindex moved them)."""
        ...


class AnnotationRepository(Protocol):
    """Stored highlights and notes; every write is committed at once."""

    def add(self, book_id: str, anchor: Anchor, note: str = "") -> Annotation: ...

    def get(self, annotation_id: int) -> Annotation | None: ...

    def on_page(self, book_id: str, page: int) -> builtins.list[Annotation]:
        """The anchored (not orphaned) annotations of one page, in text order."""
        ...

    def list(self, book_id: str, up_to_page: int | None = None) -> builtins.list[Annotation]:
        """The book's annotations in page and text order (orphaned ones included), up to a page if given."""
        ...

    def lines(self, book_id: str, offset: int = 0, limit: int = -1) -> builtins.list[AnnotationLine]:
        """The book's annotations as a list shows them (page, quote, note), in page and text order;
        `limit` of them (all when negative) from the `offset`-th on."""
        ...

    def count(self, book_id: str, up_to_page: int | None = None) -> int:
        """How many annotations the book has (orphaned ones included), up to a page if given."""
        ...

    def count_notes(self, book_id: str) -> int:
        """How many of the book's annotations carry a note."""
        ...

    def set_note(self, annotation_id: int, note: str) -> Annotation | None: ...

    def remove(self, annotation_id: int) -> Annotation | None:
        """Delete one annotation; returns it (for undo) or None when it was not there."""
        ...

    def restore(self, annotation: Annotation) -> None:
        """Put a removed annotation back as it was (same id)."""
        ...

    def move(self, annotation_id: int, anchor: Anchor | None) -> None:
        """Re-anchor an annotation, or (None) mark it orphaned where it was."""
        ...


class ReadingLogRepository(Protocol):
    """Time spent reading, per book and local day."""

    def add(self, book_id: str, day: str, seconds: float, pages: int, words: int) -> None:
        """Add reading to a book's day."""
        ...

    def finished(self) -> dict[str, str]:
        """The local date (YYYY-MM-DD) each finished book was first finished, by book id."""
        ...

    def days(self, book_id: str | None = None, since: str | None = None) -> Sequence[ReadingDay]:
        """Logged days (of one book, or every book), oldest first, from `since` (YYYY-MM-DD) on."""
        ...
