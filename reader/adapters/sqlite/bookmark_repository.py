"""Bookmarks in the library file."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

from reader.domain.annotations import Bookmark

_COLUMNS = "id, book_id, page, name, created_at, anchor, orphaned"


def _bookmark(row: Sequence[Any]) -> Bookmark:
    return Bookmark(row[0], row[1], row[2], row[3], row[4], row[5], bool(row[6]))


class SqliteBookmarkRepository:
    """Reads and writes rows of the `bookmarks` table."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def add(self, book_id: str, page: int, name: str = "", anchor: str = "") -> Bookmark:
        self.conn.execute(
            "INSERT INTO bookmarks (book_id, page, name, anchor) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(book_id, page) DO UPDATE SET name = excluded.name, anchor = excluded.anchor, "
            "orphaned = 0",
            (book_id, page, name.strip(), anchor),
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
            f"INSERT OR REPLACE INTO bookmarks ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                bookmark.id,
                bookmark.book_id,
                bookmark.page,
                bookmark.name,
                bookmark.created_at,
                bookmark.anchor,
                int(bookmark.orphaned),
            ),
        )

    def replace_all(self, book_id: str, bookmarks: Sequence[Bookmark]) -> None:
        self.conn.execute("SAVEPOINT bookmarks_replaced")
        try:
            self.conn.execute("DELETE FROM bookmarks WHERE book_id = ?", (book_id,))
            for bookmark in bookmarks:
                self.restore(bookmark)
        except BaseException:
            self.conn.execute("ROLLBACK TO bookmarks_replaced")
            self.conn.execute("RELEASE bookmarks_replaced")
            raise
        self.conn.execute("RELEASE bookmarks_replaced")


def delete_reader_marks(conn: Any, book_id: str) -> None:
    """Delete a removed book's bookmarks, highlights, notes, reading log and finished date (inside the
    caller's transaction)."""
    for table in ("bookmarks", "annotations", "reading_log", "finished_books"):
        conn.execute(f"DELETE FROM {table} WHERE book_id = ?", (book_id,))
