"""Refining the X-Ray with the chat model: per chapter, never past the reader's page, cached, and safe
when the model errs or answers badly. A real library file and the real litellm client against the
scripted server on 127.0.0.1."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest

from reader.adapters.sqlite.book_repository import SqliteBookRepository
from reader.adapters.sqlite.connection import open_connection
from reader.adapters.sqlite.migrations import SCHEMA_VERSION, migrate
from reader.adapters.sqlite.refinement_repository import SqliteRefinementRepository
from reader.app.chat.knowledge_tools import BookKnowledge
from reader.app.chat.tools import BookTools
from reader.app.knowledge.refine_sections import refine_sections
from reader.app.knowledge.refined_map import apply_refinements
from reader.cli.library_commands import import_sample
from reader.cli.main import main
from reader.config import ChatConfig, Config
from reader.domain.concept_refinement import ChapterRefinement
from reader.domain.knowledge import ConceptEntry
from reader.domain.models import Chapter
from reader.services import Services
from tests.chat_helpers import later_texts
from tests.support import scripted_server as scripted

LATER_NAMES = ("Morvoren", "Dick Kitto", "Kitto", "Jack Pell", "Captain Nemo")
"""Names first met after p. 5 (and one the book never uses)."""


def model_config(server: scripted.ScriptedServer, name: str = "openai/scripted") -> Config:
    return Config(chat=ChatConfig(model=name, api_base=server.base_url, timeout=10.0, retry_backoff=0.01))


def sample(page: int, config: Config) -> tuple[Services, str]:
    services = Services.open(config=config)
    book = import_sample(services)
    services.books.set_current_page(book.id, page)
    return services, book.id


def sent_names(body: dict[str, Any]) -> list[str]:
    request = json.loads(body["messages"][-1]["content"])
    return [n for item in request["names"] for n in (item["name"], *item["also"])]


def answer(same: list[list[str]], kinds: dict[str, str]) -> scripted.Text:
    return scripted.text(json.dumps({"same": same, "kinds": kinds}))


def greedy(body: dict[str, Any]) -> scripted.Text:
    """A model that tries everything: joins the Rock to later people, types names it was not sent, and
    calls the chapter's "inquiry" no name (where it was sent)."""
    names = sent_names(body)
    kinds = {name: "person" for name in LATER_NAMES} | {"Gull Rock": "place"}
    if "inquiry" in names:
        kinds["inquiry"] = "not-a-name"
    same = [["Gull Rock", "the Rock", "Morvoren Quay", "Dick Kitto", "Captain Nemo"]]
    return answer(same, kinds)


def by_name(entries: list[ConceptEntry]) -> dict[str, ConceptEntry]:
    return {e.name: e for e in entries}


def every_name(entries: list[ConceptEntry]) -> str:
    return " | ".join(n for e in entries for n in (e.name, *e.aliases))


def test_each_call_sees_one_chapter_up_to_the_page_and_the_model_cannot_add_anything(scripted_server) -> None:
    server = scripted_server
    services, book_id = sample(5, model_config(server))
    base = services.concepts.visible(book_id, 5)
    server.script_chat(scripted.respond(greedy), scripted.respond(greedy))

    outcome = services.refine.run(book_id, 5)
    assert (outcome.chapters, outcome.refined, outcome.cached, outcome.notes) == (2, 2, 0, [])

    requests = server.chat_requests()
    assert len(requests) == 2 and all(r["response_format"] == {"type": "json_object"} for r in requests)
    chapters = [json.loads(r["messages"][-1]["content"])["chapter"] for r in requests]
    assert chapters == ["Chapter 1: The Crossing", "Chapter 2: The Sealed Letter"]
    sent = " ".join(r["messages"][-1]["content"] for r in requests)
    for name in LATER_NAMES:
        assert name not in sent
    book = services.books.get(book_id)
    assert book is not None
    for text in later_texts(services, book, 5):
        assert text not in sent
    first, second = (set(sent_names(r)) for r in requests)
    assert "Imogen Vale" in first and "inquiry" not in first  # chapter 1 sees its own names only
    assert "inquiry" in second

    entries = services.xray.entries(book_id, 5)
    shown = every_name(entries)
    for name in LATER_NAMES:
        assert name not in shown
    rock = services.xray.find(book_id, "the Rock", 5)
    assert rock is not None and rock.name == "Gull Rock" and "the Rock" in rock.aliases
    assert "inquiry" not in by_name(entries)
    base_by_id = {e.id: e for e in base}
    assert {e.id for e in entries} <= set(base_by_id)
    assert sum(e.mentions for e in entries) <= sum(e.mentions for e in base)
    for entry in entries:
        assert entry.first_page <= 5 and entry.last_page <= 5
    detail = services.xray.detail(book_id, rock, 5)
    assert all(page <= 5 for page, _ in detail.mentions) and all(s.page <= 5 for s in detail.snippets)
    assert sum(count for _, count in detail.mentions) == rock.mentions and len(detail.mentions) == rock.pages

    knowledge = BookKnowledge(services.xray, services.summaries_for(offline=True))
    tools = BookTools(book, services.books, services.chunks, None, knowledge=knowledge)
    looked_up = tools.call("lookup_concept", {"name": "the Rock"}).formatted_text
    assert looked_up.startswith("Gull Rock (place), also called the Rock")
    assert not any(name in looked_up for name in LATER_NAMES)
    assert "No person, place or term" in tools.call("lookup_concept", {"name": "Morvoren Quay"}).formatted_text

    # back at p. 4 the refinement of chapter 2 read up to p. 5 does not apply; chapter 1's does
    at_four = services.xray.entries(book_id, 4)
    assert "inquiry" in by_name(at_four)
    assert "the Rock" in by_name(at_four)["Gull Rock"].aliases


def test_a_second_run_makes_no_calls_and_reading_on_asks_only_about_the_chapter_in_progress(
    scripted_server,
) -> None:
    server = scripted_server
    services, book_id = sample(5, model_config(server))
    server.script_chat(answer([], {}), answer([], {}))
    services.refine.run(book_id, 5)
    again = services.refine.run(book_id, 5)
    assert (again.refined, again.cached) == (0, 2) and len(server.chat_requests()) == 2
    assert "2 from the cache" in again.summary()

    services.books.set_current_page(book_id, 6)
    server.script_chat(answer([], {}))
    on = services.refine.run(book_id, 6)
    assert (on.refined, on.cached) == (1, 1) and len(server.chat_requests()) == 3

    other = Services(services.db, model_config(server, "openai/other"))
    server.script_chat(answer([], {}), answer([], {}))
    assert other.refine.run(book_id, 6).refined == 2  # another model: asked again
    assert len(server.chat_requests()) == 5


def test_a_malformed_answer_or_a_model_error_is_one_line_and_the_map_stays(scripted_server) -> None:
    server = scripted_server
    services, book_id = sample(8, model_config(server))
    before = services.xray.entries(book_id, 8)
    server.script_chat(
        scripted.text("Sure! Gull Rock and the Rock are the same place."),
        answer([["Gull Rock"]], {"Gull Rock": "lighthouse"}),
        scripted.error(401, "Incorrect API key provided"),
    )
    outcome = services.refine.run(book_id, 8)
    assert outcome.refined == 0 and len(outcome.notes) == 3
    assert all("\n" not in note for note in outcome.notes)
    assert outcome.notes[0].startswith("The model's answer for Chapter 1: The Crossing was unusable (not JSON")
    assert 'unknown kind "lighthouse"' in outcome.notes[1]
    assert outcome.notes[2].startswith("The model failed on Chapter 3: The Tower on Tern Head (")
    assert services.xray.entries(book_id, 8) == before
    assert services.db.conn.execute("SELECT count(*) FROM concept_refinements").fetchone()[0] == 0

    server.script_chat(answer([["the Rock", "Gull Rock"]], {}), answer([], {}), answer([], {}))
    assert services.refine.run(book_id, 8).refined == 3  # nothing was cached from the failures


def test_merges_the_names_forbid_are_refused() -> None:
    def entry(i: int, name: str, *aliases: str) -> ConceptEntry:
        return ConceptEntry(i, name, "person", 1, 10 - i, 2, 3, aliases)

    entries = [
        entry(1, "Mr. Bennet"),
        entry(2, "Mrs. Bennet"),
        entry(3, "Elizabeth Bennet", "Lizzy"),
        entry(4, "Jane Bennet"),
        entry(5, "Miss Eliza Bennet"),
        entry(6, "Count Rostóv"),
        entry(7, "Countess Rostóva"),
    ]
    groups = (
        ("Mr. Bennet", "Mrs. Bennet"),
        ("Elizabeth Bennet", "Jane Bennet"),
        ("Count Rostóv", "Countess Rostóva"),
        ("Lizzy", "Miss Eliza Bennet"),
    )
    refinement = ChapterRefinement("chapter:0", 1, 3, groups, (("Jane Bennet", "person"),))
    view = apply_refinements(entries, [refinement], lambda i: [(1, 1), (i + 1, 1)])
    names = {e.name: e.aliases for e in view.entries}
    assert set(names) == {"Mr. Bennet", "Mrs. Bennet", "Elizabeth Bennet", "Jane Bennet", "Count Rostóv",
                          "Countess Rostóva"}
    assert names["Elizabeth Bennet"] == ("Lizzy", "Miss Eliza Bennet")  # "Eliza": a short form, one woman
    merged = by_name(view.entries)["Elizabeth Bennet"]
    assert merged.mentions == 7 + 5 and merged.pages == 3  # pages 1, 4 and 6


def test_cancelling_keeps_the_chapters_done(scripted_server) -> None:
    server = scripted_server
    services, book_id = sample(8, model_config(server))
    cancel = threading.Event()
    server.script_chat(answer([["the Rock", "Gull Rock"]], {}))

    def progress(done: int, total: int) -> None:
        if done == 1:
            cancel.set()

    outcome = services.refine.run(book_id, 8, progress, cancel)
    assert outcome.cancelled and outcome.refined == 1 and "cancelled" in outcome.summary()
    assert "the Rock" in by_name(services.xray.entries(book_id, 8))["Gull Rock"].aliases
    server.script_chat(answer([], {}), answer([], {}))
    rest = services.refine.run(book_id, 8)
    assert (rest.cached, rest.refined) == (1, 2) and len(server.chat_requests()) == 3


def write_config(base_url: str) -> None:
    lines = ["[chat]", 'model = "openai/scripted"', f'api_base = "{base_url}"', "timeout = 10"]
    Path(os.environ["READER_CONFIG"]).write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_the_xray_command_refines_once_and_offline_says_how_to_configure(
    scripted_server, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--print"]) == 0
    assert main(["set-page", "gull", "5"]) == 0
    capsys.readouterr()
    assert main(["xray", "gull"]) == 0
    plain = capsys.readouterr().out
    assert main(["xray", "gull", "--refine"]) == 0
    out, err = capsys.readouterr()
    assert out == plain and len(err.strip().splitlines()) == 1
    assert "[chat] model" in err and "config" in err

    server = scripted_server
    write_config(server.base_url)
    server.script_chat(answer([["Gull Rock", "the Rock"]], {"oil": "not-a-name"}), answer([], {}))
    assert main(["xray", "gull", "--refine"]) == 0
    out, err = capsys.readouterr()
    assert "Refined the X-Ray of The Keeper of Gull Rock with openai/scripted: 2 of 2 chapters." in err
    assert "Gull Rock" in out and "also the Rock" in out and "Merrow" not in out
    assert main(["xray", "gull", "--refine", "--json", "--kind", "place"]) == 0
    out, err = capsys.readouterr()
    assert "2 from the cache" in err and len(server.chat_requests()) == 2
    rock = next(json.loads(line) for line in out.splitlines() if json.loads(line)["name"] == "Gull Rock")
    assert rock["aliases"] == ["the Rock"] and rock["first_page"] == 1
    assert main(["xray", "gull", "the rock", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["name"] == "Gull Rock"  # stored: no --refine needed


def test_the_refinement_table_comes_with_the_upgrade_from_the_previous_schema(tmp_path: Path) -> None:
    import sqlean

    path = tmp_path / "old.db"
    old = sqlean.connect(str(path), isolation_level=None)
    migrate(old, target=6)  # the schema before refinements (step 7)
    old.execute(
        "INSERT INTO books (id, title, format, source_path, page_count, index_version, imported_at) "
        "VALUES (?, 'Old', 'txt', '/x', 3, 3, '2026-01-01')",
        ("ab" * 32,),
    )
    old.close()

    conn = open_connection(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    store = SqliteRefinementRepository(conn)
    refinement = ChapterRefinement("chapter:0", 1, 2, (("A", "B"),), (("A", "person"),))
    store.put("ab" * 32, "m", 1, 3, "h", refinement)
    assert store.get("ab" * 32, "chapter:0", "m", 1, 3, "h") == refinement
    assert store.latest("ab" * 32, "m", 1, 3, 1) == [] and store.latest("ab" * 32, "m", 1, 3, 2) == [refinement]
    assert store.latest("ab" * 32, "m", 1, 4, 2) == []  # another index version: not used
    assert SqliteBookRepository(conn).remove("ab" * 32)
    assert conn.execute("SELECT count(*) FROM concept_refinements").fetchone()[0] == 0


def test_a_contents_with_one_book_entry_is_asked_about_chapter_by_chapter() -> None:
    chapters = [
        Chapter(0, "WAR AND PEACE", 2, 5),
        Chapter(1, "BOOK ONE: 1805", 6, 100),
        Chapter(2, "CHAPTER I", 6, 10, level=1),
        Chapter(3, "CHAPTER II", 11, 100, level=1),
    ]
    sections = refine_sections(chapters, 110, first=6, last=100)
    assert [(s.title, s.start_page, s.end_page) for s in sections] == [
        ("CHAPTER I", 6, 10),
        ("CHAPTER II (pages 11-40)", 11, 40),
        ("CHAPTER II (pages 41-70)", 41, 70),
        ("CHAPTER II (pages 71-100)", 71, 100),
    ]
    assert len({s.scope for s in sections}) == 4


def test_at_every_page_the_refined_xray_shows_only_what_the_map_shows_by_then(scripted_server) -> None:
    server = scripted_server
    services, book_id = sample(9, model_config(server))
    server.script_chat(*[scripted.respond(greedy)] * 3)
    assert services.refine.run(book_id, 9).refined == 3
    plain = Services(services.db, Config())  # no model: the map as built
    for page in range(1, 13):
        base = plain.xray.entries(book_id, page)
        base_names = {n for e in base for n in (e.name, *e.aliases)}
        refined = services.xray.entries(book_id, page)
        assert {n for e in refined for n in (e.name, *e.aliases)} <= base_names
        assert sum(e.mentions for e in refined) <= sum(e.mentions for e in base)
        assert all(e.first_page <= page and e.last_page <= page for e in refined)
        for entry in refined:
            detail = services.xray.detail(book_id, entry, page)
            assert all(p <= page for p, _ in detail.mentions) and all(s.page <= page for s in detail.snippets)
            assert {other.id for other, _ in detail.related} <= {e.id for e in refined}
