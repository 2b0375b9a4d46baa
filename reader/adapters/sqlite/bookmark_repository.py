"""Bookmarks in the library file."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

from reader.domain.annotations import Bookmark

_COLUMNS = "id, book_id, page, name, created_at"


def _bookmark(row: Sequence[Any]) -> Bookmark:
    return Bookmark(row[0], row[1], row[2], row[3], row[4])


class SqliteBookmarkRepository:
    """Reads and writes rows of the `bookmarks` table."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def add(self, book_id: str, page: int, name: str = "") -> Bookmark:
        self.conn.execute(
            "INSERT INTO bookmarks (book_id, page, name) VALUES (?, ?, ?) "
            "ON CONFLICT(book_id, page) DO UPDATE SET name = excluded.name",
            (book_id, page, name.strip()),
        )
        found = self.at(book_id, page)
        assert found is not None
        return found

    def at(self, book_id: str, page: int) -> Bookmark | None:
        row = self.conn.execute(
            f"SELECT {_COLUMNS} FROM bookmarks WHERE book_id = ? AND page = ?", (book_id, page)
        ).fetchone()
        return _bookmark(row) if row else None

    def list(self, book_id: str) -> builtins.list[Bookmark]:
        rows = self.conn.execute(
            f"SELECT {_COLUMNS} FROM bookmarks WHERE book_id = ? ORDER BY page", (book_id,)
        ).fetchall()
        return [_bookmark(row) for row in rows]

    def remove(self, bookmark_id: int) -> Bookmark | None:
        row = self.conn.execute(f"SELECT {_COLUMNS} FROM bookmarks WHERE id = ?", (bookmark_id,)).fetchone()
        if row is None:
            return None
        self.conn.execute("DELETE FROM bookmarks WHERE id = ?", (bookmark_id,))
        return _bookmark(row)

    def restore(self, bookmark: Bookmark) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO bookmarks (id, book_id, page, name, created_at) VALUES (?, ?, ?, ?, ?)",
            (bookmark.id, bookmark.book_id, bookmark.page, bookmark.name, bookmark.created_at),
        )

    def clamp(self, book_id: str, page_count: int) -> None:
        self.conn.execute(
            "UPDATE OR IGNORE bookmarks SET page = ? WHERE book_id = ? AND page > ?",
            (page_count, book_id, page_count),
        )
        self.conn.execute("DELETE FROM bookmarks WHERE book_id = ? AND page > ?", (book_id, page_count))


def delete_reader_marks(conn: Any, book_id: str) -> None:
    """Delete a removed book's bookmarks, highlights, notes and reading log (inside the caller's transaction)."""
    for table in ("bookmarks", "annotations", "reading_log"):
        conn.execute(f"DELETE FROM {table} WHERE book_id = ?", (book_id,))
