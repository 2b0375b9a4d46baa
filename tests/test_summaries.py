"""Chapter summaries and the story so far: offline extractive, map-reduce with the scripted model, the cache."""

from __future__ import annotations

import json
import re

import pytest

from reader.app.knowledge.story_outline import story_outline
from reader.app.knowledge.summaries import EXTRACTIVE
from reader.cli.library_commands import import_sample
from reader.cli.main import main
from reader.config import ChatConfig, Config
from reader.domain.errors import ReaderError
from reader.domain.models import Chapter
from reader.services import Services
from tests.chat_helpers import later_texts
from tests.support import scripted_server as scripted

CITED = re.compile(r"(.+?) \[p\. (\w+)\]")


def sample(page: int, config: Config | None = None) -> tuple[Services, str]:
    services = Services.open(config=config or Config())
    book = import_sample(services)
    services.books.set_current_page(book.id, page)
    return services, book.id


def page_text(services: Services, book_id: str, number: int) -> str:
    book = services.books.get(book_id)
    assert book is not None
    return " ".join(services.pages.page_text(book, number).text.split())


def test_the_offline_recap_is_cited_central_sentences_up_to_the_page() -> None:
    services, book_id = sample(8)
    recap = services.summaries_for().story_so_far(book_id, 8)
    assert recap.model == EXTRACTIVE and not recap.cached
    assert [s.title for s in recap.sections] == [
        "Chapter 1: The Crossing",
        "Chapter 2: The Sealed Letter",
        "Chapter 3: The Tower on Tern Head",
    ]
    last = recap.sections[-1]
    assert last.partial and (last.start_page, last.end_page) == (7, 8)
    assert not recap.sections[0].partial and recap.sections[0].end_page == 3
    for section in recap.sections:
        cited = CITED.findall(section.text)
        assert 1 <= len(cited) <= 8 and (section.partial or len(cited) >= 2)  # in proportion to length
        for sentence, label in cited:
            page = int(label)
            assert section.start_page <= page <= min(section.end_page, 8)
            assert sentence.strip() in page_text(services, book_id, page)
    assert "Chapter 2: The Sealed Letter" in recap.text


def test_summaries_are_cached_and_a_changed_text_is_summarised_again() -> None:
    services, book_id = sample(12)
    first = services.summaries_for().story_so_far(book_id, 12)
    again = services.summaries_for().story_so_far(book_id, 12)
    assert again.cached and all(s.cached for s in again.sections)
    assert [s.text for s in again.sections] == [s.text for s in first.sections]
    rows = services.db.conn.execute(
        "SELECT count(*) FROM summaries WHERE book_id = ? AND scope LIKE 'entry:%'", (book_id,)
    ).fetchone()
    assert rows[0] == 4

    chunk = services.chunks.get_by_page_range(book_id, 5, 5)[0]
    services.db.conn.execute(
        "UPDATE chunks SET text = ? WHERE id = ?", ("A new paragraph about the keeper's cat. " * 3, chunk.id)
    )  # as a reindex with a changed extractor would, which also records a new import time:
    services.db.conn.execute("UPDATE books SET imported_at = '2030-01-01T00:00:00Z' WHERE id = ?", (book_id,))
    changed = services.summaries_for().story_so_far(book_id, 12)
    cached = [s.cached for s in changed.sections]
    assert cached == [True, False, True, True]  # only chapter 2 (pp. 4-6) was summarised again


def test_reading_on_in_a_chapter_makes_a_new_summary_of_it() -> None:
    services, book_id = sample(7)
    summaries = services.summaries_for()
    at_seven = summaries.chapter_summary(book_id, "current", 7).summary
    at_nine = summaries.chapter_summary(book_id, "3", 9).summary
    assert at_seven.partial and at_seven.end_page == 7 and not at_seven.cached
    assert not at_nine.partial and at_nine.end_page == 9 and not at_nine.cached
    assert summaries.chapter_summary(book_id, "tower on tern", 7).summary.cached


def test_a_chapter_after_the_reading_position_cannot_be_summarised() -> None:
    services, book_id = sample(8)
    summaries = services.summaries_for()
    with pytest.raises(ReaderError) as error:
        summaries.chapter_summary(book_id, "9", 8)
    assert "after the reader's position" in str(error.value) and "Inquiry" not in str(error.value)
    with pytest.raises(ReaderError):
        summaries.chapter_summary(book_id, "the inquiry at the drowned bell", 8)
    with pytest.raises(ReaderError):
        summaries.chapter_summary(book_id, "99", 8)
    for later_title in ("The Night Watch", "Thief", "the woman on the cliff"):  # not a near earlier title
        with pytest.raises(ReaderError) as error:
            summaries.chapter_summary(book_id, later_title, 5)
        assert "No chapter up to the reader's position matches" in str(error.value)


def test_sections_of_a_book_without_chapters_and_with_front_matter() -> None:
    assert [(s.title, s.start_page, s.end_page) for s in story_outline([], 23).sections] == [
        ("Pages 1-10", 1, 10),
        ("Pages 11-20", 11, 20),
        ("Pages 21-23", 21, 23),
    ]
    chapters = [Chapter(0, "One", 3, 5), Chapter(1, "Part", 3, 4, level=1), Chapter(2, "Two", 6, 9)]
    outline = story_outline(chapters, 9)
    assert [(s.title, s.start_page, s.end_page, s.parts) for s in outline.sections] == [
        ("Opening pages", 1, 2, ()),
        ("Part", 3, 5, (0,)),
        ("Two", 6, 9, ()),
    ]
    assert [(p.title, p.start_page, p.end_page) for p in outline.parts] == [("One", 3, 5)]


@pytest.fixture
def server():
    with scripted.ScriptedServer() as running:
        yield running


def model_config(server: scripted.ScriptedServer, name: str = "openai/scripted") -> Config:
    return Config(chat=ChatConfig(model=name, api_base=server.base_url, timeout=10.0, retry_backoff=0.01))


def test_map_reduce_with_the_model_sees_only_pages_read_and_is_cached(server) -> None:
    services, book_id = sample(5, model_config(server))
    server.script_chat(
        scripted.text(
            "Imogen crosses to Gull Rock with Silas Crane [p. 1] and lodges at the Drowned Bell [p. 2]."
        ),
        scripted.text(
            "Her uncle is buried; the Reverend keeps his sealed letter [p. 4]. Thorne asks for it [p. 29]."
        ),
        scripted.text("Imogen arrives [p. 1]; her uncle's sealed letter waits with the Reverend [p. 4]."),
    )
    recap = services.summaries_for().story_so_far(book_id, 5)
    assert recap.model == "openai/scripted" and [s.model for s in recap.sections] == ["openai/scripted"] * 2
    assert recap.sections[1].partial and recap.sections[1].end_page == 5
    assert "[p. 29]" not in recap.sections[1].text  # a citation past the reader's page is dropped
    assert recap.text.startswith("Imogen arrives [p. 1]")
    requests = server.chat_requests()
    assert len(requests) == 3 and all("tools" not in r for r in requests)
    sent = " ".join(m["content"] for r in requests for m in r["messages"])
    assert "[p. 5]" in sent and "[p. 6]" not in sent
    for text in later_texts(services, services.books.get(book_id), 5):
        assert text not in sent

    again = services.summaries_for().story_so_far(book_id, 5)
    assert again.cached and again.text == recap.text and len(server.chat_requests()) == 3

    other = Services(services.db, model_config(server, "openai/other"))
    server.script_chat(
        scripted.text("One [p. 1]."), scripted.text("Two [p. 4]."), scripted.text("Both [p. 1].")
    )
    assert other.summaries_for().story_so_far(book_id, 5).overview == "Both [p. 1]."
    assert len(server.chat_requests()) == 6  # another model: summarised again


def test_a_failing_model_falls_back_to_extractive_and_says_so(server) -> None:
    services, book_id = sample(3, model_config(server))
    server.script_chat(scripted.error(401, "Incorrect API key provided"))
    recap = services.summaries_for().story_so_far(book_id, 3)
    assert recap.model == EXTRACTIVE and recap.sections[0].model == EXTRACTIVE
    assert recap.notes and "extractive" in recap.notes[0]
    assert "[p. 1]" in recap.text


def test_recap_and_xray_commands(capsys: pytest.CaptureFixture[str]) -> None:
    services, book_id = sample(10)
    assert main(["recap", "gull"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("The story so far: The Keeper of Gull Rock, up to p. 10")
    assert "Chapter 4: Salvage at Merrow Cove" in out and "Chapter 5" not in out
    assert main(["recap", "gull", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["up_to_page"] == 10 and data["cached"] and len(data["chapters"]) == 4
    assert main(["recap", "gull", "--chapter", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Chapter 2: The Sealed Letter (pp. 4-6)")

    assert main(["xray", "gull"]) == 0
    out = capsys.readouterr().out
    assert "People" in out and "Gideon Thorne" in out and "Merrow Cove" in out and "Morvoren" not in out
    assert main(["xray", "gull", "--json", "--kind", "place"]) == 0
    places = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {p["kind"] for p in places} == {"place"} and all(p["first_page"] <= 10 for p in places)
    assert main(["xray", "gull", "mr thorne", "--json"]) == 0
    thorne = json.loads(capsys.readouterr().out)
    assert thorne["name"] == "Gideon Thorne" and thorne["first_page"] == 3
    assert all(m["page"] <= 10 for m in thorne["mentions_by_page"]) and thorne["snippets"]
    assert main(["xray", "gull", "Morvoren Quay"]) == 1
    assert "No person, place or term like 'Morvoren Quay'" in capsys.readouterr().err


def test_a_model_recap_that_leaks_a_later_name_stops_before_it(server) -> None:
    from reader.app.shield.spoiler_shield import HELD_SUMMARY

    services, book_id = sample(5, model_config(server))
    server.script_chat(
        scripted.text("Imogen crosses to Gull Rock with Silas Crane [p. 1]. She ends at Morvoren Quay."),
        scripted.text("Her uncle's sealed letter waits with the Reverend [p. 4]."),
        scripted.text("Imogen arrives [p. 1]. Later she sails to Morvoren Quay with Dick Kitto."),
    )
    recap = services.summaries_for().story_so_far(book_id, 5)
    assert "Morvoren" not in recap.text and "Morvoren" not in recap.sections[0].text
    assert recap.overview == f"Imogen arrives [p. 1].\n\n({HELD_SUMMARY})"
    assert recap.text.startswith(recap.overview)  # the overview, then the chapters under their parts
    assert recap.sections[0].text.startswith("Imogen crosses to Gull Rock with Silas Crane [p. 1].")
