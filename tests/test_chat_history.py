"""Conversations in the library file, and the history sent to the model."""

from __future__ import annotations

from pathlib import Path

from reader.adapters.sqlite.connection import open_connection
from reader.adapters.sqlite.conversation_index import has_conversation_messages
from reader.adapters.sqlite.conversation_repository import SqliteConversationRepository
from reader.adapters.sqlite.migrations import migrate
from reader.app.chat.history import CUT, TRIMMED, earlier_turns, fit_to_window, total_tokens
from reader.domain.chat import ChatMessage


def message(role: str, content: str, horizon: int = 5, **fields: object) -> ChatMessage:
    return ChatMessage(0, 1, role, content, horizon=horizon, **fields)  # type: ignore[arg-type]


def test_conversations_and_messages_round_trip(tmp_path: Path) -> None:
    conn = open_connection(tmp_path / "lib.db")
    conn.execute(
        "INSERT INTO books (id, title, format, source_path, page_count, index_version, imported_at) "
        "VALUES ('b1', 'Book', 'txt', '/x', 9, 1, '2026-01-01')"
    )
    store = SqliteConversationRepository(conn)
    assert not has_conversation_messages(conn, "b1")
    first = store.create("b1", "first")
    second = store.create("b1", "second")
    assert not has_conversation_messages(conn, "b1")  # conversations without messages: nothing to show
    store.add_message(first, "user", "who?", horizon=3)
    assert has_conversation_messages(conn, "b1") and not has_conversation_messages(conn, "b2")
    calls = [{"id": "c1", "type": "function", "function": {"name": "search_book", "arguments": "{}"}}]
    store.add_message(first, "assistant", "", tool_calls=calls, horizon=3)
    store.add_message(first, "tool", "2 passages", tool_call_id="c1", name="search_book", horizon=3)
    answer = store.add_message(first, "assistant", "partial", status="cancelled", horizon=3)
    store.update_message(answer, "partial answer", "cancelled")
    listed = store.list_for_book("b1")
    assert [c.id for c in listed] == [first, second]  # the most recently active first
    assert listed[0].message_count == 4 and store.latest("b1") == listed[0]
    stored = store.messages(first)
    assert [m.role for m in stored] == ["user", "assistant", "tool", "assistant"]
    assert (
        stored[1].tool_calls == calls and stored[2].tool_call_id == "c1" and stored[2].name == "search_book"
    )
    assert stored[3].content == "partial answer" and stored[3].status == "cancelled"
    assert all(m.horizon == 3 for m in stored)
    conn.execute("DELETE FROM books WHERE id = 'b1'")
    assert store.list_for_book("b1") == [] and store.messages(first) == []


def test_migration_3_adds_the_message_horizon_to_a_version_2_file(tmp_path: Path) -> None:
    import sqlean

    path = tmp_path / "v2.db"
    old = sqlean.connect(str(path), isolation_level=None)
    migrate(old, target=2)
    old.execute(
        "INSERT INTO books (id, title, format, source_path, page_count, index_version, imported_at) "
        "VALUES ('b1', 'Book', 'txt', '/x', 9, 1, '2026-01-01')"
    )
    old.execute("INSERT INTO conversations (book_id, title) VALUES ('b1', 'old chat')")
    old.execute("INSERT INTO messages (conversation_id, role, content) VALUES (1, 'user', 'hello')")
    old.close()
    store = SqliteConversationRepository(open_connection(path))
    (kept,) = store.messages(1)
    assert kept.content == "hello" and kept.horizon is None


def test_earlier_turns_keep_answered_turns_within_the_horizon() -> None:
    stored = [
        message("user", "q1", 3),
        message("assistant", "", 3, tool_calls=[{"id": "c"}]),
        message("tool", "result", 3, tool_call_id="c"),
        message("assistant", "a1 [p. 2]", 3),
        message("user", "q2 unanswered", 4),
        message("assistant", "half", 4, status="cancelled"),
        message("user", "q3 at a later page", 9),
        message("assistant", "a3 [p. 9]", 9),
    ]
    assert earlier_turns(stored, horizon=5) == [
        [{"role": "user", "content": "q1"}, {"role": "assistant", "content": "a1 [p. 2]"}]
    ]
    assert len(earlier_turns(stored, horizon=9)) == 2


def test_fit_to_window_drops_old_turns_then_trims_old_tool_results() -> None:
    system = {"role": "system", "content": "s" * 350}
    history = [
        [{"role": "user", "content": f"q{i} " + "x" * 700}, {"role": "assistant", "content": "a"}]
        for i in range(10)
    ]
    current = [
        {"role": "user", "content": "question"},
        {"role": "tool", "tool_call_id": "a", "content": "y" * 3500},
        {"role": "tool", "tool_call_id": "b", "content": "z" * 350},
    ]
    roomy = fit_to_window(system, history, current, 100_000)
    assert len(roomy) == 1 + 20 + 3
    tight = fit_to_window(system, history, current, 1200)
    assert tight[0] == system and tight[-3]["content"] == "question"
    cut = tight[-2]["content"]  # the oldest result is cut to fit, its beginning kept
    assert cut.startswith("y" * 400) and cut.endswith(CUT) and len(cut) < 3500
    assert tight[-1]["content"] == "z" * 350
    assert total_tokens(tight) <= 1200 - 300
    roomier = fit_to_window(system, history, current, 2400)  # the whole turn fits, and some history
    assert roomier[-2]["content"] == "y" * 3500
    assert 0 < len(roomier) - 4 < 20 and roomier[-5]["content"].startswith("q9")  # the newest turns stay
    crushed = fit_to_window(system, [], current, 400)  # too little room to keep a useful part
    assert crushed[-2]["content"] == TRIMMED
    assert current[1]["content"] == "y" * 3500  # the caller's messages are untouched
