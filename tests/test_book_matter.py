"""Front and back matter (Project Gutenberg's header and licence): readable, marked, and left out of the
X-Ray, recaps, default search and reading progress; chapter numbers mean the book's own chapters."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from reader.adapters.sqlite.book_repository import SqliteBookRepository
from reader.adapters.sqlite.connection import open_connection
from reader.adapters.sqlite.migrations import INDEX_VERSION, SCHEMA_VERSION, migrate
from reader.adapters.sqlite.search_index import SqliteSearchIndex
from reader.app.chat.knowledge_tools import BookKnowledge
from reader.app.chat.tools import BookTools
from reader.app.knowledge.story_outline import story_outline
from reader.cli.main import main
from reader.domain.models import Book, Chapter
from reader.domain.search import EmbeddingVector
from reader.services import Services
from reader.tui.app import ReaderApp
from reader.tui.widgets.page_header import PageHeader
from tests.fixtures_matter import LICENCE_WORDS, write_gutenberg_epub, write_gutenberg_text
from tests.tui_helpers import wait_until

CITED = re.compile(r"\[p\. (\w+)\]")


def imported(path: Path) -> tuple[Services, Book]:
    services = Services.open()
    (outcome,) = services.importer.import_paths([path])
    assert outcome.book is not None, outcome.message
    return services, outcome.book


@pytest.fixture
def text_book(tmp_path: Path) -> tuple[Services, Book]:
    return imported(write_gutenberg_text(tmp_path / "cliff-walk.txt"))


@pytest.fixture
def epub_book(tmp_path: Path) -> tuple[Services, Book]:
    return imported(write_gutenberg_epub(tmp_path / "cliff-walk.epub"))


def page(services: Services, book: Book, number: int) -> str:
    return services.pages.page_text(book, number).text


def at_page(services: Services, book: Book, number: int) -> Book:
    services.books.set_current_page(book.id, number)
    stored = services.books.get(book.id)
    assert stored is not None
    return stored


@pytest.mark.parametrize("kind", ["text", "epub"])
def test_the_story_pages_are_found_and_matter_stays_readable(
    kind: str, request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    services, book = request.getfixturevalue(f"{kind}_book")
    assert book.story_start > 1 and book.story_end is not None and book.story_end < book.page_count
    first_words = "CHAPTER I. The Harbour" if kind == "text" else "Chapter 1: The Harbour"
    assert page(services, book, book.story_start).startswith(first_words)
    assert "*** START OF THE PROJECT GUTENBERG EBOOK" in page(services, book, 1)
    assert "*** START OF" not in "".join(page(services, book, n) for n in book.story_pages)
    assert "chapter 4" in page(services, book, book.story_last)
    assert page(services, book, book.story_last + 1).startswith("*** END OF THE PROJECT GUTENBERG EBOOK")
    assert LICENCE_WORDS in page(services, book, book.page_count)
    assert [book.matter_at(n) for n in (1, book.story_start, book.page_count)] == ["front", None, "back"]

    assert main(["search-page", book.id[:8], "#1"]) == 0
    assert "Project Gutenberg" in capsys.readouterr().out
    assert main(["search-page", book.id[:8], f"#{book.page_count}", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["matter"] == "back" and LICENCE_WORDS in shown["text"] and shown["chapter"] is None


@pytest.mark.parametrize("kind", ["text", "epub"])
def test_the_xray_never_lists_the_licence(kind: str, request: pytest.FixtureRequest) -> None:
    services, book = request.getfixturevalue(f"{kind}_book")
    names = {entry.name for entry in services.xray.entries(book.id, book.page_count)}
    assert "Mina Harker" in names
    assert not {n for n in names if "Gutenberg" in n or "Foundation" in n or "Archive" in n}


def test_default_search_leaves_matter_out_and_matter_finds_it(
    text_book: tuple[Services, Book], capsys: pytest.CaptureFixture[str]
) -> None:
    services, book = text_book
    book = at_page(services, book, book.page_count)
    search = services.search
    assert not search.search(book.id, LICENCE_WORDS).results
    story = search.search(book.id, "Mina lighthouse", k=20).results
    assert story and all(book.story_start <= r.start_page and r.end_page <= book.story_last for r in story)
    with_matter = search.search(book.id, LICENCE_WORDS, matter=True).results
    assert with_matter and all(book.matter_at(r.start_page) == "back" for r in with_matter)
    assert not search.search(book.id, "Gutenberg", k=50).results
    assert not [b for b, r in search.search_all_books(LICENCE_WORDS) if r.results]
    assert [b.id for b, r in search.search_all_books(LICENCE_WORDS, matter=True)] == [book.id]

    assert main(["search", book.id[:8], LICENCE_WORDS]) == 0
    out = capsys.readouterr().out
    assert "No passages up to" in out and "--matter" in out
    assert main(["search", book.id[:8], LICENCE_WORDS, "--matter", "--json"]) == 0
    hits = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert hits and {hit["matter"] for hit in hits} == {"back"}


def test_a_reader_on_front_matter_gets_no_story_hits(text_book: tuple[Services, Book]) -> None:
    services, book = text_book
    book = at_page(services, book, book.story_start - 1)
    assert not services.search.search(book.id, "Project Gutenberg ebook").results
    assert services.search.search(book.id, "Project Gutenberg ebook", matter=True).results


def test_semantic_search_filters_the_story_inside_the_knn_query(text_book: tuple[Services, Book]) -> None:
    services, book = text_book
    chunks = services.chunks.get_by_page_range(book.id, 1, book.page_count)
    space = services.vectors.space("test/model", 4)
    vectors = [EmbeddingVector(c.id, [1.0, 0.0, 0.0, 0.0], c.start_page, c.end_page) for c in chunks]
    services.vectors.add(space, book.id, vectors)
    index = SqliteSearchIndex(services.db.conn)
    every = index.semantic(book.id, space, [1.0, 0.0, 0.0, 0.0], book.story_last, len(chunks))
    story = index.semantic(book.id, space, [1.0, 0.0, 0.0, 0.0], book.story_last, 3, book.story_start)
    assert any(h.start_page < book.story_start for h in every)
    assert len(story) == 3 and all(h.start_page >= book.story_start for h in story)


@pytest.mark.parametrize("kind", ["text", "epub"])
def test_the_recap_has_no_matter_section_and_cites_no_matter_page(
    kind: str, request: pytest.FixtureRequest
) -> None:
    services, book = request.getfixturevalue(f"{kind}_book")
    recap = services.summaries_for().story_so_far(book.id, book.page_count)
    assert len(recap.sections) == 4
    assert recap.sections[0].start_page == book.story_start
    assert all(book.story_start <= s.start_page <= s.end_page <= book.story_last for s in recap.sections)
    pages = {p.label: p.number for p in services.books.pages(book.id)}
    cited = [pages[label] for label in CITED.findall(recap.text)]
    assert cited and all(book.matter_at(number) is None for number in cited)
    assert "Gutenberg" not in recap.text


def test_a_recap_from_front_matter_says_the_story_has_not_begun(text_book: tuple[Services, Book]) -> None:
    services, book = text_book
    recap = services.summaries_for().story_so_far(book.id, 2)
    assert not recap.sections and not recap.text
    assert "front matter" in recap.notes[0] and f"p. {book.story_start}" in recap.notes[0]


def test_chapter_3_means_the_books_chapter_3_and_hash_3_the_third_entry(
    epub_book: tuple[Services, Book], capsys: pytest.CaptureFixture[str]
) -> None:
    services, book = epub_book
    assert services.books.chapters(book.id)[0].title == "The Cliff Walk"  # a title entry comes first
    at_page(services, book, book.story_last)
    assert main(["recap", book.id[:8], "--chapter", "3"]) == 0
    assert capsys.readouterr().out.startswith("Chapter 3: The Storm (pp.")
    assert main(["recap", book.id[:8], "--chapter", "#3"]) == 0
    assert capsys.readouterr().out.startswith("Chapter 2: The Letter (pp.")
    assert main(["recap", book.id[:8], "--chapter", "Chapter III"]) == 0
    assert capsys.readouterr().out.startswith("Chapter 3: The Storm (pp.")
    assert main(["recap", book.id[:8], "--chapter", "the cliff walk"]) == 1
    assert "front matter" in capsys.readouterr().err
    assert main(["recap", book.id[:8], "--chapter", "7"]) == 1
    assert "No chapter 7 in this book" in capsys.readouterr().err


def test_the_chat_chapter_summary_tool_uses_the_chapters_own_number(epub_book: tuple[Services, Book]) -> None:
    services, book = epub_book
    book = at_page(services, book, book.story_last)
    knowledge = BookKnowledge(services.xray, services.summaries_for())
    tools = BookTools(book, services.books, services.chunks, services.search, knowledge=knowledge)
    result = tools.call("chapter_summary", {"chapter": "3"})
    assert not result.is_error and result.formatted_text.startswith("Summary of Chapter 3: The Storm")
    assert tools.call("chapter_summary", {"chapter": "#3"}).formatted_text.startswith("Summary of Chapter 2")
    assert not tools.call("search_book", {"query": LICENCE_WORDS}).results


def test_list_and_info_show_the_share_of_the_story(
    text_book: tuple[Services, Book], capsys: pytest.CaptureFixture[str]
) -> None:
    services, book = text_book
    story_pages = book.story_last - book.story_start + 1
    assert main(["set-page", book.id[:8], "50%"]) == 0
    out = capsys.readouterr().out
    assert "50% of the story" in out
    middle = book.story_start - 1 + round(story_pages / 2)
    assert services.books.get(book.id).current_page == middle  # type: ignore[union-attr]
    assert main(["list"]) == 0
    assert "at 50%)" in capsys.readouterr().out
    assert main(["info", book.id[:8]]) == 0
    out = capsys.readouterr().out
    assert "50% of the story" in out
    assert (
        f"story     pages {book.story_start}-{book.story_last}; front matter 1-{book.story_start - 1}" in out
    )
    assert main(["info", book.id[:8], "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["story_start"], data["story_end"], data["progress"]) == (
        book.story_start,
        book.story_last,
        50,
    )

    assert main(["set-page", book.id[:8], "#2"]) == 0
    assert "front matter), 0% of the story" in capsys.readouterr().out
    assert main(["list"]) == 0
    assert "at 0%)" in capsys.readouterr().out
    assert main(["set-page", book.id[:8], f"#{book.page_count}"]) == 0
    assert main(["list"]) == 0
    assert "at 100%)" in capsys.readouterr().out


async def test_the_page_header_marks_front_and_back_matter(text_book: tuple[Services, Book]) -> None:
    services, book = text_book
    book = at_page(services, book, book.page_count)
    async with ReaderApp(services, book_id=book.id).run_test(size=(140, 36)) as pilot:
        app = pilot.app

        def position() -> str:
            return app.query_one(PageHeader).line.position

        await wait_until(pilot, lambda: app.session is not None and position() != "")
        assert position().startswith(f"back matter · p. {book.page_count}") and position().endswith("100%")
        assert app.query_one(PageHeader).line.title.plain == book.title  # not in the last chapter
        await pilot.press("g", "#", "1", "enter")
        await wait_until(pilot, lambda: "front matter" in position())
        assert position().startswith("front matter · p. 1") and "0%" in position()
        await pilot.press("g", *"Chapter 3", "enter")
        await wait_until(pilot, lambda: "matter" not in position())
        assert app.session is not None and app.session.number == 8
        assert app.query_one(PageHeader).line.title.plain.endswith("CHAPTER III. The Storm")


def test_a_library_from_schema_5_keeps_its_books_readable(tmp_path: Path) -> None:
    import sqlean

    path = tmp_path / "old.db"
    old = sqlean.connect(str(path), isolation_level=None)
    migrate(old, target=5)
    book_id = "cd" * 32
    old.execute(
        "INSERT INTO books (id, title, format, source_path, page_count, current_page, index_version, imported_at) "
        "VALUES (?, 'Old Book', 'txt', '/x', 2, 2, 2, '2026-01-01')",
        (book_id,),
    )
    old.executemany(
        "INSERT INTO pages (book_id, number, label) VALUES (?, ?, ?)", [(book_id, 1, "1"), (book_id, 2, "2")]
    )
    old.executemany(
        "INSERT INTO chunks (id, book_id, chunk_index, start_page, end_page, text) VALUES (?, ?, ?, ?, ?, ?)",
        [
            ("c0", book_id, 0, 1, 1, "The licence of old words."),
            ("c1", book_id, 1, 2, 2, "The keeper's lamp."),
        ],
    )
    old.close()

    conn = open_connection(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 6
    repository = SqliteBookRepository(conn)
    book = repository.get(book_id)
    assert book is not None and (book.story_start, book.story_end, book.story_pages) == (1, None, range(1, 3))
    assert book.matter_at(1) is None and book.story_progress(2) == 1.0
    assert [b.id for b in repository.stale(INDEX_VERSION)] == [
        book_id
    ]  # `reader reindex` brings it up to date
    conn.close()
    services = Services.open(path)
    assert "licence" in services.pages.page_text(book, 1).text
    assert services.search.search(book_id, "licence").results


def test_sections_are_clamped_to_the_story_and_matter_entries_dropped() -> None:
    chapters = [
        Chapter(0, "Contents", 2, 3),
        Chapter(1, "Chapter 1", 4, 6),
        Chapter(2, "Chapter 2", 7, 12),
    ]
    sections = [(s.title, s.start_page, s.end_page) for s in story_outline(chapters, 12, 3, 10).sections]
    assert sections == [("Opening pages", 3, 3), ("Chapter 1", 4, 6), ("Chapter 2", 7, 10)]
    assert [(s.start_page, s.end_page) for s in story_outline([], 25, 4, 23).sections] == [(4, 13), (14, 23)]
