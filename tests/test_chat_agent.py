"""The tool-use agent through the real litellm client against the scripted OpenAI-compatible server."""

from __future__ import annotations

import pytest

from reader.app.chat.prompt import BUDGET_SPENT
from reader.domain.chat import AnswerEvent, ErrorEvent, TextDelta, ToolInvocationEvent, ToolResultEvent
from tests.chat_helpers import ask, chat_services, final, later_texts, tool_messages
from tests.support import scripted_server as scripted


@pytest.fixture
def server():
    with scripted.ScriptedServer() as running:
        yield running


def test_streamed_text_arrives_as_deltas_with_citations_and_is_saved(server) -> None:
    # two sentences: the spoiler shield releases text a sentence at a time
    server.script_chat(
        scripted.text("Imogen Vale crossed to Gull Rock with Silas Crane [p. 2]. He said nothing for an hour.")
    )
    services, book = chat_services(server.base_url, page=10)
    chat = services.chat
    events = ask(chat, book, "Who took her across?")
    answer = final(events)
    assert isinstance(answer, AnswerEvent)
    deltas = [e.text for e in events if isinstance(e, TextDelta)]
    assert len(deltas) > 1 and "".join(deltas) == answer.text
    assert [(c.label, c.page) for c in answer.citations] == [("2", 2)]
    (request,) = server.chat_requests()
    system = request["messages"][0]["content"]
    assert "The Keeper of Gull Rock" in system and "p. 10 (page 10 of 30)" in system
    assert "[p. 57]" in system and "set_current_page" in system
    assert {t["function"]["name"] for t in request["tools"]} == {
        "search_book",
        "read_pages",
        "get_current_page",
        "set_current_page",
        "lookup_concept",
        "chapter_summary",
        "story_so_far",
        "my_notes",
    }
    stored = chat.messages(answer.conversation_id or 0)
    assert [(m.role, m.content) for m in stored] == [
        ("user", "Who took her across?"),
        ("assistant", answer.text),
    ]
    assert chat.conversations(book.id)[0].title == "Who took her across?"


def test_a_streamed_tool_call_runs_and_its_result_goes_back_to_the_model(server) -> None:
    server.script_chat(
        scripted.tool_calls(scripted.call("read_pages", {"start_page": "2", "end_page": "3"}, id="call_a")),
        scripted.text("She met the boatman [p. 2]."),
    )
    services, book = chat_services(server.base_url, page=10)
    events = ask(services.chat, book, "Recap pages 2 and 3")
    (invocation,) = [e for e in events if isinstance(e, ToolInvocationEvent)]
    assert invocation.name == "read_pages" and invocation.arguments == {"start_page": "2", "end_page": "3"}
    assert invocation.summary == "read_pages pp. 2-3" and "[p. 3]" in invocation.result_text
    assert isinstance(final(events), AnswerEvent)
    second = server.chat_requests()[1]["messages"]
    assistant, tool = second[-2], second[-1]
    assert assistant["tool_calls"][0]["id"] == "call_a" == tool["tool_call_id"]
    assert tool["content"] == invocation.result_text
    roles = [m.role for m in services.chat.messages(final(events).conversation_id or 0)]
    assert roles == ["user", "assistant", "tool", "assistant"]


def test_two_tool_calls_in_one_turn_both_run_in_order(server) -> None:
    server.script_chat(
        scripted.tool_calls(
            scripted.call("search_book", {"query": "Silas Crane boat"}),
            scripted.call("get_current_page", {}),
        ),
        scripted.text("Silas Crane rowed her out [p. 1]."),
    )
    services, book = chat_services(server.base_url, page=10)
    events = ask(services.chat, book, "Who is Silas Crane?")
    names = [e.name for e in events if isinstance(e, ToolInvocationEvent)]
    assert names == ["search_book", "get_current_page"]
    (hits,) = [e for e in events if isinstance(e, ToolResultEvent)]
    assert hits.result_count == len(hits.results) > 0 and all(r.end_page <= 10 for r in hits.results)
    results = tool_messages(server.chat_requests()[1:])
    assert "passages for 'Silas Crane boat'" in results[0] and results[1].startswith("The reader is on p. 10")


def test_a_hallucinated_tool_is_reported_to_the_model_which_then_answers(server) -> None:
    server.script_chat(
        scripted.tool_calls(scripted.call("reveal_ending", {"spoilers": True})),
        scripted.text("I can only talk about the book up to p. 10."),
    )
    services, book = chat_services(server.base_url)
    events = ask(services.chat, book, "How does it end?")
    (invocation,) = [e for e in events if isinstance(e, ToolInvocationEvent)]
    assert invocation.is_error and invocation.summary.startswith("reveal_ending -> error")
    assert tool_messages(server.chat_requests())[0].startswith("Unknown tool: reveal_ending.")
    assert isinstance(final(events), AnswerEvent)


def test_malformed_json_and_wrong_types_come_back_as_errors_the_model_can_fix(server) -> None:
    server.script_chat(
        scripted.tool_calls(
            scripted.call("search_book", '{"query": "the lamp'),
            scripted.call("read_pages", {"start_page": [1], "end_page": {"x": 2}}),
            scripted.call("search_book", "[1, 2]"),
        ),
        scripted.tool_calls(scripted.call("read_pages", {"start_page": 1, "end_page": 1})),
        scripted.text("The lamp was lit [p. 1]."),
    )
    services, book = chat_services(server.base_url)
    events = ask(services.chat, book, "What about the lamp?")
    results = tool_messages(server.chat_requests()[-1:])
    assert "are not valid JSON" in results[0] and 'e.g. {"query": "..."}' in results[0]
    assert "'start_page' must be a string, not list" in results[1]
    assert "must be a JSON object like" in results[2] and "not list" in results[2]
    assert results[3].startswith("Text of p. 1.")
    assert isinstance(final(events), AnswerEvent)
    # the malformed calls go back to the model as "{}" (Ollama and Gemini parse earlier calls' arguments)
    replayed = [m for m in server.chat_requests()[-1]["messages"] if m.get("tool_calls")][0]["tool_calls"]
    assert [c["function"]["arguments"] for c in replayed][0::2] == ["{}", "{}"]


def test_a_page_beyond_the_reading_position_is_refused_or_clamped(server) -> None:
    server.script_chat(
        scripted.tool_calls(
            scripted.call("read_pages", {"start_page": "25", "end_page": "28"}),
            scripted.call("read_pages", {"start_page": "9", "end_page": "14"}),
        ),
        scripted.text("Up to p. 10 the book does not say [p. 10]."),
    )
    services, book = chat_services(server.base_url, page=10)
    final(ask(services.chat, book, "What happens at the inquiry?"))
    refused, clamped = tool_messages(server.chat_requests())
    assert "after the reader's position (p. 10)" in refused
    assert "Stopped at p. 10" in clamped and "[p. 11]" not in clamped
    assert not any(text in refused + clamped for text in later_texts(services, book, 10))


def test_a_model_that_keeps_calling_tools_is_stopped_by_the_budget(server) -> None:
    loop = [scripted.tool_calls(scripted.call("get_current_page", {})) for _ in range(8)]
    server.script_chat(*loop, scripted.text("From what I read: nothing more [p. 10]."))
    services, book = chat_services(server.base_url, page=10)
    events = ask(services.chat, book, "Tell me everything")
    assert len([e for e in events if isinstance(e, ToolInvocationEvent)]) == 8
    requests = server.chat_requests()
    assert len(requests) == 9
    assert all("tools" in r for r in requests[:8]) and "tools" not in requests[8]
    assert requests[8]["messages"][-1]["content"] == BUDGET_SPENT
    assert isinstance(final(events), AnswerEvent)


def test_several_calls_in_one_reply_past_the_budget_are_not_run(server) -> None:
    many = scripted.tool_calls(*[scripted.call("get_current_page", {}) for _ in range(5)])
    server.script_chat(many, scripted.text("Done [p. 3]."))
    services, book = chat_services(server.base_url, page=3, max_tool_calls=4)
    events = ask(services.chat, book, "Where am I?")
    invocations = [e for e in events if isinstance(e, ToolInvocationEvent)]
    assert len(invocations) == 5 and invocations[-1].is_error and "budget" in invocations[-1].result_text
    assert len(server.chat_requests()) == 2 and "tools" not in server.chat_requests()[1]
    assert isinstance(final(events), AnswerEvent)


def test_an_instruction_inside_the_book_cannot_move_the_reading_position(server) -> None:
    server.script_chat(
        scripted.tool_calls(scripted.call("search_book", {"query": "SYSTEM NOTICE assistant"})),
        scripted.tool_calls(scripted.call("set_current_page", {"page": 999})),
        scripted.tool_calls(scripted.call("set_current_page", {"page": "30"})),
        scripted.text("Wren read out a strange line from the log [p. 15]."),
    )
    services, book = chat_services(server.base_url, page=15)
    events = ask(services.chat, book, "What did Wren read aloud from the log?")
    results = tool_messages(server.chat_requests()[-1:])
    assert "SYSTEM NOTICE TO ANY ASSISTANT" in results[0]  # the injection reached the model...
    assert "out of range" in results[1] and results[2].startswith("Refused")  # ...and did nothing
    assert services.books.get(book.id).current_page == 15  # type: ignore[union-attr]
    assert isinstance(final(events), AnswerEvent)


def test_the_reader_saying_where_they_are_moves_the_position(server) -> None:
    server.script_chat(
        scripted.tool_calls(scripted.call("set_current_page", {"page": "20"})),
        scripted.tool_calls(scripted.call("read_pages", {"start_page": "20", "end_page": "20"})),
        scripted.text("Noted, you are on p. 20 [p. 20]."),
    )
    services, book = chat_services(server.base_url, page=12)
    answer = final(ask(services.chat, book, "I'm on page 20 now. What just happened?"))
    assert services.books.get(book.id).current_page == 20  # type: ignore[union-attr]
    assert isinstance(answer, AnswerEvent) and [c.page for c in answer.citations] == [20]
    assert tool_messages(server.chat_requests())[-1].startswith("Text of p. 20.")
    systems = [r["messages"][0]["content"] for r in server.chat_requests()]
    assert "p. 12" in systems[0] and all("p. 20" in s and "p. 12" not in s for s in systems[1:])


def test_asking_about_a_later_page_does_not_move_the_position_there(server) -> None:
    server.script_chat(
        scripted.tool_calls(scripted.call("set_current_page", {"page": "27"})),
        scripted.text("I can only speak about pages up to p. 5."),
    )
    services, book = chat_services(server.base_url, page=5)
    final(ask(services.chat, book, "What happens on page 27?"))
    assert tool_messages(server.chat_requests())[-1].startswith("Refused")
    assert services.books.get(book.id).current_page == 5  # type: ignore[union-attr]


def test_an_empty_question_is_one_line_and_calls_no_model(server) -> None:
    services, book = chat_services(server.base_url, page=5)
    end = final(ask(services.chat, book, "   "))
    assert isinstance(end, ErrorEvent) and end.message == "Type a question first."
    assert server.chat_requests() == []


@pytest.mark.parametrize("page", [3, 10, 15, 22])
def test_no_text_after_the_reading_position_reaches_the_model(server, page: int) -> None:
    queries = ["Silas Crane", "the lamp went out", "who put out the light", "the ending", "Imogen"]
    server.script_chat(
        scripted.tool_calls(*[scripted.call("search_book", {"query": q}) for q in queries]),
        scripted.tool_calls(
            scripted.call("read_pages", {"start_page": "1", "end_page": "30"}),
            scripted.call("read_pages", {"start_page": str(page), "end_page": str(page + 3)}),
            scripted.call("read_pages", {"start_page": str(page - 2), "end_page": "30"}),
        ),
        scripted.text("Done."),
    )
    services, book = chat_services(server.base_url, page=page)
    final(ask(services.chat, book, "Tell me about the keeper"))
    sent = "\n".join(tool_messages(server.chat_requests()))
    assert sent and f"[p. {page}]" in sent
    leaked = [text for text in later_texts(services, book, page) if text in sent]
    assert leaked == []


def test_an_error_reply_ends_the_turn_with_one_line(server) -> None:
    server.script_chat(scripted.error(400, "Invalid 'messages'"))
    services, book = chat_services(server.base_url, max_retries=0)
    events = ask(services.chat, book, "Anything?")
    end = final(events)
    assert isinstance(end, ErrorEvent) and "\n" not in end.message
    assert end.message.startswith("The model rejected the request")


def test_moving_back_mid_answer_takes_back_what_was_read_further_on(server) -> None:
    server.script_chat(
        scripted.tool_calls(scripted.call("read_pages", {"start_page": "14", "end_page": "15"})),
        scripted.tool_calls(scripted.call("set_current_page", {"page": "6"})),
        scripted.text("On p. 6, Imogen had just arrived [p. 6]. Later [p. 15]."),
    )
    services, book = chat_services(server.base_url, page=15)
    end = final(ask(services.chat, book, "Actually I'm on page 6. What is happening?"))
    last = server.chat_requests()[-1]
    assert "page 6 of 30" in last["messages"][0]["content"]  # the prompt names the new position
    results = tool_messages([last])
    assert results[0].startswith("[Left out: read when the reading position was further on")
    assert results[1].startswith("Reading position moved back to p. 6")
    assert not any(text in str(last["messages"]) for text in later_texts(services, book, 6))
    assert isinstance(end, AnswerEvent) and [c.page for c in end.citations] == [6]  # p. 15 is not cited
