"""The pictures of pages that are images (comics, fixed-layout EPUBs), kept in the library file."""

from __future__ import annotations

from typing import Any

from reader.domain.models import PagePicture


class SqlitePageImageRepository:
    """Reads page pictures; the import writes them with the book (SqliteBookRepository.replace)."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def picture(self, book_id: str, page: int) -> PagePicture | None:
        """The picture of 1-based `page`, or None when that page is not a picture."""
        row = self.conn.execute(
            "SELECT media_type, data FROM page_images WHERE book_id = ? AND page = ?", (book_id, page)
        ).fetchone()
        return PagePicture(row[0], bytes(row[1])) if row else None

    def pages_with_pictures(self, book_id: str) -> set[int]:
        """The numbers of the book's pages that are pictures (empty for a book of text)."""
        rows = self.conn.execute("SELECT page FROM page_images WHERE book_id = ?", (book_id,)).fetchall()
        return {row[0] for row in rows}
