"""The router for models without tool calling: validated JSON from the scripted model, the concept-map fallback."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from reader.app.knowledge.question_router import (
    BOOK,
    NOT_BOOK,
    RouteAnswerError,
    concept_hits,
    concept_route,
    decide,
    parse_route,
)
from reader.cli.main import main
from reader.domain.chat import AnswerEvent, ToolInvocationEvent, ToolResultEvent
from reader.domain.knowledge import ConceptEntry
from tests.chat_helpers import ask, chat_services, final
from tests.support import scripted_server as scripted


@pytest.fixture
def server():
    with scripted.ScriptedServer() as running:
        yield running


def route(value: object) -> scripted.Text:
    return scripted.text(json.dumps(value))


def invocations(events: list) -> dict[str, ToolInvocationEvent]:
    return {e.name: e for e in events if isinstance(e, ToolInvocationEvent)}


def test_a_valid_book_route_searches_its_queries_and_asks_for_json(server) -> None:
    server.script_chat(
        route(
            {"route": "BOOK", "confidence": 0.85, "suggested_queries": ["sealed letter vestry", "Reverend"]}
        ),
        scripted.text("The Reverend keeps it [p. 5]."),
    )
    services, book = chat_services(server.base_url, page=10, tool_calling="off")
    events = ask(services.chat, book, "Where is the letter kept?")
    found = invocations(events)
    assert found["route_question"].summary.startswith('route -> BOOK (model, 0.85): "sealed letter vestry"')
    assert found["search_book"].arguments == {"query": "sealed letter vestry"}
    (hits,) = [e for e in events if isinstance(e, ToolResultEvent)]
    assert all(r.end_page <= 10 for r in hits.results)
    assert isinstance(final(events), AnswerEvent)
    routing, answer = server.chat_requests()
    assert routing.get("response_format") == {"type": "json_object"}
    assert "BOOK" in routing["messages"][0]["content"] and "p. 10" in routing["messages"][0]["content"]
    assert answer["messages"][-1]["content"].startswith("Passages from the book:")


def test_not_book_is_answered_without_a_search(server) -> None:
    server.script_chat(
        route({"route": "NOT_BOOK", "confidence": 0.95, "suggested_queries": []}),
        scripted.text("84."),
    )
    services, book = chat_services(server.base_url, page=10, tool_calling="off")
    events = ask(services.chat, book, "What is 12 * 7?")
    assert list(invocations(events)) == ["route_question"]
    assert not [e for e in events if isinstance(e, ToolResultEvent)]
    answer = final(events)
    assert isinstance(answer, AnswerEvent) and answer.text == "84."
    _, direct = server.chat_requests()
    assert "does not need passages from the book" in direct["messages"][0]["content"]
    assert not any("Passages from the book" in str(m["content"]) for m in direct["messages"])
    assert "Never reveal" in direct["messages"][0]["content"]  # the spoiler rules still hold


def test_an_invalid_answer_falls_back_to_the_concept_map_and_says_so(server, capsys) -> None:
    server.script_chat(scripted.text("Sure! It is about the book."), scripted.text("Silas Crane [p. 1]."))
    services, book = chat_services(server.base_url, page=10, tool_calling="off")
    events = ask(services.chat, book, "Who is Silas Crane?")
    found = invocations(events)
    summary = found["route_question"].summary
    assert summary.startswith("route -> BOOK (concept map, 0.90)") and "not valid JSON" in summary
    assert found["search_book"].arguments == {"query": "Who is Silas Crane?"}

    # the same through `reader ask -v`: the fallback is shown in the verbose output
    server.script_chat(route({"route": "maybe"}), scripted.text("He rows [p. 1]."))
    lines = ["[chat]", 'model = "openai/scripted"', f'api_base = "{server.base_url}"', 'tool_calling = "off"']
    Path(os.environ["READER_CONFIG"]).write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["ask", "gull", "Who is Crane?", "-v"]) == 0
    err = capsys.readouterr().err
    assert "route -> BOOK (concept map" in err and "'maybe' is not one of BOOK" in err


def test_ambiguous_is_settled_by_the_concept_map(server) -> None:
    services, book = chat_services(server.base_url, page=10, tool_calling="off")
    server.script_chat(
        route({"route": "AMBIGUOUS", "confidence": 0.4, "suggested_queries": ["Thorne"]}),
        scripted.text("The agent of the Board [p. 5]."),
        route({"route": "AMBIGUOUS", "confidence": 0.3, "suggested_queries": []}),
        scripted.text("Hello to you too."),
    )
    first = ask(services.chat, book, "And Thorne?")
    assert "search_book" in invocations(first)
    assert "question names Gideon Thorne" in invocations(first)["route_question"].summary
    second = ask(services.chat, book, "Nice weather, isn't it?")
    assert list(invocations(second)) == ["route_question"]


def entry(name: str, kind: str = "person", *aliases: str) -> ConceptEntry:
    return ConceptEntry(1, name, kind, 1, 3, 2, 2, aliases)


def test_parse_route_validates_the_answer() -> None:
    assert parse_route('{"route": "book", "confidence": 1, "suggested_queries": ["a", " "]}') == (
        BOOK,
        1.0,
        ("a",),
    )
    assert parse_route('```json\n{"route": "NOT_BOOK", "confidence": 0.2}\n```') == (NOT_BOOK, 0.2, ())
    for bad in (
        "BOOK",
        "[]",
        '{"route": "BOOKS"}',
        '{"route": "BOOK", "confidence": 2}',
        '{"route": "BOOK", "confidence": "high"}',
        '{"route": "BOOK", "suggested_queries": "x"}',
    ):
        with pytest.raises(RouteAnswerError):
            parse_route(bad)


def test_concept_route_without_a_model() -> None:
    entries = [
        entry("Gideon Thorne", "person", "Mr. Thorne", "Thorne"),
        entry("Merrow Cove", "place"),
        entry("oil", "term"),
    ]
    assert [e.name for e in concept_hits("what did thorn's letter say", entries)] == ["Gideon Thorne"]
    assert [e.name for e in concept_hits("who lives at merrow cove?", entries)] == ["Merrow Cove"]
    assert concept_route("Who is Thorne?", entries).route == BOOK
    assert concept_route("What happened in chapter 3?", entries).route == BOOK
    assert concept_route("Translate 'bonjour' into English", entries).route == NOT_BOOK
    assert concept_route("Is it a long way?", entries).route == BOOK  # unclear: search to be safe
    assert decide("Who is Thorne?", None, entries).source == "concept map"


def test_a_person_is_named_by_a_surname_a_title_or_a_first_name() -> None:
    entries = [entry("Gideon Thorne", "person", "Mr. Thorne"), entry("Gull Rock", "place", "the Rock")]
    for question in ("tell me about Thorne", "Mr. Thorne again", "and gideon?", "what did mr thorne want"):
        assert [e.name for e in concept_hits(question, entries)] == ["Gideon Thorne"], question
    assert concept_hits("is gull a kind of bird?", entries) == []  # one word of a place names nothing alone
    assert [e.name for e in concept_hits("what is on Gull Rock", entries)] == ["Gull Rock"]


def test_an_unsure_model_and_no_concept_hit_fall_back_to_the_model_free_route() -> None:
    unsure = json.dumps({"route": "AMBIGUOUS", "confidence": 0.3, "suggested_queries": []})
    entries = [entry("Gideon Thorne", "person")]
    assert decide("what did the letter say?", unsure, entries, "The Keeper").route == BOOK
    assert decide("Translate 'bonjour' into English", unsure, entries).route == NOT_BOOK
