"""Page-aligned chunks in the library file."""

from __future__ import annotations

from typing import Any

from reader.domain.models import Chunk

_COLUMNS = "id, book_id, chunk_index, start_page, end_page, text, continues"


def _chunk(row: Any) -> Chunk:
    return Chunk(
        id=row[0],
        book_id=row[1],
        index=row[2],
        start_page=row[3],
        end_page=row[4],
        text=row[5],
        continues_paragraph=bool(row[6]),
    )


class SqliteChunkRepository:
    """Looks chunks up by page range or id."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def get_by_page_range(self, book_id: str, start_page: int, end_page: int) -> list[Chunk]:
        """All chunks overlapping [start_page, end_page], in reading order."""
        rows = self.conn.execute(
            f"SELECT {_COLUMNS} FROM chunks WHERE book_id = ? AND start_page <= ? AND end_page >= ? "
            "ORDER BY chunk_index",
            (book_id, end_page, start_page),
        ).fetchall()
        return [_chunk(row) for row in rows]

    def page_word_counts(self, book_id: str) -> dict[int, int]:
        """page -> its words: the counts the chunks' triggers keep in `pages` (see migrations._words),
        within a few words in a thousand of `len(text.split())`; pages without words are left out.

        They come back as one row, one string: a thread fetching a row per page takes the GIL back for
        each, and with the UI thread busy each of those waits for it."""
        (counts,) = self.conn.execute(
            "SELECT group_concat(number || ':' || word_count, ' ') FROM pages "
            "WHERE book_id = ? AND word_count > 0",
            (book_id,),
        ).fetchone()
        pairs = (pair.partition(":") for pair in (counts or "").split())
        return {int(page): int(words) for page, _, words in pairs}

    def get_many(self, chunk_ids: list[str]) -> dict[str, Chunk]:
        if not chunk_ids:
            return {}
        marks = ",".join("?" * len(chunk_ids))
        rows = self.conn.execute(f"SELECT {_COLUMNS} FROM chunks WHERE id IN ({marks})", chunk_ids).fetchall()
        return {row[0]: _chunk(row) for row in rows}

    def count(self, book_id: str) -> int:
        return int(
            self.conn.execute("SELECT count(*) FROM chunks WHERE book_id = ?", (book_id,)).fetchone()[0]
        )
