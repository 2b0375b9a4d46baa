"""The chat pane: streaming answers, tool calls, citations, cancelling, errors, conversations."""

from __future__ import annotations

import threading

from textual.widgets import Button, Collapsible, Input, Markdown, Static

from reader.domain.chat import (
    AnswerEvent,
    ChatMessage,
    Citation,
    Conversation,
    ErrorEvent,
    TextDelta,
    ToolInvocationEvent,
)
from reader.tui.app import ReaderApp
from reader.tui.screens.conversations_screen import ConversationsScreen
from reader.tui.widgets.chat_items import ErrorItem, NoticeItem, QuestionItem, ToolCallItem
from reader.tui.widgets.chat_pane import ChatPane
from tests.tui_helpers import FakeChat, services_with_chat, wait_until

SIZE = (120, 36)
ANSWER = "Imogen came to the Rock for her uncle's funeral [p. 2]. The letter was sealed [p. 5]."


def answer_script() -> list:
    return [
        [
            ToolInvocationEvent(
                "call-1", "search_book", {"query": "uncle"}, 'search_book "uncle" -> 3 hits', "p. 2: ..."
            ),
            TextDelta("Imogen came to the Rock "),
            TextDelta("for her uncle's funeral [p. 2]. "),
            TextDelta("The letter was sealed [p. 5]."),
            AnswerEvent(ANSWER, (Citation("2", 2), Citation("5", 5)), conversation_id=7),
        ]
    ]


async def ask(pilot, question: str) -> None:  # noqa: ANN001
    await pilot.press("a", *question, "enter")


async def test_answer_streams_with_a_collapsed_tool_call_and_followable_citations() -> None:
    chat = FakeChat(script=answer_script())
    services, book = services_with_chat(chat)
    services.books.set_current_page(book.id, 6)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await ask(pilot, "why did she come")
        await app.workers.wait_for_complete()
        await wait_until(pilot, lambda: pane.running is None)
        await pilot.pause()
        assert chat.asked == [(book.id, "why did she come", None)]
        assert [q.question for q in pane.query(QuestionItem)] == ["why did she come"]
        tool = pane.query_one(ToolCallItem)
        assert tool.collapsed and tool.title == 'search_book "uncle" -> 3 hits'
        markdown = pane.query_one(Markdown)
        assert "[p. 2](page:2)" in markdown.source
        assert pane.conversation_id == 7
        buttons = [b for b in pane.query(Button) if "citation" in b.classes]
        assert [str(b.label) for b in buttons] == ["p. 2", "p. 5"]
        await pilot.click(buttons[0])
        await pilot.pause()
        assert app.session.number == 2 and app.session.horizon == 6
        # expanding the tool call shows its arguments
        await pilot.click(tool.query_one("CollapsibleTitle"))
        await pilot.pause()
        assert not tool.collapsed


async def test_markdown_citation_links_open_the_page() -> None:
    chat = FakeChat(script=answer_script())
    services, book = services_with_chat(chat)
    services.books.set_current_page(book.id, 6)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await ask(pilot, "why")
        await app.workers.wait_for_complete()
        await wait_until(pilot, lambda: pane.running is None)
        markdown = pane.query_one(Markdown)
        markdown.post_message(Markdown.LinkClicked(markdown, "page:5"))
        await pilot.pause()
        assert app.session.number == 5


async def test_escape_cancels_the_answer_and_gives_the_question_back() -> None:
    chat = FakeChat(script=[[TextDelta("Thinking about "), TextDelta("never sent")]], block=threading.Event())
    services, _ = services_with_chat(chat)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await ask(pilot, "who lit the lamp")
        await wait_until(pilot, lambda: pane.running is not None and "Thinking" in pane.running.answer.text)
        await pilot.press("escape")
        await pilot.pause()
        assert pane.running is None
        assert not pane.query(QuestionItem)
        field = app.query_one("#chat-input", Input)
        assert field.value == "who lit the lamp" and app.focused is field
        await app.workers.wait_for_complete()
        assert "never sent" not in " ".join(str(m.source) for m in pane.query(Markdown))
        await pilot.press("escape")  # nothing running: Esc returns to the page
        assert app.focused is app.viewer


async def test_errors_show_inline() -> None:
    chat = FakeChat(
        script=[[ErrorEvent("The model did not answer (connection refused); is the server running?")]]
    )
    services, _ = services_with_chat(chat)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await ask(pilot, "hello")
        await app.workers.wait_for_complete()
        await wait_until(pilot, lambda: bool(pane.query(ErrorItem)))
        assert "connection refused" in str(pane.query_one(ErrorItem).content)
        assert not pane.query(Markdown)


async def test_without_a_model_the_pane_says_how_to_configure_one() -> None:
    services, _ = services_with_chat(FakeChat())
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        notice = str(pilot.app.query_one(ChatPane).query_one(NoticeItem).content)
        assert "No model is configured" in notice and "[chat]" in notice and "model =" in notice


async def test_new_and_earlier_conversations() -> None:
    chat = FakeChat(script=answer_script())
    services, book = services_with_chat(chat)
    chat.conversations_by_book[book.id] = [
        Conversation(3, book.id, "Who is Crane?", "2024-05-01T10:00:00", "2024-05-01T10:05:00", 2)
    ]
    chat.stored[3] = [
        ChatMessage(1, 3, "user", "Who is Crane?"),
        ChatMessage(2, 3, "assistant", "Silas Crane is a boatman [p. 1]."),
    ]
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await pilot.press("a", "ctrl+y")
        await app.workers.wait_for_complete()
        await wait_until(pilot, lambda: isinstance(app.screen, ConversationsScreen))
        await pilot.press("down", "enter")
        await app.workers.wait_for_complete()
        await wait_until(pilot, lambda: pane.conversation_id == 3 and bool(pane.query(Markdown)))
        await pilot.pause()
        assert [q.question for q in pane.query(QuestionItem)] == ["Who is Crane?"]
        assert [str(b.label) for b in pane.query(Button)] == ["p. 1"]
        assert app.focused is app.query_one("#chat-input", Input)
        await pilot.press(*"and then?", "enter")
        await app.workers.wait_for_complete()
        await wait_until(pilot, lambda: pane.running is None)
        assert chat.asked[-1] == (book.id, "and then?", 3)
        await pilot.press("ctrl+n")
        assert pane.conversation_id is None and not pane.query(QuestionItem)
        assert not [c for c in pane.query(Collapsible)]


async def test_unexpected_failure_in_the_chat_shows_inline() -> None:
    class Broken(FakeChat):
        def ask(self, *args, **kwargs):  # noqa: ANN002, ANN003, ANN201
            raise RuntimeError("boom")

    services, _ = services_with_chat(Broken())
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await ask(pilot, "hello")
        await wait_until(pilot, lambda: bool(pane.query(ErrorItem)))
        assert "boom" in str(pane.query_one(ErrorItem).content)
        assert pane.running is None
        assert isinstance(pane.query_one(ErrorItem), Static)
