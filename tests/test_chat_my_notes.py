"""The chat's my_notes tool: the reader's highlights and notes, never past the reading position."""

from __future__ import annotations

import pytest

from reader.app.chat.tools import BookTools
from reader.domain.chat import AnswerEvent, ToolInvocationEvent
from reader.domain.models import Book
from reader.services import Services
from tests.chat_helpers import ask, chat_services, final, tool_messages
from tests.support import scripted_server as scripted


@pytest.fixture
def server():
    with scripted.ScriptedServer() as running:
        yield running


def mark(services: Services, book: Book, page: int, words: str, note: str = "") -> None:
    text = services.pages.range_text(book.id, page, page)
    start = text.index(words)
    services.annotations.highlight(book.id, page, text, start, start + len(words), note)


def marked_book(base_url: str | None) -> tuple[Services, Book]:
    """The sample at p. 10, with marks on p. 3 and p. 7 and one on p. 28 (read once, then moved back)."""
    services, book = chat_services(base_url, page=10)
    mark(services, book, 3, "Mr. Thorne's face", note="Why does she fear Thorne?")
    mark(services, book, 7, services.pages.range_text(book.id, 7, 7)[:40])
    mark(services, book, 28, services.pages.range_text(book.id, 28, 28)[:60], note="the reveal")
    return services, book


def tools(services: Services, book: Book) -> BookTools:
    return BookTools(book, services.books, services.chunks, None, notes=services.annotations.list)


def test_my_notes_lists_marks_up_to_the_reading_position_only() -> None:
    services, book = marked_book(None)
    later = services.pages.range_text(book.id, 28, 28)[:60]
    result = tools(services, book).call("my_notes", {})
    assert result.result_count == 2 and not result.is_error
    assert "[p. 3] “Mr. Thorne's face”" in result.formatted_text
    assert "Reader's note: Why does she fear Thorne?" in result.formatted_text
    assert later not in result.formatted_text and "the reveal" not in result.formatted_text
    about = tools(services, book).call("my_notes", {"about": "Thorne"})
    assert about.result_count == 1 and "that mention 'Thorne'" in about.formatted_text
    nothing = tools(services, book).call("my_notes", {"about": "Zebedee"})
    assert "None of the reader's highlights or notes mention 'Zebedee'" in nothing.formatted_text
    assert later not in nothing.formatted_text


def test_what_did_i_highlight_about_thorne_goes_through_the_agent(server) -> None:  # noqa: ANN001
    server.script_chat(
        scripted.tool_calls(scripted.call("my_notes", {"about": "Thorne"}, id="call_n")),
        scripted.text("You highlighted “Mr. Thorne's face” on p. 3 and asked why she fears him."),
    )
    services, book = marked_book(server.base_url)
    events = ask(services.chat, book, "What did I highlight about Thorne?")
    (invocation,) = [e for e in events if isinstance(e, ToolInvocationEvent)]
    assert invocation.summary == 'my_notes "Thorne" -> 1 highlights and notes'
    assert isinstance(final(events), AnswerEvent)
    (tool_text,) = tool_messages(server.chat_requests())
    assert "Mr. Thorne's face" in tool_text and "the reveal" not in tool_text
    request = server.chat_requests()[0]
    assert "my_notes" in [tool["function"]["name"] for tool in request["tools"]]
    assert "my_notes(about)" in request["messages"][0]["content"]
