"""The chat's lookup_concept, chapter_summary and story_so_far tools: clamped to the reader's page."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reader.app.chat.knowledge_tools import BookKnowledge
from reader.app.chat.tools import BookTools, tool_summary
from reader.cli.library_commands import import_sample
from reader.domain.chat import AnswerEvent, ToolInvocationEvent
from reader.services import Services
from tests.chat_helpers import ask, chat_services, final, tool_messages
from tests.support import scripted_server as scripted
from tests.test_knowledge_no_leak import first_pages, late_words

TEMPLATE = set(
    """person place term also called first appears on p pp mentioned times time pages page up to appears with
    passages and more no or the in reader's position try search book say read so far do not mention it""".split()
)
"""The words of the tool's own sentences (everything else in its text comes from the book)."""


def tools_at(page: int) -> tuple[Services, BookTools]:
    services = Services.open()
    book = import_sample(services)
    services.books.set_current_page(book.id, page)
    book = services.books.get(book.id)
    assert book is not None
    knowledge = BookKnowledge(services.xray, services.summaries_for())
    return services, BookTools(book, services.books, services.chunks, None, knowledge=knowledge)


def cited_pages(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\[p\. (\d+)\]", text)]


def test_lookup_concept_is_fuzzy_and_stops_at_the_page() -> None:
    _, tools = tools_at(10)
    result = tools.call("lookup_concept", {"name": "thorne"})
    assert not result.is_error and result.formatted_text.startswith("Gideon Thorne (person)")
    assert "First appears on p. 3" in result.formatted_text and "up to p. 10" in result.formatted_text
    assert "Appears with: Imogen Vale" in result.formatted_text
    assert cited_pages(result.formatted_text) and max(cited_pages(result.formatted_text)) <= 10
    assert (
        tool_summary("lookup_concept", {"name": "thorne"}, result)
        == 'lookup_concept "thorne" -> Gideon Thorne'
    )
    missing = tools.call("lookup_concept", {"name": "Morvoren Quay"})
    assert (
        not missing.is_error and "No person, place or term called 'Morvoren Quay'" in missing.formatted_text
    )
    assert tools.call("lookup_concept", {}).is_error
    tools.current_page = 30
    assert tools.call("lookup_concept", {"name": "Morvoren Quay"}).formatted_text.startswith(
        "Morvoren Quay (place)"
    )


def test_chapter_summary_and_story_so_far_tools() -> None:
    _, tools = tools_at(11)
    current = tools.call("chapter_summary", {"chapter": "current"})
    assert current.formatted_text.startswith(
        "Summary of Chapter 4: Salvage at Merrow Cove (pp. 10-11 so far)"
    )
    assert set(cited_pages(current.formatted_text)) <= {10, 11}
    later = tools.call("chapter_summary", {"chapter": "5"})
    assert later.is_error and "after the reader's position" in later.formatted_text
    recap = tools.call("story_so_far", {})
    assert recap.formatted_text.startswith("The story so far, up to p. 11")
    assert "Chapter 1: The Crossing" in recap.formatted_text and max(cited_pages(recap.formatted_text)) <= 11
    assert tool_summary("story_so_far", {}, recap).startswith("story_so_far -> The story so far, up to p. 11")


def test_the_lookup_tool_never_shows_words_first_written_later() -> None:
    services, tools = tools_at(1)
    seen = first_pages(services, tools.book.id, tools.book.page_count)
    names = [e.name for e in services.xray.entries(tools.book.id, 30)]

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(page=st.integers(1, 30), name=st.sampled_from(names))
    def check(page: int, name: str) -> None:
        tools.current_page = page
        text = tools.call("lookup_concept", {"name": name}).formatted_text
        text = text.replace(f"'{name}'", "")  # the question itself is echoed when nothing matches
        late = [w for w in late_words(text, seen, page) if w.lower() not in TEMPLATE]
        assert not late, (page, name, late)

    check()


@pytest.fixture
def server():
    with scripted.ScriptedServer() as running:
        yield running


def test_the_model_calls_lookup_concept_through_the_agent(server) -> None:
    server.script_chat(
        scripted.tool_calls(scripted.call("lookup_concept", {"name": "Crane"}, id="call_x")),
        scripted.text("Silas Crane is the boatman [p. 1]."),
    )
    services, book = chat_services(server.base_url, page=10)
    events = ask(services.chat, book, "Who is Crane?")
    (invocation,) = [e for e in events if isinstance(e, ToolInvocationEvent)]
    assert (
        invocation.name == "lookup_concept" and invocation.summary == 'lookup_concept "Crane" -> Silas Crane'
    )
    assert isinstance(final(events), AnswerEvent)
    (tool_text,) = tool_messages(server.chat_requests())
    assert tool_text.startswith("Silas Crane (person)") and "Captain Crane" in tool_text
    system = server.chat_requests()[0]["messages"][0]["content"]
    assert "lookup_concept(name)" in system and "story_so_far()" in system


def test_without_a_model_the_chat_shows_xray_entries_and_recaps() -> None:
    services, book = chat_services(None, page=10)
    answer = final(ask(services.chat, book, "Who is Thorne?"))
    assert isinstance(answer, AnswerEvent) and answer.offline
    blocks = answer.text.split("\n\n")  # what the X-Ray knows, then the passages, each a block
    assert blocks[0] == "**What the X-Ray knows**" and blocks[1].startswith("**Gideon Thorne** (person)")
    assert "First appears on p. 3" in blocks[2] and "**Passages up to p. 10 that best match your question**" in blocks
    assert all(c.page <= 10 for c in answer.citations)
    recap = final(ask(services.chat, book, "Can you recap the story so far?"))
    assert isinstance(recap, AnswerEvent) and recap.text.startswith("The story so far, up to p. 10")
    assert "Chapter 4: Salvage at Merrow Cove" in recap.text and "Chapter 5" not in recap.text
    nothing = final(ask(services.chat, book, "Morvoren Quay"))
    assert isinstance(nothing, AnswerEvent) and "Morvoren Quay (place)" not in nothing.text


def test_chat_tools_never_call_the_model_but_reuse_its_cached_summaries(server) -> None:
    services, book = chat_services(server.base_url, page=5)
    knowledge = services.chat.knowledge
    assert knowledge is not None
    tools = BookTools(book, services.books, services.chunks, None, knowledge=knowledge)
    before = tools.call("chapter_summary", {"chapter": "1"}).formatted_text
    assert server.chat_requests() == [] and "[p. 1]" in before  # extractive, no model call
    server.script_chat(
        scripted.text("Imogen crosses to Gull Rock [p. 1]."),
        scripted.text("Her uncle is buried [p. 4]."),
        scripted.text("Imogen arrives; her uncle is buried [p. 4]."),
    )
    services.summaries_for().story_so_far(book.id, 5)  # what `reader recap` does with the model
    assert len(server.chat_requests()) == 3
    after = tools.call("chapter_summary", {"chapter": "1"}).formatted_text
    assert after.endswith("Imogen crosses to Gull Rock [p. 1].") and len(server.chat_requests()) == 3


def test_a_concept_on_one_page_is_counted_in_the_singular() -> None:
    """At p. 1 of the sample, Silas Crane is on one page: '... on 1 page up to p. 1: p. 1', not '1 pages'."""
    _, tools = tools_at(1)
    text = tools.call("lookup_concept", {"name": "Silas Crane"}).formatted_text
    assert "on 1 page up to p. 1: p. 1." in text and "1 pages" not in text and "pp. 1." not in text
