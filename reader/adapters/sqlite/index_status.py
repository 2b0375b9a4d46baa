"""Which books have embeddings: the library pane's indexing state."""

from __future__ import annotations

from typing import Any


def embedded_models(conn: Any) -> dict[str, list[str]]:
    """Embedding models each book has vectors for, by book id (books without vectors are absent)."""
    rows = conn.execute("SELECT book_id, model FROM book_embeddings ORDER BY model").fetchall()
    models: dict[str, list[str]] = {}
    for book_id, model in rows:
        models.setdefault(book_id, []).append(model)
    return models
