"""Whether a book has stored conversations, without loading the conversation store (a cheap check the app
makes on start-up: most books have none, and the store's imports cost some 8 ms of a worker's time,
which it shares with the first screen being drawn)."""

from __future__ import annotations

from typing import Any


def has_conversation_messages(conn: Any, book_id: str) -> bool:
    """True when one of `book_id`'s conversations holds a message."""
    row = conn.execute(
        "SELECT 1 FROM conversations c WHERE c.book_id = ? "
        "AND EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id) LIMIT 1",
        (book_id,),
    ).fetchone()
    return row is not None
