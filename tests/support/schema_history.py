"""Libraries as an older reader left them: undo the schema steps after a given version."""

from __future__ import annotations

from typing import Any

from reader.adapters.sqlite.migrations import (
    BOOK_IMAGES_FROM,
    BOOKMARK_ANCHORS_FROM,
    FINISHED_BOOKS_FROM,
    PAGE_WORDS_FROM,
    SCHEMA_VERSION,
)

UNDO_STEPS = {
    BOOKMARK_ANCHORS_FROM: [
        "DROP TABLE bookmarks",
        "CREATE TABLE bookmarks (id INTEGER PRIMARY KEY, book_id TEXT NOT NULL, page INTEGER NOT NULL, "
        "name TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL DEFAULT '', UNIQUE (book_id, page))",
    ],
    FINISHED_BOOKS_FROM: ["DROP TABLE finished_books"],
    BOOK_IMAGES_FROM: ["DROP TABLE page_images", "DROP TABLE image_blobs"],
    PAGE_WORDS_FROM: [
        "DROP TRIGGER chunks_words_ai",
        "DROP TRIGGER chunks_words_ad",
        "DROP TRIGGER chunks_words_au",
        "ALTER TABLE pages DROP COLUMN word_count",
    ],
}
"""Statements undoing the step that upgrades version N, for the steps whose upgrade is tested from a library
holding books (the other steps' tests start from an empty library: `migrate(conn, target=N)`)."""


def roll_back(conn: Any, version: int) -> None:
    """Make the library at `conn` (at SCHEMA_VERSION) what it was at `version`, keeping its rows (bookmarks
    go: the anchor step's table is made anew)."""
    assert all(step in UNDO_STEPS for step in range(version, SCHEMA_VERSION)), "a later step has no undo"
    for step in range(SCHEMA_VERSION - 1, version - 1, -1):
        for statement in UNDO_STEPS.get(step, ()):
            conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {version}")
