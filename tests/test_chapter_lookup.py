"""Which chapter "3", "III", "Chapter 3", "#3" or a title means, shared by recaps, the chat and `g`;
percentages of the story."""

from __future__ import annotations

import pytest

from reader.app.chat.page_mentions import stated_pages
from reader.app.pages.chapter_lookup import chapter_names, find_chapter, no_chapter, number_value, own_number
from reader.app.pages.page_lookup import resolve_page, story_percent
from reader.domain.models import Book, Chapter, Page

TITLED = [
    Chapter(0, "The Cliff Walk", 1, 2),
    Chapter(1, "Chapter 1: The Harbour", 3, 4),
    Chapter(2, "Chapter 2: The Letter", 5, 6),
    Chapter(3, "Chapter 3: The Storm", 7, 8),
    Chapter(4, "Chapter 4: The Return", 9, 12),
]


def parts(nested: bool) -> list[Chapter]:
    """War and Peace's shape: two books of three chapters each, every book restarting at CHAPTER I."""
    level = 1 if nested else 0
    entries = [
        Chapter(0, "BOOK ONE: 1805", 1, 30 if nested else 1),
        Chapter(1, "CHAPTER I", 1, 10, level),
        Chapter(2, "CHAPTER II", 11, 20, level),
        Chapter(3, "CHAPTER III", 21, 30, level),
        Chapter(4, "BOOK TWO: 1806", 31, 60 if nested else 31),
        Chapter(5, "CHAPTER I", 31, 40, level),
        Chapter(6, "CHAPTER II", 41, 50, level),
        Chapter(7, "CHAPTER III", 51, 60, level),
    ]
    return entries


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Chapter 3: The Storm", ("chapter", 3)),
        ("CHAPTER III.", ("chapter", 3)),
        ("III. The Storm", ("chapter", 3)),
        ("3.", ("chapter", 3)),
        ("12 The Gale", ("chapter", 12)),
        ("Twenty-One", ("chapter", 21)),
        ("Chapter the Third", ("chapter", 3)),
        ("BOOK TWO: 1806", ("book", 2)),
        ("Part 2", ("part", 2)),
        ("3.1 Scope", None),
        ("I Remember", None),
        ("The Storm", None),
        ("Civil War", None),
    ],
)
def test_a_chapter_title_gives_its_own_number(title: str, expected: tuple[str, int] | None) -> None:
    assert own_number(title) == expected


def test_number_words_and_numerals() -> None:
    assert [number_value(t) for t in ("7", "vii", "XIV", "seven", "third", "forty-two")] == [
        7,
        7,
        14,
        7,
        3,
        42,
    ]
    assert number_value("dog") is None and number_value("") is None


def test_a_number_means_the_chapters_own_number_not_its_place_in_the_contents() -> None:
    for query in ("3", "III", "iii", "three", "Chapter 3", "chapter III", "ch. 3"):
        choice = find_chapter(query, TITLED, 12)
        assert choice is not None and choice.chapter.title == "Chapter 3: The Storm", query
    third = find_chapter("#3", TITLED, 12)
    assert third is not None and third.chapter.title == "Chapter 2: The Letter"
    title = find_chapter("the storm", TITLED, 12)
    assert title is not None and title.chapter.title == "Chapter 3: The Storm"


def test_titles_can_be_limited_to_those_already_reached() -> None:
    assert find_chapter("the return", TITLED, 6, titles_until=6) is None
    assert find_chapter("the return", TITLED, 6) is not None


def test_a_number_no_chapter_has_says_how_to_name_an_entry_by_place() -> None:
    assert find_chapter("5", TITLED, 12) is None
    assert find_chapter("#9", TITLED, 12) is None
    assert no_chapter("5", TITLED) == (
        "No chapter 5 in this book: its chapters are numbered 1 to 4; #5 is entry 5 of the contents."
    )
    assert no_chapter("Chapter 99", parts(True), entries=False) == (
        "No chapter 99 in this book: each part numbers its chapters anew, up to 3."
    )
    assert no_chapter("#9", TITLED) == "There is no entry #9; the contents have 5."
    unnumbered = [Chapter(0, "The Harbour", 1, 5), Chapter(1, "The Letter", 6, 9)]
    assert find_chapter("2", unnumbered, 9) is None  # no title fallback for a numeral


@pytest.mark.parametrize("nested", [True, False])
def test_in_a_book_of_parts_a_bare_number_prefers_the_readers_part(nested: bool) -> None:
    chapters = parts(nested)
    in_book_two = find_chapter("2", chapters, 45)
    assert in_book_two is not None and in_book_two.chapter.start_page == 41
    assert "the part you are in" in in_book_two.note and "BOOK TWO: 1806" in in_book_two.note
    in_book_one = find_chapter("chapter 2", chapters, 25)
    assert in_book_one is not None and in_book_one.chapter.start_page == 11
    assert "BOOK TWO" not in in_book_one.note  # a later part's title is not named
    part = find_chapter("book 2", chapters, 25)
    assert part is not None and part.chapter.title == "BOOK TWO: 1806" and not part.note
    entry = find_chapter("#6", chapters, 25)
    assert entry is not None and entry.chapter.start_page == 31


def test_resolve_page_finds_chapters_by_number_and_percentages_in_the_story() -> None:
    pages = [Page(n, str(n)) for n in range(1, 13)]
    story = range(3, 11)  # front matter 1-2, back matter 11-12
    assert resolve_page("Chapter 3", pages, TITLED, allow_chapters=True) == 7
    assert resolve_page("III", pages, TITLED, allow_chapters=True) == 7
    assert resolve_page("50%", pages, story=story) == 6
    assert resolve_page("0%", pages, story=story) == 3
    assert resolve_page("100%", pages, story=story) == 10
    assert resolve_page("50%", pages) == 6


def test_story_percent_matches_typed_percentages() -> None:
    book = Book("b" * 64, "T", "", "en", "txt", "/x", 12, 1, "synthetic", "2026", story_start=3, story_end=10)
    pages = [Page(n, str(n)) for n in range(1, 13)]
    assert [story_percent(book, n) for n in (1, 2, 3, 10, 11, 12)] == [0, 0, 12, 100, 100, 100]
    for percent in (25, 50, 75, 100):
        assert story_percent(book, resolve_page(f"{percent}%", pages, story=book.story_pages)) == percent


def test_the_chat_reads_chapter_numbers_and_percentages_like_the_rest() -> None:
    pages = [Page(n, str(n)) for n in range(1, 13)]
    assert stated_pages("I just finished chapter 3", pages, TITLED) == {7, 8}
    assert stated_pages("I just started chapter three", pages, TITLED) == {7}
    assert stated_pages("I'm 50% through", pages, TITLED, story=range(3, 11)) == {6}
    chapters = parts(nested=True)
    many = [Page(n, str(n)) for n in range(1, 61)]
    assert stated_pages("I just finished chapter 2", many, chapters, current_page=35) == set(range(41, 51))
    assert stated_pages("I just finished chapter 2", many, chapters, current_page=5) == set(range(11, 21))


def test_every_name_the_header_shows_leads_back_to_its_chapter() -> None:
    chapters = [
        Chapter(0, "PART I. A VOYAGE TO LILLIPUT.", 1, 20),
        Chapter(1, "CHAPTER I.", 1, 10, 1),
        Chapter(2, "CHAPTER II.", 11, 20, 1),
        Chapter(3, "PART III. A VOYAGE TO LAPUTA, BALNIBARBI, AND JAPAN.", 21, 50),
        Chapter(4, "CHAPTER I.", 21, 30, 1),
        Chapter(5, "CHAPTER II.", 31, 40, 1),
        Chapter(6, "In Which Owl, Piglet and Pooh Meet", 41, 50, 1),
    ]
    names = chapter_names(chapters)
    assert names[4] == "PART III. A VOYAGE TO LAPUTA, BALNIBARBI, AND JAPAN. › CHAPTER I."
    assert names[6] == "In Which Owl, Piglet and Pooh Meet"  # its number is its own: no part named
    for chapter in chapters:
        for page in (1, 45):
            choice = find_chapter(names[chapter.index], chapters, page)
            assert choice is not None and choice.chapter == chapter, (names[chapter.index], page)
    for query, start in (("Part III, Chapter 2", 31), ("part 3 chapter ii", 31), ("Part One / Chapter I", 1)):
        choice = find_chapter(query, chapters, 45)
        assert choice is not None and choice.chapter.start_page == start, query


def test_of_entries_titled_alike_the_one_reached_is_taken() -> None:
    chapters = [
        Chapter(0, "CHAPTER 3. The Storm", 2, 2),  # a contents list's line taken for an entry
        Chapter(1, "CHAPTER 1. The Harbour", 3, 5),
        Chapter(2, "CHAPTER 2. The Letter", 6, 8),
        Chapter(3, "CHAPTER 3. The Storm", 9, 12),
    ]
    assert find_chapter("chapter 3. the storm", chapters, 12).chapter.start_page == 9  # type: ignore[union-attr]
    assert find_chapter("chapter 3. the storm", chapters, 4).chapter.start_page == 2  # type: ignore[union-attr]
