"""Re-anchoring after a re-import or reindex: every highlight, note and bookmark found again in the book's
new pages, or kept as orphaned. Imported only when a book is re-imported, so it stays off start-up."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reader.app.notes.anchoring import BookText, expected_page, find_anchor
from reader.app.notes.bookmark_anchors import BookmarkReport, reanchor_bookmarks
from reader.domain.annotation_ports import AnnotationRepository, BookmarkRepository
from reader.domain.models import Chunk, join_chunks
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


def reanchor_marks(
    annotations: AnnotationRepository,
    bookmarks_repo: BookmarkRepository | None,
    books: BookRepository,
    chunks: ChunkRepository,
    book_id: str,
    old_page_count: int | None = None,
) -> ReanchorReport:
    """Find every annotation and bookmark of the book again in its (re-imported) pages; orphan what is gone.

    `old_page_count` is how many pages the book had before (to guess where a passage moved).
    """
    book = books.get(book_id)
    if book is None:
        return ReanchorReport()
    stored = annotations.list(book_id)
    bookmarks = bookmarks_repo.list(book_id) if bookmarks_repo is not None else []
    if not stored and not bookmarks:
        return ReanchorReport()
    texts = page_texts(chunks.get_by_page_range(book_id, 1, book.page_count), book.page_count)
    whole = BookText(texts)
    marks = BookmarkReport()
    if bookmarks_repo is not None and bookmarks:
        placed, marks = reanchor_bookmarks(bookmarks, whole, old_page_count or book.page_count)
        if placed != bookmarks:
            bookmarks_repo.replace_all(book_id, placed)
    kept = moved = orphaned = found_again = 0
    for annotation in stored:
        anchor = annotation.anchor
        if (
            1 <= anchor.page <= len(texts)
            and texts[anchor.page - 1][anchor.start : anchor.end] == anchor.quote
        ):
            if annotation.orphaned:
                annotations.move(annotation.id, anchor)
                found_again += 1
            else:
                kept += 1
            continue
        near = expected_page(anchor, old_page_count or book.page_count, book.page_count)
        found = find_anchor(anchor, whole, near)
        annotations.move(annotation.id, found)
        if found is None:
            orphaned += not annotation.orphaned
        elif annotation.orphaned:
            found_again += 1
        else:
            moved += 1
    return ReanchorReport(kept, moved, orphaned, found_again, marks)
