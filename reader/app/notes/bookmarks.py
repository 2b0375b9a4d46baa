"""Bookmarks: toggled on a page, named, listed and removed (undoably)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from reader.domain.annotations import Bookmark
from reader.domain.models import join_chunks

if TYPE_CHECKING:  # annotations only: the ports load with the adapters that implement them
    from reader.domain.annotation_ports import BookmarkRepository
    from reader.domain.ports import ChunkRepository


class Toggled(NamedTuple):
    """What toggling a page's bookmark did: `added` it, or `removed` it (kept for undo)."""

    added: Bookmark | None = None
    removed: Bookmark | None = None


class BookmarksUseCase:
    """The reader's bookmarks of their books."""

    def __init__(self, bookmarks: BookmarkRepository, chunks: ChunkRepository | None = None) -> None:
        self.bookmarks = bookmarks
        self.chunks = chunks

    def _anchor(self, book_id: str, page: int) -> str:
        """The start of the page's text, to find the page again after a reindex."""
        if self.chunks is None:
            return ""
        from reader.app.notes.bookmark_anchors import page_anchor  # on a toggle: kept off start-up

        chunks = self.chunks.get_by_page_range(book_id, page, page)
        return page_anchor(join_chunks(c for c in chunks if c.start_page == page))

    def toggle(self, book_id: str, page: int) -> Toggled:
        """Bookmark `page`, or remove its bookmark when it has one."""
        existing = self.bookmarks.at(book_id, page)
        if existing is not None:
            return Toggled(removed=self.bookmarks.remove(existing.id))
        return Toggled(added=self.bookmarks.add(book_id, page, "", self._anchor(book_id, page)))

    def name(self, book_id: str, page: int, name: str) -> Bookmark:
        """Bookmark `page` with a name (renaming its bookmark when it has one)."""
        return self.bookmarks.add(book_id, page, name, self._anchor(book_id, page))

    def at(self, book_id: str, page: int) -> Bookmark | None:
        return self.bookmarks.at(book_id, page)

    def list(self, book_id: str) -> list[Bookmark]:
        return self.bookmarks.list(book_id)

    def remove(self, bookmark_id: int) -> Bookmark | None:
        return self.bookmarks.remove(bookmark_id)

    def restore(self, bookmark: Bookmark) -> None:
        self.bookmarks.restore(bookmark)
