"""Stored pictures: written with a book at import, read a page (or a cover) at a time by the viewer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reader.domain.images import COVER_PAGE, BookImage, PageImage
from reader.domain.models import PagePicture

_COLUMNS = (
    "SELECT i.id, i.page, i.position, coalesce(b.media_type, ''), i.alt, coalesce(b.width, 0), "
    "coalesce(b.height, 0), i.cover FROM page_images i LEFT JOIN image_blobs b ON b.id = i.blob_id "
)


def write_images(conn: Any, book_id: str, images: Sequence[BookImage]) -> None:
    """Store a book's pictures inside the caller's transaction, each distinct picture once."""
    import hashlib  # here, not at import: the page viewer reads pictures on the app's start-up path

    blobs: dict[bytes, int] = {}
    for image in images:
        blob_id = None
        if image.data:
            digest = hashlib.blake2b(image.data, digest_size=16).digest()
            blob_id = blobs.get(digest)
            if blob_id is None:
                cursor = conn.execute(
                    "INSERT INTO image_blobs (book_id, hash, media_type, width, height, data) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (book_id, digest.hex(), image.media_type, image.width, image.height, image.data),
                )
                blob_id = blobs[digest] = cursor.lastrowid
        conn.execute(
            "INSERT INTO page_images (book_id, page, position, blob_id, alt, cover, whole_page) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (book_id, image.page, image.offset, blob_id, image.alt, int(image.cover), int(image.whole_page)),
        )


def _image(row: Sequence[Any]) -> PageImage:
    return PageImage(row[0], row[1], row[2], row[3], row[4], row[5], row[6], bool(row[7]))


class SqliteImageRepository:
    """Reads the pictures stored with books."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def on_page(self, book_id: str, page: int) -> list[PageImage]:
        """The pictures on a page, in the order they stand."""
        rows = self.conn.execute(
            _COLUMNS + "WHERE i.book_id = ? AND i.page = ? ORDER BY i.position, i.id", (book_id, page)
        ).fetchall()
        return [_image(row) for row in rows]

    def pages_with_images(self, book_id: str) -> set[int]:
        """The pages that have pictures."""
        rows = self.conn.execute(
            "SELECT DISTINCT page FROM page_images WHERE book_id = ? AND page > ?", (book_id, COVER_PAGE)
        ).fetchall()
        return {row[0] for row in rows}

    def cover(self, book_id: str) -> PageImage | None:
        """The book's cover picture, if it has one that can be read."""
        row = self.conn.execute(
            _COLUMNS + "WHERE i.book_id = ? AND i.cover = 1 AND i.blob_id IS NOT NULL ORDER BY i.id LIMIT 1",
            (book_id,),
        ).fetchone()
        return _image(row) if row else None

    def data(self, image_id: int) -> bytes:
        """A picture's bytes (b"" for one the book lacks)."""
        row = self.conn.execute(
            "SELECT b.data FROM page_images i JOIN image_blobs b ON b.id = i.blob_id WHERE i.id = ?",
            (image_id,),
        ).fetchone()
        return bytes(row[0]) if row else b""

    def picture(self, book_id: str, page: int) -> PagePicture | None:
        """The picture that is 1-based `page`, or None when that page is not a picture (OCR reads it)."""
        row = self.conn.execute(
            "SELECT b.media_type, b.data FROM page_images i JOIN image_blobs b ON b.id = i.blob_id "
            "WHERE i.book_id = ? AND i.page = ? AND i.whole_page = 1 ORDER BY i.position, i.id LIMIT 1",
            (book_id, page),
        ).fetchone()
        return PagePicture(row[0], bytes(row[1])) if row else None

    def pages_with_pictures(self, book_id: str) -> set[int]:
        """The numbers of the book's pages that are pictures (empty for a book of text, illustrated or not)."""
        rows = self.conn.execute(
            "SELECT DISTINCT page FROM page_images WHERE book_id = ? AND whole_page = 1", (book_id,)
        ).fetchall()
        return {row[0] for row in rows}
