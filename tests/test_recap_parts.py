"""Recaps of books with parts: chapters under their parts, matter left out, the horizon kept, the model's
part summaries made from chapter summaries and cached, and the same recap in the app."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Markdown

from reader.app.chat.knowledge_tools import BookKnowledge, story_so_far
from reader.app.knowledge.model_summary import MAP_PROMPT, PART_PROMPT, RECAP_PROMPT
from reader.app.knowledge.recap_text import render_recap
from reader.app.knowledge.story_outline import OPENING, story_outline
from reader.app.pages.page_lookup import page_label
from reader.cli.main import main
from reader.config import ChatConfig, Config
from reader.domain.knowledge import PartSummary, Recap, SectionSummary
from reader.domain.models import Book, Chapter
from reader.services import Services
from reader.tui.app import ReaderApp
from reader.tui.screens.recap_screen import RecapScreen
from tests.fixtures_matter import LICENCE_WORDS
from tests.fixtures_parts import (
    CHAPTERS,
    LICENCE_TITLE,
    PARTS,
    SAILORS,
    TITLE,
    write_parts_epub,
    write_parts_text,
)
from tests.support import scripted_server as scripted
from tests.tui_helpers import wait_until

CITED = re.compile(r"\[p\. (\w+)\]")
CHAPTER_TITLES = [title for chapters in CHAPTERS for title in chapters]


def imported(path: Path, config: Config | None = None) -> tuple[Services, Book]:
    services = Services.open(config=config or Config())
    (outcome,) = services.importer.import_paths([path])
    assert outcome.book is not None, outcome.message
    return services, outcome.book


def story_sections(recap: Recap) -> list[tuple[str, list[str]]]:
    """(chapter title, titles of its parts) of each summarised chapter (opening pages left out)."""
    parts = {p.entry: p.title for p in recap.parts}
    return [(s.title, [parts[e] for e in s.parts]) for s in recap.sections if s.title != OPENING]


EXPECTED = [(title, [PARTS[i // 2]]) for i, title in enumerate(CHAPTER_TITLES)]


@pytest.mark.parametrize("flat_ncx", [False, True], ids=["nested-nav", "gutenberg-ncx"])
def test_the_recap_lists_chapters_under_their_parts_without_matter(tmp_path: Path, flat_ncx: bool) -> None:
    services, book = imported(write_parts_epub(tmp_path / "voyages.epub", flat_ncx=flat_ncx))
    recap = services.summaries_for().story_so_far(book.id, book.page_count)
    assert story_sections(recap) == EXPECTED
    assert [p.title for p in recap.parts] == list(PARTS)
    assert not any(s.title in PARTS for s in recap.sections)  # never a part as one summary
    assert not any(s.title in (TITLE, LICENCE_TITLE) for s in recap.sections)
    assert all(book.story_start <= s.start_page and s.end_page <= book.story_last for s in recap.sections)
    assert LICENCE_WORDS not in recap.text and "Project Gutenberg" not in recap.text
    for position, sailor in enumerate(SAILORS):  # each chapter's summary is of that chapter
        (section,) = [s for s in recap.sections if s.title == CHAPTER_TITLES[position] and sailor in s.text]
        assert all(other not in section.text for other in SAILORS if other != sailor)
    long, short = recap.sections[1], recap.sections[2]
    assert long.end_page - long.start_page >= 3 and len(CITED.findall(long.text)) >= 2
    assert len(CITED.findall(short.text)) == 1
    text = recap.text
    assert (
        text.index(f"## {PARTS[0]}") < text.index("### Chapter 1: Departure") < text.index(f"## {PARTS[1]}")
    )
    assert (
        text.index(f"## {PARTS[1]}")
        < text.index("### Chapter 1: The Storm")
        < text.index("### Chapter 2: Landfall")
    )


@pytest.mark.parametrize("heading", ["BOOK", "VOLUME"])
def test_a_plain_text_book_with_book_or_volume_headings_has_parts(tmp_path: Path, heading: str) -> None:
    services, book = imported(write_parts_text(tmp_path / "voyages.txt", heading))
    recap = services.summaries_for().story_so_far(book.id, book.page_count)
    assert [p.title for p in recap.parts] == [f"{heading} ONE", f"{heading} TWO"]
    parts = {p.entry: p.title for p in recap.parts}
    assert [(s.title, parts[s.parts[0]]) for s in recap.sections if s.title != OPENING] == [
        ("CHAPTER I", f"{heading} ONE"),
        ("CHAPTER II", f"{heading} ONE"),
        ("CHAPTER I", f"{heading} TWO"),
        ("CHAPTER II", f"{heading} TWO"),
    ]


def test_contents_as_war_and_peace_and_epilogues_give_parts() -> None:
    """Gutenberg's War and Peace NCX: BOOK TWO and the epilogues sit among BOOK ONE's chapters."""
    titles = [
        ("WAR AND PEACE", 0),
        ("BOOK ONE: 1805", 0),
        ("CHAPTER I", 1),
        ("CHAPTER II", 1),
        ("BOOK TWO: 1805", 1),
        ("CHAPTER I", 1),
        ("FIRST EPILOGUE: 1813 - 20", 1),
        ("CHAPTER I", 1),
        ("CHAPTER II", 1),
    ]
    chapters = [Chapter(i, title, i + 1, i + 1, level) for i, (title, level) in enumerate(titles)]
    outline = story_outline(chapters, 9, first=2)
    assert [(p.title, p.start_page, p.end_page) for p in outline.parts] == [
        ("BOOK ONE: 1805", 2, 4),
        ("BOOK TWO: 1805", 5, 6),
        ("FIRST EPILOGUE: 1813 - 20", 7, 9),
    ]
    assert [(s.title, s.parts) for s in outline.sections] == [
        (OPENING, (1,)),
        ("CHAPTER I", (1,)),
        ("CHAPTER II", (1,)),
        (OPENING, (4,)),
        ("CHAPTER I", (4,)),
        (OPENING, (6,)),
        ("CHAPTER I", (6,)),
        ("CHAPTER II", (6,)),
    ]
    plain = [Chapter(0, "Prologue", 1, 1), Chapter(1, "Chapter 1", 2, 3), Chapter(2, "Epilogue", 4, 4)]
    assert not story_outline(plain, 4).parts  # a prologue before numbered chapters is no part


def test_the_horizon_holds_in_a_chapter_in_progress(tmp_path: Path) -> None:
    services, book = imported(write_parts_epub(tmp_path / "voyages.epub"))
    chapters = {c.title: c for c in services.books.chapters(book.id)}
    departure = chapters["Chapter 1: Departure"]
    page = departure.start_page + 1
    recap = services.summaries_for().story_so_far(book.id, page)
    assert [p.title for p in recap.parts] == [PARTS[0]] and recap.parts[0].partial
    assert recap.parts[0].end_page == page
    last = recap.sections[-1]
    assert last.title == "Chapter 1: Departure" and last.partial and last.end_page == page
    assert all(int(label) <= page for label in CITED.findall(recap.text))
    assert f"pp. {departure.start_page}-{page} so far" in recap.text
    for later in (*SAILORS[1:], PARTS[1], "Doldrums", "Landfall"):
        assert later not in recap.text


@pytest.fixture
def server():
    with scripted.ScriptedServer() as running:
        yield running


def scripted_summary(request: dict[str, Any]) -> scripted.Reply:
    """What the scripted model says: which sailors the text names, cited on its first page."""
    system, user = (m["content"] for m in request["messages"])
    names = [s for s in SAILORS if s in user] or ["nobody"]
    page = (CITED.findall(user) or ["1"])[0]
    kind = {MAP_PROMPT: "Chapter", PART_PROMPT: "Part", RECAP_PROMPT: "Overview"}[system]
    return scripted.text(f"{kind} about {' and '.join(names)} [p. {page}].")


def test_with_a_model_parts_are_summarised_from_their_chapter_summaries_and_cached(
    tmp_path: Path, server: scripted.ScriptedServer
) -> None:
    config = Config(
        chat=ChatConfig(model="openai/scripted", api_base=server.base_url, timeout=10.0, retry_backoff=0.01)
    )
    services, book = imported(write_parts_epub(tmp_path / "voyages.epub"), config)
    server.script_chat(*[scripted.respond(scripted_summary) for _ in range(20)])
    recap = services.summaries_for().story_so_far(book.id, book.page_count)
    assert not recap.notes and recap.model == "openai/scripted"
    requests = server.chat_requests()
    systems = [r["messages"][0]["content"] for r in requests]
    assert systems.count(MAP_PROMPT) == 4  # the chapters, not the parts' title pages
    assert systems.count(PART_PROMPT) == 2 and systems[-1] == RECAP_PROMPT
    part_inputs = [
        r["messages"][1]["content"] for r in requests if r["messages"][0]["content"] == PART_PROMPT
    ]
    assert {text.count("Chapter about") for text in part_inputs} == {2}  # made of chapter summaries
    by_title = {p.title: p.text for p in recap.parts}
    assert by_title[PARTS[0]].startswith(f"Part about {SAILORS[0]} and {SAILORS[1]}")
    assert by_title[PARTS[1]].startswith(f"Part about {SAILORS[2]} and {SAILORS[3]}")
    assert recap.overview.startswith("Overview about")
    text = recap.text
    assert text.startswith(recap.overview)
    assert (
        text.index(f"## {PARTS[0]}") < text.index(by_title[PARTS[0]]) < text.index("### Chapter 1: Departure")
    )

    again = services.summaries_for().story_so_far(book.id, book.page_count)
    assert again.cached and again.text == recap.text and len(server.chat_requests()) == len(requests)
    services.db.conn.execute("DELETE FROM summaries WHERE scope = 'story'")
    rebuilt = services.summaries_for().story_so_far(book.id, book.page_count)
    assert rebuilt.text == recap.text and all(p.cached for p in rebuilt.parts)
    assert len(server.chat_requests()) == len(requests)  # chapters, parts and overview from the cache

    tool = story_so_far(
        BookKnowledge(services.xray, services.summaries_for(reuse_model=True)),
        book.id,
        book.page_count,
        lambda n: page_label(services.books.pages(book.id), n),
    )
    assert by_title[PARTS[1]] in tool.formatted_text and "### Chapter 2: Landfall" in tool.formatted_text


def test_recap_json_lists_parts_and_the_parts_of_each_chapter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    services, book = imported(write_parts_epub(tmp_path / "voyages.epub"))
    services.books.set_current_page(book.id, book.page_count)
    assert main(["recap", book.id[:8], "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    titles = {p["entry"]: p["title"] for p in data["parts"]}
    assert list(titles.values()) == list(PARTS)
    chapters = [
        (c["title"], [titles[e] for e in c["parts"]]) for c in data["chapters"] if c["title"] != OPENING
    ]
    assert chapters == EXPECTED


async def test_the_app_shows_the_recap_with_parts_over_chapters(tmp_path: Path) -> None:
    services, book = imported(write_parts_epub(tmp_path / "voyages.epub"))
    page = services.books.chapters(book.id)[5].start_page  # PART TWO's first chapter
    services.books.set_current_page(book.id, page)
    async with ReaderApp(services).run_test(size=(130, 40)) as pilot:
        await pilot.press("r")
        screen = pilot.app.screen
        assert isinstance(screen, RecapScreen)
        await wait_until(pilot, lambda: screen.recap is not None)
        assert screen.recap is not None and story_sections(screen.recap) == EXPECTED[:3]
        source = screen.query_one("#recap-text", Markdown).source
        assert source.index(f"## {PARTS[0]}") < source.index("### Chapter 2: The Doldrums")
        assert source.index(f"## {PARTS[1]}") < source.index("### Chapter 1: The Storm")
        assert "Landfall" not in source and SAILORS[3] not in source and "(page:" in source


def test_a_brief_recap_shortens_what_came_before_the_readers_part() -> None:
    def chapter(index: int, part: int, page: int) -> SectionSummary:
        text = f"First of {index} [p. {page}] second of {index} [p. {page}]"
        return SectionSummary(index, f"Chapter {index}", page, page, text, "extractive", parts=(part,))

    sections = [chapter(0, 10, 1), chapter(1, 10, 2), chapter(2, 20, 3), chapter(3, 20, 4)]
    parts = [PartSummary(10, "Part One", 1, 2), PartSummary(20, "Part Two", 3, 4, partial=True)]
    full = render_recap("", sections, parts, str)
    brief = render_recap("", sections, parts, str, brief=True)
    assert "second of 0" in full and "second of 0" not in brief and "First of 0 [p. 1]" in brief
    assert "second of 3" in brief and "## Part Two (pp. 3-4 so far)" in brief
    with_summary = [PartSummary(10, "Part One", 1, 2, "Part one in short [p. 2]."), parts[1]]
    brief = render_recap("Overview.", sections, with_summary, str, brief=True)
    assert brief.startswith("Overview.\n\n## Part One (pp. 1-2)\n\nPart one in short [p. 2].\n\n## Part Two")
    assert "Chapter 0" not in brief and "### Chapter 2 (p. 3)" in brief
