"""The chat pane against the real chat use case, litellm and the scripted OpenAI-compatible server:
streaming answers, tool calls, citations, cancelling, errors, the offline answers, conversations."""

from __future__ import annotations

import re
import socket
import threading
import tomllib
from typing import Any

import pytest
from textual.widgets import Button, Collapsible, Input, Markdown, OptionList, Static

from reader.app.chat.chat_with_book import ChatWithBookUseCase
from reader.domain.models import Book
from reader.services import Services
from reader.tui.app import ReaderApp
from reader.tui.citations import linkify_citations
from reader.tui.panes.chat_pane import CONFIG_EXAMPLE, ChatPane
from reader.tui.screens.conversations_screen import ConversationsScreen
from reader.tui.widgets.chat_items import ErrorItem, QuestionItem, ToolCallItem
from reader.tui.widgets.chat_notices import CodeItem, NoticeItem
from tests.chat_helpers import chat_services, later_texts, tool_messages
from tests.support import scripted_server as scripted
from tests.support.scripted_server import ScriptedServer
from tests.tui_helpers import sample_services, wait_until

SIZE = (120, 36)
PREAMBLE = "Let me look in the pages you have read."
ANSWER = "Imogen came to the Rock for her uncle's funeral [p. 2]. The letter was sealed [p. 5]."
HELD_SECONDS = 5.0
"""How long a held reply waits for the test to release it (only reached when a test fails)."""


def held(reply: scripted.Reply, release: threading.Event) -> scripted.Respond:
    """`reply`, sent only once the test sets `release`: the model is still thinking until then."""

    def when_released(body: dict[str, Any]) -> scripted.Reply:
        release.wait(HELD_SECONDS)
        return reply

    return scripted.respond(when_released)


def model_services(base_url: str, page: int = 6) -> tuple[Services, Book]:
    """The sample novella read to `page`, chatting with the model at `base_url` (no retries)."""
    return chat_services(base_url, page=page, max_retries=0)


def closed_port_url() -> str:
    """A base URL on 127.0.0.1 where nothing listens (connections are refused)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def citation_buttons(pane: ChatPane) -> list[str]:
    return [str(b.label) for b in pane.query(Button) if "citation" in b.classes]


def markdown_text(pane: ChatPane) -> str:
    return "\n".join(m.source for m in pane.query(Markdown))


async def ask(pilot, question: str) -> None:  # noqa: ANN001
    """Ask from wherever the focus is: "a" to reach the input, the question, Enter.

    The question is put in the input whole (the pilot types a key in some 80 ms); Enter submits it.
    """
    app = pilot.app
    if app.focused is None or app.focused.id != "chat-input":
        await pilot.press("a")  # right after start-up the input may not be mounted yet: it is focused once it is
    await wait_until(pilot, lambda: app.focused is not None and app.focused.id == "chat-input")
    field = app.query_one("#chat-input", Input)
    field.value = question
    await pilot.press("enter")


async def answered(pilot, pane: ChatPane, question: str) -> None:  # noqa: ANN001
    """Ask `question` and wait for the whole answer."""
    turns = len(pane.query(QuestionItem))
    await ask(pilot, question)
    await wait_until(pilot, lambda: pane.running is None and len(pane.query(QuestionItem)) > turns)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def test_answer_streams_with_a_collapsed_tool_call_and_followable_citations(
    scripted_server: ScriptedServer,
) -> None:
    release = threading.Event()
    scripted_server.script_chat(
        scripted.tool_calls(scripted.call("search_book", {"query": "uncle"}), content=PREAMBLE),
        held(scripted.text(ANSWER), release),
    )
    services, book = model_services(scripted_server.base_url, page=6)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await ask(pilot, "why did she come")
        # the text before the tool call has streamed in while the model still works on its answer
        await wait_until(pilot, lambda: len(scripted_server.chat_requests()) == 2)
        await wait_until(pilot, lambda: pane.running is not None and bool(pane.running.query(ToolCallItem)))
        assert pane.running is not None and pane.running.answer.text.strip() == PREAMBLE
        release.set()
        await wait_until(pilot, lambda: pane.running is None)
        await app.workers.wait_for_complete()
        await pilot.pause()

        first, second = scripted_server.chat_requests()
        assert first["stream"] and first["messages"][-1] == {"role": "user", "content": "why did she come"}
        assert "search_book" in [tool["function"]["name"] for tool in first["tools"]]
        (found,) = tool_messages([second])
        assert "(pages up to p. 6)" in found and not any(
            text in found for text in later_texts(services, book, 6)
        )

        assert [q.question for q in pane.query(QuestionItem)] == ["why did she come"]
        tool = pane.query_one(ToolCallItem)
        assert tool.collapsed and re.fullmatch(r'search_book "uncle" -> \d+ hits', tool.title), tool.title
        source = pane.query_one(Markdown).source
        assert source.startswith(PREAMBLE) and "[p. 2](page:2)" in source and "[p. 5](page:5)" in source
        (conversation,) = services.chat.conversations(book.id)
        assert pane.conversation_id == conversation.id
        assert citation_buttons(pane) == ["p. 2", "p. 5"]

        button = next(b for b in pane.query(Button) if "citation" in b.classes)
        await pilot.click(button)
        await pilot.pause()
        assert app.session.number == 2 and app.session.horizon == 6
        assert services.books.get(book.id).current_page == 6  # following a citation keeps the position
        # expanding the tool call (Enter on its title) shows its arguments and what the search found
        tool.query_one("CollapsibleTitle").focus()
        await pilot.press("enter")
        await pilot.pause()
        assert not tool.collapsed
        assert 'arguments: {"query": "uncle"}' in str(tool.details.content)


async def test_thinking_shows_until_the_first_words_arrive(scripted_server: ScriptedServer) -> None:
    release = threading.Event()
    scripted_server.script_chat(held(scripted.text(ANSWER), release))
    services, _ = model_services(scripted_server.base_url, page=6)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await ask(pilot, "why did she come")
        await wait_until(pilot, lambda: len(scripted_server.chat_requests()) == 1)
        await pilot.pause()
        turn = pane.running
        assert turn is not None and turn.thinking
        assert str(turn.query_one(".chat-thinking", Static).content) == "Thinking…"
        release.set()
        await wait_until(pilot, lambda: pane.running is None)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not pane.query(".chat-thinking") and ANSWER.split(" [")[0] in markdown_text(pane)


async def test_citation_buttons_wrap_to_stay_inside_the_pane(scripted_server: ScriptedServer) -> None:
    scripted_server.script_chat(scripted.text("The lamp [p. 18], the letter [p. 20] and the log [p. 10]."))
    services, _ = model_services(scripted_server.base_url, page=20)
    async with ReaderApp(services).run_test(size=(100, 30)) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await answered(pilot, pane, "what did she find")
        assert citation_buttons(pane) == ["p. 18", "p. 20", "p. 10"]
        inside = pane.query_one("#chat-log").content_region
        for button in (b for b in pane.query(Button) if "citation" in b.classes):
            assert inside.contains_region(button.region), (button.label, button.region, inside)
        rows = {b.region.y for b in pane.query(Button) if "citation" in b.classes}
        assert len(rows) >= 2  # "Pages:" and three buttons do not fit one row of a 30-column pane
        await pilot.press("shift+tab")  # the buttons are reached from the keyboard (above the input)
        assert isinstance(app.focused, Button) and str(app.focused.label) == "p. 10"


async def test_markdown_citation_links_open_the_page(scripted_server: ScriptedServer) -> None:
    scripted_server.script_chat(scripted.text(ANSWER))
    services, book = model_services(scripted_server.base_url, page=6)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await answered(pilot, pane, "why")
        markdown = pane.query_one(Markdown)
        assert "[p. 5](page:5)" in markdown.source
        markdown.post_message(Markdown.LinkClicked(markdown, "page:5"))
        await wait_until(pilot, lambda: app.session.number == 5)
        assert app.session.horizon == 6 and services.books.get(book.id).current_page == 6


async def test_escape_cancels_the_answer_and_gives_the_question_back(scripted_server: ScriptedServer) -> None:
    release = threading.Event()
    scripted_server.script_chat(
        scripted.tool_calls(scripted.call("search_book", {"query": "lamp"}), content=PREAMBLE),
        held(scripted.text("never sent: the keeper lit it"), release),
    )
    services, book = model_services(scripted_server.base_url)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await ask(pilot, "who lit the lamp")
        await wait_until(pilot, lambda: len(scripted_server.chat_requests()) == 2)
        await wait_until(pilot, lambda: pane.running is not None and PREAMBLE in pane.running.answer.text)
        await pilot.press("escape")
        await pilot.pause()
        assert pane.running is None
        assert not pane.query(QuestionItem) and not pane.query(Collapsible)
        field = app.query_one("#chat-input", Input)
        assert field.value == "who lit the lamp" and app.focused is field

        # the model answers after all: the chat stops at its first words and keeps what had streamed
        release.set()
        chat = services.chat
        (conversation,) = chat.conversations(book.id)
        await wait_until(pilot, lambda: any(m.status == "cancelled" for m in chat.messages(conversation.id)))
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert scripted_server.chat_replies_left == 0
        assert "never sent" not in markdown_text(pane)
        assert not pane.query(QuestionItem) and not pane.query(ErrorItem)
        assert [m.content for m in chat.messages(conversation.id) if m.status == "cancelled"] == [PREAMBLE]

        await pilot.press("escape")  # nothing running: Esc returns to the page
        assert app.focused is app.viewer


@pytest.mark.parametrize("failure", ["401", "refused"])
async def test_errors_show_inline_as_one_line_and_keep_the_question(
    failure: str, scripted_server: ScriptedServer
) -> None:
    if failure == "401":
        scripted_server.script_chat(scripted.error(401, "Incorrect API key provided: no-key"))
        base_url, expected = scripted_server.base_url, "The model refused the API key; set OPENAI_API_KEY"
    else:
        base_url = closed_port_url()
        expected = f"Could not connect to the model server at {base_url}"
    services, _ = model_services(base_url)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await ask(pilot, "hello")
        await wait_until(pilot, lambda: bool(pane.query(ErrorItem)) and pane.running is None)
        await app.workers.wait_for_complete()
        message = str(pane.query_one(ErrorItem).content)
        assert message.startswith("Error  " + expected), message
        assert "\n" not in message
        assert [q.question for q in pane.query(QuestionItem)] == ["hello"]
        assert not pane.query(Markdown) and not pane.query(".chat-thinking")
        assert pane.conversation_id is not None
        stored = services.chat.messages(pane.conversation_id)
        assert [(m.role, m.content) for m in stored] == [("user", "hello")]


async def test_without_a_model_the_pane_says_how_to_configure_one_and_answers_from_pages_read() -> None:
    services, book = sample_services(6)
    question = "who was the thief in the vestry"
    everywhere = services.search.search(book.id, question, current_page=book.page_count).results
    assert everywhere[0].start_page > 6  # the book answers this only after the reading position
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await wait_until(pilot, lambda: pane.filled)  # the chat's log mounts right after the first paint
        notice = str(pane.query_one(NoticeItem).content)
        assert "No model is configured" in notice and str(services.config.path) in notice
        # the config to add is a block of its own that copies intact (tests/test_tui_chat_keys.py: it wraps)
        await pilot.pause()
        code = pane.query_one(CodeItem)
        assert code.code == CONFIG_EXAMPLE
        assert tomllib.loads(code.code)["chat"]["model"] == "gpt-4o-mini"

        await answered(pilot, pane, question)
        source = pane.query_one(Markdown).source
        assert "**Passages up to p. 6 that best match your question**" in source
        buttons = citation_buttons(pane)
        assert buttons and all(1 <= int(label.removeprefix("p. ")) <= 6 for label in buttons)
        shown = " ".join(
            " ".join(text.split()) for text in [source, *(str(n.content) for n in pane.query(NoticeItem))]
        )
        leaks = [text for text in later_texts(services, book, 6) if " ".join(text.split()) in shown]
        assert leaks == []
        assert not pane.query(ErrorItem)


async def test_new_and_earlier_conversations(scripted_server: ScriptedServer) -> None:
    first_answer = f"{PREAMBLE}\n\nSilas Crane is a boatman [p. 1]."
    scripted_server.script_chat(
        scripted.tool_calls(scripted.call("search_book", {"query": "Crane"}), content=PREAMBLE),
        scripted.text("Silas Crane is a boatman [p. 1]."),
        scripted.text("He rowed her across [p. 2]."),
    )
    services, book = model_services(scripted_server.base_url, page=3)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await answered(pilot, pane, "Who is Crane?")
        conversation = pane.conversation_id
        assert conversation is not None and citation_buttons(pane) == ["p. 1"]
        assert [m.source for m in pane.query(Markdown)] == [linkify_citations(first_answer)]

        await pilot.press("ctrl+n")
        assert pane.conversation_id is None and not pane.query(QuestionItem) and not pane.query(Markdown)
        assert not pane.query(Collapsible)

        await pilot.press("ctrl+y")
        await wait_until(
            pilot, lambda: isinstance(app.screen, ConversationsScreen) and isinstance(app.focused, OptionList)
        )
        screen = app.screen
        assert isinstance(screen, ConversationsScreen)
        assert [(c.id, c.title) for c in screen.conversations] == [(conversation, "Who is Crane?")]
        assert screen.query_one(OptionList).option_count == 2  # "+ New conversation" and the earlier one
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: pane.conversation_id == conversation and bool(pane.query(Markdown)))
        await pilot.pause()
        assert [q.question for q in pane.query(QuestionItem)] == ["Who is Crane?"]
        assert len(pane.query(ToolCallItem)) == 1
        # the text written before the tool call shows once, at the start of the answer (as it streamed)
        assert [m.source for m in pane.query(Markdown)] == [linkify_citations(first_answer)]
        assert citation_buttons(pane) == ["p. 1"]
        assert app.focused is app.query_one("#chat-input", Input)

        await answered(pilot, pane, "and then?")
        assert pane.conversation_id == conversation
        assert [q.question for q in pane.query(QuestionItem)] == ["Who is Crane?", "and then?"]
        sent = scripted_server.chat_requests()[-1]["messages"]
        assert [(m["role"], m["content"]) for m in sent[1:]] == [
            ("user", "Who is Crane?"),
            ("assistant", first_answer),
            ("user", "and then?"),
        ]
        stored = services.chat.messages(conversation)
        assert [m.role for m in stored] == ["user", "assistant", "tool", "assistant", "user", "assistant"]
        assert len(services.chat.conversations(book.id)) == 1

        await pilot.press("ctrl+n")
        assert pane.conversation_id is None and not pane.query(QuestionItem)
        assert not pane.query(Collapsible)


async def test_unexpected_failure_in_the_chat_shows_inline(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken_ask(self: ChatWithBookUseCase, *args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    # fault injection: the one stand-in here, an ask() that raises instead of answering
    monkeypatch.setattr(ChatWithBookUseCase, "ask", broken_ask)
    services, _ = sample_services()
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await ask(pilot, "hello")
        await wait_until(pilot, lambda: bool(pane.query(ErrorItem)))
        message = str(pane.query_one(ErrorItem).content)
        assert "boom" in message and "\n" not in message
        assert pane.running is None
        assert [q.question for q in pane.query(QuestionItem)] == ["hello"]
