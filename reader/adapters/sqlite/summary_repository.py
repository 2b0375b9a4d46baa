"""Cached chapter summaries and recaps in the library file."""

from __future__ import annotations

from typing import Any


class SqliteSummaryRepository:
    """Summaries keyed by (book, scope, model, prompt version, text hash); a changed text is a new key."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def get(self, book_id: str, scope: str, model: str, prompt_version: int, text_hash: str) -> str | None:
        row = self.conn.execute(
            "SELECT summary FROM summaries WHERE book_id = ? AND scope = ? AND model = ? "
            "AND prompt_version = ? AND text_hash = ?",
            (book_id, scope, model, prompt_version, text_hash),
        ).fetchone()
        return str(row[0]) if row else None

    def put(
        self,
        book_id: str,
        scope: str,
        model: str,
        prompt_version: int,
        text_hash: str,
        up_to_page: int,
        summary: str,
    ) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO summaries (book_id, scope, model, prompt_version, text_hash, up_to_page, "
            "summary) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (book_id, scope, model, prompt_version, text_hash, up_to_page, summary),
        )
