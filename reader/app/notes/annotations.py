"""Highlights and notes: made from a selection on a page, listed, removed (undoably) and re-anchored."""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING

from reader.domain.annotations import Annotation, AnnotationLine, MarkCounts
from reader.domain.errors import ReaderError

if TYPE_CHECKING:
    from reader.app.notes.reanchoring import ReanchorReport
    from reader.domain.annotation_ports import AnnotationRepository, BookmarkRepository
    from reader.domain.ports import BookRepository, ChunkRepository


class AnnotationsUseCase:
    """The reader's highlights and notes of their books."""

    def __init__(
        self,
        annotations: AnnotationRepository,
        books: BookRepository,
        chunks: ChunkRepository,
        bookmarks: BookmarkRepository | None = None,
    ) -> None:
        self.annotations = annotations
        self.books = books
        self.chunks = chunks
        self.bookmarks = bookmarks

    def highlight(
        self, book_id: str, page: int, text: str, start: int, end: int, note: str = ""
    ) -> Annotation:
        """Highlight `text[start:end]` of page `page` (with a note, when given).

        Raises:
            ReaderError: when the selection holds no text.
        """
        from reader.app.notes.anchoring import make_anchor  # on a highlight: kept off start-up

        anchor = make_anchor(page, text, start, end)
        if not anchor.quote:
            raise ReaderError("Nothing to highlight: the selection holds no text.")
        return self.annotations.add(book_id, anchor, note)

    def on_page(self, book_id: str, page: int) -> list[Annotation]:
        return self.annotations.on_page(book_id, page)

    def list(self, book_id: str, up_to_page: int | None = None) -> list[Annotation]:
        return self.annotations.list(book_id, up_to_page)

    def lines(self, book_id: str, offset: int = 0, limit: int = -1) -> builtins.list[AnnotationLine]:
        """The book's highlights and notes as their list shows them (a light read for 10,000 of them):
        `limit` of them (all when negative) from the `offset`-th on, in page and text order."""
        return self.annotations.lines(book_id, offset, limit)

    def count(self, book_id: str, up_to_page: int | None = None) -> int:
        """How many highlights and notes the book has, up to page `up_to_page` when given."""
        return self.annotations.count(book_id, up_to_page)

    def counts(self, book_id: str) -> MarkCounts:
        """How many bookmarks, highlights and notes the book has (what removing it would delete)."""
        notes = self.annotations.count_notes(book_id)
        bookmarks = len(self.bookmarks.list(book_id)) if self.bookmarks is not None else 0
        return MarkCounts(bookmarks, self.annotations.count(book_id) - notes, notes)

    def set_note(self, annotation_id: int, note: str) -> Annotation | None:
        return self.annotations.set_note(annotation_id, note)

    def remove(self, annotation_id: int) -> Annotation | None:
        """Remove one highlight or note; returns it so `restore` can undo the removal."""
        return self.annotations.remove(annotation_id)

    def restore(self, annotation: Annotation) -> None:
        self.annotations.restore(annotation)

    def reanchor(self, book_id: str, old_page_count: int | None = None) -> ReanchorReport:
        """Find every annotation and bookmark of the book again in its (re-imported) pages; orphan what
        is gone.

        `old_page_count` is how many pages the book had before (to guess where a passage moved).
        """
        from reader.app.notes.reanchoring import reanchor_marks  # re-imports only: kept off start-up

        return reanchor_marks(self.annotations, self.bookmarks, self.books, self.chunks, book_id, old_page_count)
