"""Highlights and notes: made from a selection on a page, listed, removed (undoably) and re-anchored."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from dataclasses import dataclass

from reader.app.notes.anchoring import BookText, expected_page, find_anchor, make_anchor
from reader.app.notes.bookmark_anchors import BookmarkReport, reanchor_bookmarks
from reader.app.pages.chunking import join_chunks
from reader.domain.annotation_ports import AnnotationRepository, BookmarkRepository
from reader.domain.annotations import Annotation, AnnotationLine, MarkCounts
from reader.domain.errors import ReaderError
from reader.domain.models import Chunk
from reader.domain.ports import BookRepository, ChunkRepository


@dataclass(frozen=True)
class ReanchorReport:
    """What re-anchoring a book's annotations did: how many stayed, moved and were orphaned."""

    kept: int = 0
    moved: int = 0
    orphaned: int = 0
    found_again: int = 0
    """Annotations orphaned by an earlier reindex that were found again."""
    bookmarks: BookmarkReport = BookmarkReport()
    """What became of the book's bookmarks."""

    @property
    def message(self) -> str:
        highlights = ""
        if self.moved or self.orphaned or self.found_again:
            parts = [f"{self.moved} highlight{'s' * (self.moved != 1)} re-anchored"] if self.moved else []
            if self.found_again:
                parts.append(f"{self.found_again} found again")
            if self.orphaned:
                parts.append(f"{self.orphaned} no longer found (kept as orphaned; `reader notes` lists them)")
            highlights = "; ".join(parts) + "."
        return " ".join(filter(None, [highlights, self.bookmarks.message]))


def page_texts(chunks: Sequence[Chunk], page_count: int) -> list[str]:
    """Each page's text as the viewer shows it, from the book's chunks."""
    by_page: dict[int, list[Chunk]] = {}
    for chunk in chunks:
        by_page.setdefault(chunk.start_page, []).append(chunk)
    return [join_chunks(by_page.get(n, [])) for n in range(1, page_count + 1)]


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
        book = self.books.get(book_id)
        if book is None:
            return ReanchorReport()
        stored = self.annotations.list(book_id)
        bookmarks = self.bookmarks.list(book_id) if self.bookmarks is not None else []
        if not stored and not bookmarks:
            return ReanchorReport()
        texts = page_texts(self.chunks.get_by_page_range(book_id, 1, book.page_count), book.page_count)
        whole = BookText(texts)
        marks = BookmarkReport()
        if self.bookmarks is not None and bookmarks:
            placed, marks = reanchor_bookmarks(bookmarks, whole, old_page_count or book.page_count)
            if placed != bookmarks:
                self.bookmarks.replace_all(book_id, placed)
        kept = moved = orphaned = found_again = 0
        for annotation in stored:
            anchor = annotation.anchor
            if (
                1 <= anchor.page <= len(texts)
                and texts[anchor.page - 1][anchor.start : anchor.end] == anchor.quote
            ):
                if annotation.orphaned:
                    self.annotations.move(annotation.id, anchor)
                    found_again += 1
                else:
                    kept += 1
                continue
            near = expected_page(anchor, old_page_count or book.page_count, book.page_count)
            found = find_anchor(anchor, whole, near)
            self.annotations.move(annotation.id, found)
            if found is None:
                orphaned += not annotation.orphaned
            elif annotation.orphaned:
                found_again += 1
            else:
                moved += 1
        return ReanchorReport(kept, moved, orphaned, found_again, marks)
