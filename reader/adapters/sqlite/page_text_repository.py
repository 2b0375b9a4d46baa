"""Recognised page text (OCR) in the library file, with the page's chunks, vectors and concept map."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reader.adapters.sqlite.concept_repository import next_concept_id, write_concepts
from reader.adapters.sqlite.transaction import transaction
from reader.domain.knowledge import ExtractedConcept


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


class SqlitePageTextStore:
    """Writes a page's recognised text and its chunks in one transaction; chunk rowids of the other
    pages stay, so their vectors stay valid."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def recognized(self, book_id: str) -> dict[int, str]:
        rows = self.conn.execute("SELECT page, source FROM page_texts WHERE book_id = ?", (book_id,))
        return {row[0]: row[1] for row in rows.fetchall()}

    def save_page_text(
        self, book_id: str, page: int, source: str, text: str, pieces: Sequence[tuple[str, bool]]
    ) -> None:
        conn = self.conn
        with transaction(conn):
            old = [row[0] for row in conn.execute(
                "SELECT rowid FROM chunks WHERE book_id = ? AND start_page = ? AND end_page = ?",
                (book_id, page, page),
            ).fetchall()]  # fmt: skip
            tables = [row[0] for row in conn.execute("SELECT table_name FROM embedding_spaces").fetchall()]
            for rowid in old:
                for table in tables:
                    conn.execute(f"DELETE FROM {_quoted(table)} WHERE rowid = ?", (rowid,))
                conn.execute("DELETE FROM chunks WHERE rowid = ?", (rowid,))
            before = conn.execute(
                "SELECT coalesce(max(chunk_index), -1) FROM chunks WHERE book_id = ? AND start_page < ?",
                (book_id, page),
            ).fetchone()[0]
            # make room after the earlier pages' chunks: later chunks move up by the new pieces' count
            conn.execute(
                "UPDATE chunks SET chunk_index = -1 - chunk_index WHERE book_id = ? AND start_page > ?",
                (book_id, page),
            )
            conn.execute(
                "UPDATE chunks SET chunk_index = -1 - chunk_index + ? WHERE book_id = ? AND chunk_index < 0",
                (len(pieces) - len(old), book_id),
            )
            conn.executemany(
                "INSERT INTO chunks (id, book_id, chunk_index, start_page, end_page, continues, text) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        f"{book_id[:16]}-{source}{page}-{i}",
                        book_id,
                        before + 1 + i,
                        page,
                        page,
                        int(cont),
                        piece,
                    )
                    for i, (piece, cont) in enumerate(pieces)
                ],
            )
            if pieces:  # the book's vectors lack the new chunks until `reader embed` adds them
                conn.execute("DELETE FROM book_embeddings WHERE book_id = ?", (book_id,))
            conn.execute(
                "INSERT OR REPLACE INTO page_texts (book_id, page, source, text) VALUES (?, ?, ?, ?)",
                (book_id, page, source, text),
            )

    def replace_concepts(self, book_id: str, concepts: Sequence[ExtractedConcept]) -> None:
        conn = self.conn
        with transaction(conn):
            first_id = next_concept_id(conn)  # read before the old map goes: its ids are not reused
            conn.execute("DELETE FROM concepts WHERE book_id = ?", (book_id,))
            write_concepts(conn, book_id, concepts, first_id)
