"""One set of chapter forms for `g`, `reader recap --chapter` and `reader set-page`, in a book whose parts
restart their chapter numbers: the reader's part is preferred and named, a missing chapter says so, the
header names the part, and the spoiler shield never calls an earlier part's chapter "later"."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader.app.shield.book_index import BookTextIndex
from reader.app.shield.rules import ShieldIndex
from reader.app.shield.spoiler_shield import verdict
from reader.cli.main import main
from reader.domain.models import Book, Chapter, Page
from reader.services import Services
from reader.tui.app import ReaderApp
from reader.tui.screens.goto_screen import GoToScreen
from reader.tui.widgets.page_header import PageHeader
from tests.fixtures_parts import CHAPTERS, PARTS, SAILORS, write_parts_epub, write_parts_text
from tests.tui_helpers import wait_until

PART_ONE, PART_TWO = PARTS
SIZE = (140, 36)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def library(path: Path) -> tuple[Services, Book, list[Chapter]]:
    services = Services.open()
    (outcome,) = services.importer.import_paths([path])
    assert outcome.book is not None, outcome.message
    return services, outcome.book, services.books.chapters(outcome.book.id)


def entry(chapters: list[Chapter], title: str, after: str = "") -> Chapter:
    """The entry titled `title` (after the entry titled `after`, when given)."""
    start = next((i for i, c in enumerate(chapters) if c.title == after), -1) if after else -1
    return next(c for c in chapters[start + 1 :] if c.title == title)


@pytest.mark.parametrize("flat_ncx", [False, True], ids=["nested-nav", "gutenberg-ncx"])
def test_set_page_and_recap_take_the_same_chapter_forms_and_name_the_part(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flat_ncx: bool
) -> None:
    services, book, chapters = library(write_parts_epub(tmp_path / "voyages.epub", flat_ncx=flat_ncx))
    second_in_one = entry(chapters, CHAPTERS[0][1])
    first_in_two = entry(chapters, CHAPTERS[1][0])
    second_in_two = entry(chapters, CHAPTERS[1][1])
    assert run(capsys, "set-page", "voyages", str(first_in_two.start_page))[0] == 0
    for form in ("Chapter 2", "chapter two", "Chapter the Second", "ch. 2", "Chapter II"):
        code, out, err = run(capsys, "set-page", "voyages", form)
        assert code == 0, err
        assert f"page {second_in_two.start_page} " in out and f"{PART_TWO} › {CHAPTERS[1][1]}" in out, form
        assert "2 parts have a chapter 2" in err and "the part you are in" in err
        run(capsys, "set-page", "voyages", str(first_in_two.start_page))
    for form in ("Part One, Chapter 2", "part 1 chapter 2", f"{PART_ONE} › Chapter 2"):
        code, out, err = run(capsys, "set-page", "voyages", form)
        assert code == 0 and f"page {second_in_one.start_page} " in out, (form, out, err)
    code, out, err = run(capsys, "set-page", "voyages", "the doldrums")  # a title
    assert code == 0 and f"page {second_in_one.start_page} " in out
    code, out, err = run(capsys, "set-page", "voyages", "Chapter 99")
    assert code == 1 and "No chapter 99 in this book" in err and "No page" not in err
    assert services.books.get(book.id).current_page == second_in_one.start_page  # unchanged
    # recap --chapter reads the same forms up to the reading position (here in part one)
    for form in ("2", "Chapter 2", "Chapter the Second", "the doldrums"):
        code, out, err = run(capsys, "recap", "voyages", "--chapter", form)
        assert code == 0 and out.startswith(f"{PART_ONE} › {CHAPTERS[0][1]} (") and SAILORS[1] in out, form
    code, out, err = run(capsys, "recap", "voyages", "--chapter", "Chapter 99")
    assert code == 1 and "No chapter 99 in this book" in err
    # in part two before its chapter 2: a recap takes the chapter 2 read, and names its part
    run(capsys, "set-page", "voyages", str(first_in_two.start_page))
    code, out, err = run(capsys, "recap", "voyages", "--chapter", "Chapter 2")
    assert code == 0 and out.startswith(f"{PART_ONE} › {CHAPTERS[0][1]} (") and SAILORS[1] in out, err
    assert "starts after" not in err  # part two's chapter 2 is not read yet: not the one meant
    code, out, err = run(capsys, "search-page", "voyages", "Part Two, Chapter 1")
    assert code == 0 and SAILORS[2] in out


def test_plain_text_parts_restart_their_numbers_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    services, book, chapters = library(write_parts_text(tmp_path / "voyages.txt"))
    second_in_two = entry(chapters, "CHAPTER II", after="BOOK TWO")
    services.books.set_current_page(book.id, entry(chapters, "BOOK TWO").start_page)
    code, out, err = run(capsys, "set-page", "voyages", "Chapter II")
    assert code == 0 and f"page {second_in_two.start_page} " in out and "BOOK TWO › CHAPTER II" in out


async def test_go_to_prefers_the_part_on_screen_and_the_header_names_it(tmp_path: Path) -> None:
    services, book, chapters = library(write_parts_epub(tmp_path / "voyages.epub", flat_ncx=True))
    services.books.set_current_page(book.id, book.page_count)  # everything read: no spoiler question
    first_in_two = entry(chapters, CHAPTERS[1][0])
    second_in_one = entry(chapters, CHAPTERS[0][1])
    second_in_two = entry(chapters, CHAPTERS[1][1])
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await wait_until(pilot, lambda: app.session is not None)
        for typed, page, part in (
            (f"#{first_in_two.start_page}", first_in_two.start_page, PART_TWO),
            ("Chapter 2", second_in_two.start_page, PART_TWO),
            ("Part One, Chapter 2", second_in_one.start_page, PART_ONE),
            ("Chapter the Second", second_in_one.start_page, PART_ONE),
        ):
            await pilot.press("g", *typed, "enter")
            await pilot.pause()
            assert app.session.number == page, typed
            title = app.query_one(PageHeader).line.title.plain
            assert f"{part.split(':')[0]} › " in title, (typed, title)
        took = [n.message for n in app._notifications if "parts have a chapter 2" in n.message]
        assert took and f"{PART_TWO} › {CHAPTERS[1][1]}" in took[0] and "the part you are in" in took[0]
        await pilot.press("g", *"Chapter 99", "enter")
        assert isinstance(app.screen, GoToScreen)
        error = str(app.screen.query_one("#goto-error").content)
        assert error.startswith("No chapter 99 in this book"), error


def parts_book() -> tuple[Book, list[Chapter], list[tuple[int, str]]]:
    """Two books of three chapters each, every book restarting at CHAPTER I; pages 1-60."""
    chapters = [
        Chapter(0, "BOOK ONE: 1805", 1, 30),
        Chapter(1, "CHAPTER I", 1, 10, 1),
        Chapter(2, "CHAPTER II", 11, 20, 1),
        Chapter(3, "CHAPTER III", 21, 30, 1),
        Chapter(4, "BOOK TWO: 1806", 31, 60),
        Chapter(5, "CHAPTER I", 31, 40, 1),
        Chapter(6, "CHAPTER II", 41, 50, 1),
        Chapter(7, "CHAPTER III", 51, 60, 1),
        Chapter(8, "CHAPTER IV: The Burning of the Town", 51, 60, 1),
    ]
    texts = [(n, f"Page {n} tells of the road and the rain.") for n in range(1, 61)]
    book = Book("b" * 64, "Two Books", "Ann Writer", "en", "epub", "/x", 60, 35, "synthetic", "now")
    return book, chapters, texts


def test_the_shield_never_calls_a_chapter_of_an_earlier_part_later() -> None:
    book, chapters, texts = parts_book()
    pages = [Page(n, str(n)) for n in range(1, 61)]
    index = ShieldIndex(book, 35, BookTextIndex.build(texts), [], pages, chapters)  # in BOOK TWO, CHAPTER I
    for honest in (
        "Pierre went to the war in Chapter III.",  # BOOK ONE's CHAPTER III, read; BOOK TWO's is later
        "CHAPTER II tells of the road.",
        "Book One ends with the rain, and Book Two opens on the road.",
        "Chapters II and III are about the road.",
    ):
        assert not verdict(index, "", honest).held, honest
    for leak, start in (("In Chapter IV the town burns.", 51), ("Book Three is about Moscow.", None)):
        judged = verdict(index, "", leak)
        assert judged.held == (start is not None), leak
        if start is not None:
            assert judged.spoiler_page == start
    early = ShieldIndex(book, 5, BookTextIndex.build(texts), [], pages, chapters)  # in BOOK ONE, CHAPTER I
    assert verdict(early, "", "In Chapter III the road floods.").spoiler_page == 21
    assert verdict(early, "", "Book Two opens on the road.").spoiler_page == 31


def test_offline_ask_shows_passages_headed_by_an_earlier_parts_chapter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    services, book, chapters = library(write_parts_epub(tmp_path / "voyages.epub", flat_ncx=True))
    services.books.set_current_page(
        book.id, entry(chapters, CHAPTERS[1][0]).start_page
    )  # PART TWO, Chapter 1
    code, out, err = run(capsys, "ask", "voyages", f"What did {SAILORS[1]} count?", "-v")
    assert code == 0 and SAILORS[1] in out
    assert "held back" not in out and "later chapter" not in err, err
