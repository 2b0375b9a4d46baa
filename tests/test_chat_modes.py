"""Which strategy answers (tool use, always-retrieve, offline passages), history and the commands."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reader.app.chat.always_retrieve_strategy import AlwaysRetrieveStrategy
from reader.app.chat.offline_strategy import OfflinePassagesStrategy
from reader.app.chat.tool_use_strategy import ToolUseRetrievalStrategy
from reader.cli.main import main
from reader.domain.chat import AnswerEvent, NoticeEvent, TextDelta, ToolInvocationEvent, ToolResultEvent
from tests.chat_helpers import ask, chat_services, final
from tests.support import scripted_server as scripted


@pytest.fixture
def server():
    with scripted.ScriptedServer() as running:
        yield running


def test_always_retrieve_routes_searches_and_answers_from_the_passages(server) -> None:
    route = '{"route": "BOOK", "confidence": 0.9, "suggested_queries": ["Silas Crane boatman"]}'
    server.script_chat(scripted.text(route), scripted.text("He is the boatman [p. 1]."))
    services, book = chat_services(server.base_url, page=10, tool_calling="off")
    chat = services.chat
    assert isinstance(chat.strategy, AlwaysRetrieveStrategy)
    events = ask(chat, book, "Who rowed her out to the rock?")
    routed, invocation = [e for e in events if isinstance(e, ToolInvocationEvent)]
    assert routed.name == "route_question" and invocation.arguments == {"query": "Silas Crane boatman"}
    (hits,) = [e for e in events if isinstance(e, ToolResultEvent)]
    assert hits.results and all(r.end_page <= 10 for r in hits.results)
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "He is the boatman [p. 1]."
    routing, answer = server.chat_requests()
    assert "tools" not in routing and "tools" not in answer
    assert answer["messages"][-1]["content"].startswith("Passages from the book:")
    assert "Who rowed her out to the rock?" in answer["messages"][-1]["content"]
    assert isinstance(final(events), AnswerEvent)


def test_auto_asks_litellm_and_unknown_local_models_retrieve_first(server) -> None:
    services, _ = chat_services(server.base_url, tool_calling="auto")
    assert isinstance(services.chat.strategy, AlwaysRetrieveStrategy)  # litellm does not know openai/scripted
    services, _ = chat_services(server.base_url, tool_calling="auto", model="gpt-4o-mini")
    assert isinstance(services.chat.strategy, ToolUseRetrievalStrategy)
    services, _ = chat_services(server.base_url, tool_calling="on")
    assert isinstance(services.chat.strategy, ToolUseRetrievalStrategy)


def test_without_a_model_the_chat_answers_with_cited_passages_already_read() -> None:
    services, book = chat_services(None, page=8)
    chat = services.chat
    assert isinstance(chat.strategy, OfflinePassagesStrategy)
    events = ask(chat, book, "Silas Crane")
    (notice,) = [e for e in events if isinstance(e, NoticeEvent)]
    assert "No model is configured" in notice.message and "[chat] model" in notice.message
    answer = final(events)
    assert isinstance(answer, AnswerEvent) and answer.offline
    assert answer.citations and all(c.page <= 8 for c in answer.citations)
    assert "[p. " in answer.text
    nothing = final(ask(chat, book, "zeppelin"))
    assert (
        isinstance(nothing, AnswerEvent) and "Nothing in the pages you have read (up to p. 8)" in nothing.text
    )


def test_history_is_sent_but_not_past_a_horizon_the_reader_moved_back_from(server) -> None:
    services, book = chat_services(server.base_url, page=20)
    chat = services.chat
    server.script_chat(scripted.text("At p. 18 the keeper confessed [p. 18]."))
    conversation = final(ask(chat, book, "What did the keeper say?")).conversation_id
    server.script_chat(scripted.text("Earlier answer kept."))
    final(ask(chat, book, "And then?", conversation_id=conversation))
    assert [m["content"] for m in server.chat_requests()[-1]["messages"][1:]] == [
        "What did the keeper say?",
        "At p. 18 the keeper confessed [p. 18].",
        "And then?",
    ]
    services.books.set_current_page(book.id, 5)
    server.script_chat(scripted.text("From the start [p. 2]."))
    final(ask(chat, book, "Who is the keeper?", conversation_id=conversation))
    sent = [m["content"] for m in server.chat_requests()[-1]["messages"][1:]]
    assert sent == ["Who is the keeper?"]


def test_conversations_are_per_book_newest_first(server) -> None:
    services, book = chat_services(server.base_url)
    chat = services.chat
    server.script_chat(scripted.text("one"), scripted.text("two"))
    first = final(ask(chat, book, "first question")).conversation_id
    second = chat.new_conversation(book.id)
    final(ask(chat, book, "second question", conversation_id=second))
    assert [c.id for c in chat.conversations(book.id)] == [second, first]
    assert chat.conversations(book.id)[0].title == "second question"
    assert chat.latest_conversation(book.id) == second


def write_config(base_url: str, **extra: str) -> None:
    lines = ["[chat]", 'model = "openai/scripted"', f'api_base = "{base_url}"', 'tool_calling = "on"']
    lines += [f'{key} = "{value}"' for key, value in extra.items()]
    Path(os.environ["READER_CONFIG"]).write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_ask_command_streams_the_answer_and_shows_tool_calls(
    server, capsys: pytest.CaptureFixture[str]
) -> None:
    write_config(server.base_url)
    assert main(["demo", "--print"]) == 0
    assert main(["set-page", "gull", "6"]) == 0
    capsys.readouterr()
    server.script_chat(
        scripted.tool_calls(scripted.call("search_book", {"query": "Silas"})),
        scripted.text("Silas Crane is the boatman [p. 1]."),
    )
    assert main(["ask", "gull", "Who is Silas?", "-v"]) == 0
    out, err = capsys.readouterr()
    assert out == "Silas Crane is the boatman [p. 1].\n"
    assert 'search_book "Silas" ->' in err

    server.script_chat(scripted.error(401, "no"))
    assert main(["ask", "gull", "Again?"]) == 1
    assert "refused the API key" in capsys.readouterr().err


def test_chat_command_resumes_the_last_conversation(
    server, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    write_config(server.base_url)
    main(["demo", "--print"])
    capsys.readouterr()
    server.script_chat(scripted.text("First answer."), scripted.text("Second answer."))
    monkeypatch.setattr("sys.stdin", io.StringIO("first question\n/quit\n"))
    assert main(["chat", "gull"]) == 0
    out, _ = capsys.readouterr()
    assert "A new conversation" in out and "First answer." in out
    monkeypatch.setattr("sys.stdin", io.StringIO("second question\n"))
    assert main(["chat", "gull"]) == 0
    out, _ = capsys.readouterr()
    assert "Resuming the conversation" in out and "Second answer." in out
    assert [m["content"] for m in server.chat_requests()[-1]["messages"][1:]] == [
        "first question",
        "First answer.",
        "second question",
    ]


def test_ask_without_a_model_prints_passages(capsys: pytest.CaptureFixture[str]) -> None:
    main(["demo", "--print"])
    main(["set-page", "gull", "10"])
    capsys.readouterr()
    assert main(["ask", "gull", "Silas Crane"]) == 0
    out, err = capsys.readouterr()
    assert "[p. " in out and "No model is configured" in err


def test_the_offline_chat_does_not_load_litellm() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from reader.services import Services; s = Services.open(); "
        "s.chat.conversations('x'); print('litellm' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
