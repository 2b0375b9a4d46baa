"""Highlights and notes in the library file."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

from reader.adapters.sqlite.book_repository import utc_now
from reader.domain.annotations import Anchor, Annotation, AnnotationLine

_COLUMNS = "id, book_id, page, start, end, quote, prefix, suffix, note, orphaned, created_at, updated_at"


def _annotation(row: Sequence[Any]) -> Annotation:
    return Annotation(
        id=row[0],
        book_id=row[1],
        anchor=Anchor(row[2], row[3], row[4], row[5], row[6], row[7]),
        note=row[8],
        orphaned=bool(row[9]),
        created_at=row[10],
        updated_at=row[11],
    )


class SqliteAnnotationRepository:
    """Reads and writes rows of the `annotations` table."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def add(self, book_id: str, anchor: Anchor, note: str = "") -> Annotation:
        now = utc_now()
        cursor = self.conn.execute(
            "INSERT INTO annotations (book_id, page, start, end, quote, prefix, suffix, note, created_at, "
            "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                book_id,
                anchor.page,
                anchor.start,
                anchor.end,
                anchor.quote,
                anchor.prefix,
                anchor.suffix,
                note.strip(),
                now,
                now,
            ),
        )
        found = self.get(cursor.lastrowid)
        assert found is not None
        return found

    def get(self, annotation_id: int) -> Annotation | None:
        row = self.conn.execute(
            f"SELECT {_COLUMNS} FROM annotations WHERE id = ?", (annotation_id,)
        ).fetchone()
        return _annotation(row) if row else None

    def on_page(self, book_id: str, page: int) -> builtins.list[Annotation]:
        rows = self.conn.execute(
            f"SELECT {_COLUMNS} FROM annotations WHERE book_id = ? AND page = ? AND orphaned = 0 "
            "ORDER BY start, id",
            (book_id, page),
        ).fetchall()
        return [_annotation(row) for row in rows]

    def list(self, book_id: str, up_to_page: int | None = None) -> builtins.list[Annotation]:
        limit = up_to_page if up_to_page is not None else 1 << 62
        rows = self.conn.execute(
            f"SELECT {_COLUMNS} FROM annotations WHERE book_id = ? AND page <= ? ORDER BY page, start, id",
            (book_id, limit),
        ).fetchall()
        return [_annotation(row) for row in rows]

    def lines(self, book_id: str, offset: int = 0, limit: int = -1) -> builtins.list[AnnotationLine]:
        rows = self.conn.execute(
            "SELECT id, page, quote, note, orphaned FROM annotations WHERE book_id = ? "
            "ORDER BY page, start, id LIMIT ? OFFSET ?",
            (book_id, limit, offset),
        ).fetchall()
        return [AnnotationLine(row[0], row[1], row[2], row[3], bool(row[4])) for row in rows]

    def count(self, book_id: str, up_to_page: int | None = None) -> int:
        limit = up_to_page if up_to_page is not None else 1 << 62
        row = self.conn.execute(
            "SELECT count(*) FROM annotations WHERE book_id = ? AND page <= ?", (book_id, limit)
        ).fetchone()
        return int(row[0])

    def count_notes(self, book_id: str) -> int:
        row = self.conn.execute(
            "SELECT count(*) FROM annotations WHERE book_id = ? AND note != ''", (book_id,)
        ).fetchone()
        return int(row[0])

    def set_note(self, annotation_id: int, note: str) -> Annotation | None:
        self.conn.execute(
            "UPDATE annotations SET note = ?, updated_at = ? WHERE id = ?",
            (note.strip(), utc_now(), annotation_id),
        )
        return self.get(annotation_id)

    def remove(self, annotation_id: int) -> Annotation | None:
        found = self.get(annotation_id)
        if found is not None:
            self.conn.execute("DELETE FROM annotations WHERE id = ?", (annotation_id,))
        return found

    def restore(self, annotation: Annotation) -> None:
        a = annotation.anchor
        self.conn.execute(
            f"INSERT OR REPLACE INTO annotations ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                annotation.id,
                annotation.book_id,
                a.page,
                a.start,
                a.end,
                a.quote,
                a.prefix,
                a.suffix,
                annotation.note,
                int(annotation.orphaned),
                annotation.created_at,
                annotation.updated_at,
            ),
        )

    def move(self, annotation_id: int, anchor: Anchor | None) -> None:
        if anchor is None:
            self.conn.execute("UPDATE annotations SET orphaned = 1 WHERE id = ?", (annotation_id,))
            return
        self.conn.execute(
            "UPDATE annotations SET page = ?, start = ?, end = ?, quote = ?, prefix = ?, suffix = ?, orphaned = 0 "
            "WHERE id = ?",
            (
                anchor.page,
                anchor.start,
                anchor.end,
                anchor.quote,
                anchor.prefix,
                anchor.suffix,
                annotation_id,
            ),
        )
