"""Model failures become one clear line in the conversation; the reader's question is never lost."""

from __future__ import annotations

import socket
import threading

import pytest

from reader.domain.chat import AnswerEvent, ErrorEvent, TextDelta
from tests.chat_helpers import ask, chat_services, final
from tests.support import scripted_server as scripted


@pytest.fixture
def server():
    with scripted.ScriptedServer() as running:
        yield running


def failed(events: list) -> str:
    end = final(events)
    assert isinstance(end, ErrorEvent), end
    assert "\n" not in end.message
    return end.message


def test_a_refused_api_key_says_which_variable_to_set(server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCRIPTED_KEY", "sk-secret-value")
    server.script_chat(scripted.error(401, "Incorrect API key provided: sk-secret-value"))
    services, book = chat_services(server.base_url, api_key_env="SCRIPTED_KEY")
    chat = services.chat
    events = ask(chat, book, "Who is the keeper?")
    message = failed(events)
    assert message.startswith("The model refused the API key; set SCRIPTED_KEY")
    assert "sk-secret-value" not in message
    stored = chat.messages(final(events).conversation_id or 0)
    assert [(m.role, m.content) for m in stored] == [("user", "Who is the keeper?")]
    assert server.chat_requests()[0]  # the key went in the request, never into the database:
    rows = services.db.conn.execute("SELECT content, coalesce(tool_calls, '') FROM messages").fetchall()
    assert rows and not any("sk-secret-value" in "".join(row) for row in rows)


@pytest.mark.parametrize(
    ("reply", "start"),
    [
        # litellm raises BadRequestError (401) / APIError (403) for these bodies; the status decides
        (scripted.error(401, "Invalid API Key"), "The model refused the API key; set OPENAI_API_KEY"),
        (scripted.error(403, "Project does not have access"), "The server at http://127.0.0.1:"),
        (scripted.error(404, "Invalid URL", code="unknown_url"), "Model 'openai/scripted' was not found at"),
    ],
    ids=["401-other-wording", "403", "404-unknown-url"],
)
def test_the_http_status_decides_the_kind_of_failure(server, reply, start: str) -> None:
    server.script_chat(reply)
    services, book = chat_services(server.base_url)
    message = failed(ask(services.chat, book, "Hello?"))
    assert message.startswith(start), message
    assert len(server.chat_requests()) == 1  # not retried


def test_a_missing_key_variable_is_named(server) -> None:
    services, book = chat_services(server.base_url, api_key_env="NOT_SET_KEY")
    assert "NOT_SET_KEY, but it is not set" in failed(ask(services.chat, book, "Hello?"))
    assert server.chat_requests() == []


def test_a_rate_limit_is_retried_with_backoff(server) -> None:
    server.script_chat(
        scripted.error(429, "slow down"), scripted.error(429, "slow down"), scripted.text("Yes [p. 1].")
    )
    services, book = chat_services(server.base_url)
    assert isinstance(final(ask(services.chat, book, "Again?")), AnswerEvent)
    assert len(server.chat_requests()) == 3


def test_a_rate_limit_that_lasts_ends_in_one_line(server) -> None:
    server.script_chat(*[scripted.error(429, "slow down") for _ in range(4)])
    services, book = chat_services(server.base_url, max_retries=3)
    assert "rate limit" in failed(ask(services.chat, book, "Again?"))
    assert len(server.chat_requests()) == 4


def test_a_server_error_is_retried_then_reported(server) -> None:
    server.script_chat(*[scripted.error(500, "boom") for _ in range(2)])
    services, book = chat_services(server.base_url, max_retries=1)
    message = failed(ask(services.chat, book, "Hello?"))
    assert message.startswith("The model's server failed (500")
    assert len(server.chat_requests()) == 2


def test_an_unknown_model_is_reported(server) -> None:
    server.script_chat(scripted.error(404, "The model `scripted` does not exist"))
    services, book = chat_services(server.base_url)
    assert failed(ask(services.chat, book, "Hello?")).startswith("Model 'openai/scripted' was not found at")


def test_a_slow_model_times_out(server) -> None:
    server.script_chat(scripted.delay(3.0, then=scripted.text("too late")))
    services, book = chat_services(server.base_url, timeout=0.5)
    assert failed(ask(services.chat, book, "Hello?")) == (
        "The model did not answer within 0.5 s; try again, or raise [chat] timeout."
    )


def test_a_refused_connection_is_reported() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    services, book = chat_services(f"http://127.0.0.1:{port}/v1", max_retries=0)
    message = failed(ask(services.chat, book, "Hello?"))
    assert message.startswith(f"Could not connect to the model server at http://127.0.0.1:{port}/v1")


def test_an_overflowing_context_is_trimmed_and_retried_once(server) -> None:
    overflow = (
        "This model's maximum context length is 8192 tokens. However, your messages resulted in 9100 tokens."
    )
    services, book = chat_services(server.base_url)
    chat = services.chat
    conversation = None
    for number in range(3):  # some history to trim
        server.script_chat(scripted.text(f"answer {number} " + " ".join(f"word{i}" for i in range(300))))
        conversation = final(
            ask(chat, book, f"question {number}?", conversation_id=conversation)
        ).conversation_id
    server.script_chat(scripted.error(400, overflow), scripted.text("Short [p. 1]."))
    before = len(server.chat_requests())
    assert isinstance(final(ask(chat, book, "fourth?", conversation_id=conversation)), AnswerEvent)
    first_try, retry = server.chat_requests()[before:]
    assert len(first_try["messages"]) == 1 + 6 + 1
    assert (
        len(retry["messages"]) < len(first_try["messages"]) and retry["messages"][-1]["content"] == "fourth?"
    )

    server.script_chat(scripted.error(400, overflow), scripted.error(400, overflow))
    assert "context window" in failed(ask(chat, book, "fifth?", conversation_id=conversation))


def test_cancelling_stops_the_answer_and_keeps_the_question(server) -> None:
    # the first sentence streams on its own (the spoiler shield releases whole sentences)
    server.script_chat(
        scripted.text("The keeper was tired. He was " + " ".join(f"very{i}" for i in range(200)) + " tired.")
    )
    services, book = chat_services(server.base_url)
    chat = services.chat
    cancel = threading.Event()
    events = []
    for event in chat.ask(book.id, "Tell me about the keeper", cancel=cancel):
        events.append(event)
        if isinstance(event, TextDelta):
            cancel.set()
    assert failed(events) == "Cancelled."
    stored = chat.messages(final(events).conversation_id or 0)
    assert stored[0].content == "Tell me about the keeper"
    assert stored[1].status == "cancelled" and stored[1].content.startswith("The")


def test_a_closed_generator_keeps_the_question_and_the_partial_answer(server) -> None:
    server.script_chat(scripted.text("Part one. " + " ".join(f"more{i}" for i in range(200))))
    services, book = chat_services(server.base_url)
    chat = services.chat
    turn = chat.ask(book.id, "Go on")
    assert isinstance(next(turn), TextDelta)
    turn.close()  # the app stops listening when the reader presses Esc
    (conversation,) = chat.conversations(book.id)
    stored = chat.messages(conversation.id)
    assert stored[0].content == "Go on" and stored[-1].status == "cancelled"
