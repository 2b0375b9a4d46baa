"""PDFs without an outline: chapters from the printed contents page or the headings, running heads and
page numbers kept out of the text, labels from the printed numbers, front matter before the first chapter."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader.adapters.extractors.pdf import PdfExtractor
from reader.adapters.extractors.pdf_contents import page_entries, split_entry
from reader.adapters.extractors.pdf_running_heads import printed_labels, strip_running_heads
from reader.domain.extracted import ExtractedBook
from reader.services import Services
from tests.fixtures_books import add_outline
from tests.fixtures_printed import BOOK_TITLE, CHAPTERS, body_line, last_words, write_printed_pdf

TITLES = [f"{numbering} {name}" for numbering, name in CHAPTERS]
LABELS = ["i", "ii", "iii", "iv", *map(str, range(1, 13))]


def chapters(book: ExtractedBook) -> list[tuple[str, int]]:
    return [(c.title, c.start_page) for c in book.chapters]


def assert_clean(book: ExtractedBook) -> None:
    """No page's text holds the running heads or the printed page numbers of a story page."""
    for number, page in enumerate(book.pages[4:], start=1):
        assert not page.text.startswith((BOOK_TITLE, *(name for _, name in CHAPTERS[1:]))) or any(
            c.start_page == number + 4 for c in book.chapters
        ), page.text[:60]
        assert page.text.endswith(last_words(*chapter_and_sheet(number))), page.text[-60:]


def chapter_and_sheet(number: int) -> tuple[int, int]:
    return (number - 1) // 3 + 1, number


def test_contents_page_gives_chapters_through_the_page_labels(tmp_path: Path) -> None:
    printed = write_printed_pdf(tmp_path / "alice.pdf")
    book = PdfExtractor().extract(printed.path)
    assert [p.label for p in book.pages] == LABELS
    assert chapters(book) == list(zip(TITLES, printed.starts, strict=True)) == [
        (TITLES[0], 5), (TITLES[1], 8), (TITLES[2], 11), (TITLES[3], 14),
    ]  # fmt: skip
    assert book.pages[4].text.startswith("CHAPTER I. Down the Rabbit-Hole Alice wandered")
    assert book.pages[7].text.startswith(
        "CHAPTER II. The Pool of Tears Alice"
    )  # its heading, not a running head
    assert_clean(book)


def test_wrong_contents_numbers_are_found_nearby_and_unconfirmed_entries_dropped(tmp_path: Path) -> None:
    printed = write_printed_pdf(
        tmp_path / "misprinted.pdf", contents_numbers=[1, 5, 7, 40], leader=" ....... "
    )
    book = PdfExtractor().extract(printed.path)
    # Chapter II's page is printed one too far (its running head is on that page): found on the page before.
    # Chapter IV names page 40, which the book does not have: no page opens with it near there, so it is left out.
    assert chapters(book) == [(TITLES[0], 5), (TITLES[1], 8), (TITLES[2], 11)]


def test_headings_give_chapters_when_there_is_no_contents_page(tmp_path: Path) -> None:
    printed = write_printed_pdf(tmp_path / "no-contents.pdf", contents=False)
    book = PdfExtractor().extract(printed.path)
    assert chapters(book) == list(zip(TITLES, printed.starts, strict=True))
    assert_clean(book)


def test_headings_win_over_a_contents_page_that_does_not_match_them(tmp_path: Path) -> None:
    listed = ["Of Rabbits", "Of Tears", "Of Races", "Of Bills"]
    printed = write_printed_pdf(tmp_path / "other-contents.pdf", contents_titles=listed)
    book = PdfExtractor().extract(printed.path)
    assert chapters(book) == list(zip(TITLES, printed.starts, strict=True))


def test_titles_set_larger_than_the_text_are_headings_without_contents(tmp_path: Path) -> None:
    stories = [("", "The Sisters"), ("", "An Encounter"), ("", "Araby")]
    printed = write_printed_pdf(
        tmp_path / "stories.pdf", chapters=stories, contents=False, running_heads=False
    )
    book = PdfExtractor().extract(printed.path)
    # The title page's title is large too, but it names the book: not a chapter.
    assert chapters(book) == [("The Sisters", 5), ("An Encounter", 8), ("Araby", 11)]


@pytest.mark.parametrize(
    "first_line", ["BOOK I. (Folio), the whale of the first rank", "CHAPTER II. and so on"]
)
def test_heading_words_in_the_body_font_are_not_headings(tmp_path: Path, first_line: str) -> None:
    stories = [("", "The Sisters"), ("", "An Encounter"), ("", "Araby")]
    path = tmp_path / "stories.pdf"
    printed = write_printed_pdf(
        path, chapters=stories, contents=False, running_heads=False, first_line=first_line
    )
    book = PdfExtractor().extract(printed.path)
    assert chapters(book) == [("The Sisters", 5), ("An Encounter", 8), ("Araby", 11)]


@pytest.mark.parametrize("footer", ["{}", "Page {}", "- {} -"])
def test_printed_numbers_label_pages_without_page_labels(tmp_path: Path, footer: str) -> None:
    printed = write_printed_pdf(
        tmp_path / "unlabelled.pdf", page_labels=False, footer=footer, front_numbers=True
    )
    book = PdfExtractor().extract(printed.path)
    assert [p.label for p in book.pages] == LABELS
    assert chapters(book) == list(zip(TITLES, printed.starts, strict=True))
    assert_clean(book)
    assert book.pages[1].text == "First printed for the tests. No rights reserved."  # its "ii" is gone


def test_page_numbers_inside_the_running_heads_label_the_pages(tmp_path: Path) -> None:
    # pypdf gives "Adventures Underground2": the number at the head's outer end, glued to the title.
    path = tmp_path / "heads.pdf"
    printed = write_printed_pdf(path, page_labels=False, footer=None, numbered_heads=True)
    book = PdfExtractor().extract(printed.path)
    assert [p.label for p in book.pages] == LABELS
    assert chapters(book) == list(zip(TITLES, printed.starts, strict=True))
    assert_clean(book)


def test_contents_numbers_resolve_without_labels_or_footers(tmp_path: Path) -> None:
    printed = write_printed_pdf(tmp_path / "bare.pdf", page_labels=False, footer=None, running_heads=False)
    book = PdfExtractor().extract(printed.path)
    assert [p.label for p in book.pages] == [str(n) for n in range(1, 17)]  # nothing printed to label them
    assert chapters(book) == list(zip(TITLES, printed.starts, strict=True))


def test_an_outline_is_still_what_gives_the_chapters(tmp_path: Path) -> None:
    printed = write_printed_pdf(tmp_path / "outlined.pdf")
    add_outline(printed.path, [("Opening", 4, 0), ("Middle", 10, 0), ("A Part of It", 11, 1)])
    book = PdfExtractor().extract(printed.path)
    assert [(c.title, c.start_page, c.level) for c in book.chapters] == [
        ("Opening", 5, 0), ("Middle", 11, 0), ("A Part of It", 12, 1),
    ]  # fmt: skip
    assert [p.label for p in book.pages] == LABELS
    assert_clean(book)


@pytest.mark.parametrize("labelled", [True, False])
def test_import_makes_the_front_matter_and_keeps_numbers_out_of_search(
    tmp_path: Path, labelled: bool
) -> None:
    path = tmp_path / "alice.pdf"
    printed = write_printed_pdf(path, page_labels=labelled, footer="Page {}", front_numbers=not labelled)
    services = Services.open()
    try:
        (outcome,) = services.importer.import_paths([printed.path])
        book = outcome.book
        assert book is not None, outcome.message
        assert book.story_start == 5 and book.story_last == 16
        assert [book.matter_at(n) for n in (1, 3, 4, 5)] == ["front", "front", "front", None]
        assert [p.label for p in services.books.pages(book.id)] == LABELS
        stored = [c.title for c in services.books.chapters(book.id)]
        assert stored == TITLES
        assert services.pages.page_text(book, 7).text.endswith(last_words(1, 3))
        chapter, sheet = 2, 5
        hits = services.search.search(book.id, f"lantern{chapter}x{sheet}x11", current_page=book.page_count)
        assert hits.results, "the page's last line is searchable"
        for result in hits.results:
            assert "Page 5" not in result.content and not result.content.rstrip().endswith(" 5")
            assert BOOK_TITLE not in result.content
        assert body_line(chapter, sheet, 11) in services.pages.page_text(book, 9).text
    finally:
        services.close()


def test_contents_lines_split_into_titles_and_numbers() -> None:
    assert split_entry("I. Loomings .... 3") == ("I. Loomings", "3")
    assert split_entry("Chapter I Down the Rabbit-Hole 1") == ("Chapter I Down the Rabbit-Hole", "1")
    assert split_entry("Preface.........vii") == ("Preface", "vii")
    assert split_entry("She went down the hole") == ("", "")
    entries = page_entries(
        ["Contents", "CHAPTER I", "Down the Rabbit-Hole ..... 1", "PART TWO", "CHAPTER II. The Pool 9"]
    )
    assert [(e.title, e.number, e.outer) for e in entries] == [
        ("CHAPTER I Down the Rabbit-Hole", "1", False),
        ("PART TWO", "", True),
        ("CHAPTER II. The Pool", "9", False),
    ]


def test_printed_labels_need_a_consistent_sequence() -> None:
    assert printed_labels(["", "", "iii", "", "1", "2", "", "4", "5"]) == [
        "i", "ii", "iii", "iv", "1", "2", "3", "4", "5",
    ]  # fmt: skip
    assert printed_labels(["", "7", "", "2", "", "", "", "", ""]) is None  # too few, and going back
    assert printed_labels(["", "", "", "9", "3", "4", "5", "6"]) is None  # going back


def test_a_line_in_a_short_page_is_not_a_running_head() -> None:
    pages = [f"Page {n} of the lamp.\nA second paragraph of text on this page." for n in range(1, 6)]
    edges = strip_running_heads(pages)
    assert all(len(lines) == 2 for lines in edges.lines)
