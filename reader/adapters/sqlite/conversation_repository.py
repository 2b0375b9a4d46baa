"""Conversations about books and their messages (with tool calls and results) in the library file."""

from __future__ import annotations

import builtins
import json
from typing import Any

from reader.adapters.sqlite.book_repository import utc_now
from reader.domain.chat import ChatMessage, Conversation

_CONVERSATION_COLUMNS = (
    "c.id, c.book_id, c.title, c.created_at, c.updated_at, "
    "(SELECT count(*) FROM messages m WHERE m.conversation_id = c.id)"
)
_MESSAGE_COLUMNS = (
    "id, conversation_id, role, content, tool_calls, tool_call_id, name, status, created_at, horizon, "
    "held_at, spoiler_page, revealed"
)


def _conversation(row: Any) -> Conversation:
    return Conversation(
        id=row[0], book_id=row[1], title=row[2], created_at=row[3], updated_at=row[4], message_count=row[5]
    )


def _message(row: Any) -> ChatMessage:
    return ChatMessage(
        id=row[0],
        conversation_id=row[1],
        role=row[2],
        content=row[3],
        tool_calls=json.loads(row[4]) if row[4] else None,
        tool_call_id=row[5],
        name=row[6],
        status=row[7],
        created_at=row[8],
        horizon=row[9],
        held_at=row[10],
        spoiler_page=row[11],
        revealed=bool(row[12]),
    )


class SqliteConversationRepository:
    """Reads and writes conversations; every write commits at once (a crash keeps what was said)."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def create(self, book_id: str, title: str = "") -> int:
        now = utc_now()
        cursor = self.conn.execute(
            "INSERT INTO conversations (book_id, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
            (book_id, title, now, now),
        )
        return int(cursor.lastrowid)

    def get(self, conversation_id: int) -> Conversation | None:
        row = self.conn.execute(
            f"SELECT {_CONVERSATION_COLUMNS} FROM conversations c WHERE c.id = ?", (conversation_id,)
        ).fetchone()
        return _conversation(row) if row else None

    def list_for_book(self, book_id: str) -> builtins.list[Conversation]:
        """The book's conversations, the most recently active first."""
        rows = self.conn.execute(
            f"SELECT {_CONVERSATION_COLUMNS} FROM conversations c WHERE c.book_id = ? "
            "ORDER BY c.updated_at DESC, c.id DESC",
            (book_id,),
        ).fetchall()
        return [_conversation(row) for row in rows]

    def latest(self, book_id: str) -> Conversation | None:
        found = self.list_for_book(book_id)
        return found[0] if found else None

    def add_message(
        self,
        conversation_id: int,
        role: str,
        content: str,
        *,
        tool_calls: builtins.list[dict[str, Any]] | None = None,
        tool_call_id: str | None = None,
        name: str | None = None,
        status: str = "complete",
        horizon: int | None = None,
        held_at: int | None = None,
        spoiler_page: int | None = None,
        revealed: bool = False,
    ) -> int:
        now = utc_now()
        cursor = self.conn.execute(
            "INSERT INTO messages (conversation_id, role, content, tool_calls, tool_call_id, name, status, "
            "created_at, horizon, held_at, spoiler_page, revealed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                conversation_id,
                role,
                content,
                json.dumps(tool_calls, ensure_ascii=False) if tool_calls else None,
                tool_call_id,
                name,
                status,
                now,
                horizon,
                held_at,
                spoiler_page,
                int(revealed),
            ),
        )
        self.conn.execute("UPDATE conversations SET updated_at = ? WHERE id = ?", (now, conversation_id))
        return int(cursor.lastrowid)

    def update_message(self, message_id: int, content: str, status: str) -> None:
        self.conn.execute(
            "UPDATE messages SET content = ?, status = ? WHERE id = ?", (content, status, message_id)
        )

    def reveal(self, message_id: int) -> None:
        """Mark a held-back answer as revealed: the reader sees it whole from now on."""
        self.conn.execute("UPDATE messages SET revealed = 1 WHERE id = ?", (message_id,))

    def message(self, message_id: int) -> ChatMessage | None:
        row = self.conn.execute(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE id = ?", (message_id,)
        ).fetchone()
        return _message(row) if row else None

    def messages(self, conversation_id: int) -> builtins.list[ChatMessage]:
        rows = self.conn.execute(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE conversation_id = ? ORDER BY id",
            (conversation_id,),
        ).fetchall()
        return [_message(row) for row in rows]

    def set_title(self, conversation_id: int, title: str) -> None:
        self.conn.execute("UPDATE conversations SET title = ? WHERE id = ?", (title, conversation_id))
