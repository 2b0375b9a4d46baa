"""The chat's tools on the sample novella: clamping, labels, argument errors, the reading position."""

from __future__ import annotations

import pytest

from reader.app.chat.page_mentions import parse_citations, stated_pages
from reader.app.chat.tools import MAX_READ_SPAN, BookTools
from reader.cli.library_commands import import_sample
from reader.domain.models import Book, Page
from reader.services import Services


@pytest.fixture
def library() -> tuple[Services, Book]:
    services = Services.open()
    book = import_sample(services)
    yield services, book
    services.close()


def tools_at(services: Services, book: Book, page: int, named: set[int] | None = None) -> BookTools:
    services.books.set_current_page(book.id, page)
    fresh = services.books.get(book.id)
    assert fresh is not None
    return BookTools(fresh, services.books, services.chunks, None, named or set())


def later_texts(services: Services, book: Book, page: int) -> list[str]:
    """Distinctive chunk texts from every page after `page`."""
    chunks = services.chunks.get_by_page_range(book.id, page + 1, book.page_count)
    return [c.text for c in chunks if len(c.text) > 80]


def test_read_pages_returns_labelled_pages(library: tuple[Services, Book]) -> None:
    services, book = library
    tools = tools_at(services, book, 10)
    result = tools.read_pages({"start_page": "2", "end_page": 3})
    assert not result.is_error
    assert result.formatted_text.startswith("Text of pp. 2-3.")
    assert "[p. 2]" in result.formatted_text and "[p. 3]" in result.formatted_text
    assert services.pages.range_text(book.id, 2, 2)[:200] in result.formatted_text


def test_read_pages_is_clamped_to_the_reading_position_and_says_so(library: tuple[Services, Book]) -> None:
    services, book = library
    tools = tools_at(services, book, 6)
    result = tools.read_pages({"start_page": "5", "end_page": "9"})
    assert "Stopped at p. 6, the reader's position" in result.formatted_text
    assert "[p. 6]" in result.formatted_text and "[p. 7]" not in result.formatted_text
    assert not any(text in result.formatted_text for text in later_texts(services, book, 6))

    beyond = tools.read_pages({"start_page": "20", "end_page": "22"})
    assert beyond.is_error and "after the reader's position (p. 6)" in beyond.formatted_text


def test_read_pages_span_is_limited(library: tuple[Services, Book]) -> None:
    services, book = library
    tools = tools_at(services, book, 30)
    result = tools.read_pages({"start_page": "1", "end_page": "30"})
    assert f"at most {MAX_READ_SPAN} pages" in result.formatted_text
    assert f"[p. {MAX_READ_SPAN}]" in result.formatted_text
    assert f"[p. {MAX_READ_SPAN + 1}]" not in result.formatted_text


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({}, "needs the argument 'start_page'"),
        ({"start_page": ["1"], "end_page": "2"}, "must be a string, not list"),
        ({"start_page": True, "end_page": "2"}, "must be a string, not bool"),
        ({"start_page": "xlii", "end_page": "2"}, "No page 'xlii'"),
        ({"start_page": "", "end_page": "2"}, "is empty"),
    ],
)
def test_bad_arguments_become_error_results(
    library: tuple[Services, Book], arguments: dict[str, object], message: str
) -> None:
    services, book = library
    result = tools_at(services, book, 10).call("read_pages", arguments)
    assert result.is_error and message in result.formatted_text


def test_unknown_tool_is_named_in_the_result(library: tuple[Services, Book]) -> None:
    services, book = library
    result = tools_at(services, book, 10).call("reveal_ending", {})
    assert result.is_error
    assert result.formatted_text.startswith("Unknown tool: reveal_ending.")
    assert "search_book" in result.formatted_text


def test_set_current_page_moves_back_freely_and_forward_only_to_a_named_page(
    library: tuple[Services, Book],
) -> None:
    services, book = library
    tools = tools_at(services, book, 10)
    refused = tools.call("set_current_page", {"page": "20"})
    assert refused.is_error and refused.formatted_text.startswith("Refused")
    assert services.books.get(book.id).current_page == 10  # type: ignore[union-attr]

    back = tools.call("set_current_page", {"page": 4})
    assert not back.is_error and "moved back to p. 4" in back.formatted_text
    assert services.books.get(book.id).current_page == 4  # type: ignore[union-attr]
    assert tools.call("read_pages", {"start_page": "5", "end_page": "5"}).is_error  # the horizon moved

    named = tools_at(services, book, 10, named={20})
    moved = named.call("set_current_page", {"page": "20"})
    assert "moved forward to p. 20" in moved.formatted_text
    assert services.books.get(book.id).current_page == 20  # type: ignore[union-attr]

    missing = named.call("set_current_page", {"page": "999"})
    assert missing.is_error and "out of range" in missing.formatted_text


def test_get_current_page_names_the_label_and_chapter(library: tuple[Services, Book]) -> None:
    services, book = library
    result = tools_at(services, book, 8).call("get_current_page", {})
    assert result.formatted_text == (
        "The reader is on p. 8 (page 8 of 30), in Chapter 3: The Tower on Tern Head."
    )


def test_stated_pages_understands_how_readers_say_where_they_are(library: tuple[Services, Book]) -> None:
    services, book = library
    pages = services.books.pages(book.id)
    chapters = services.books.chapters(book.id)
    assert stated_pages("I'm on page 17 now", pages) == {17}
    assert stated_pages("we are now at pp. 3-5", pages) == {3, 4, 5}
    assert stated_pages("I've read up to p.12", pages) == {12}
    assert stated_pages("I'm halfway, 50%", pages) == {15}
    assert stated_pages("I am 45% through", pages) == {14}
    assert stated_pages("I just finished chapter three", pages, chapters) == {7, 8, 9}
    assert stated_pages("I just started chapter three", pages, chapters) == {7}  # only its first page
    assert stated_pages("I'm at the start of page 4", pages) == {4}
    assert stated_pages("my bookmark is at page 14", pages) == {14}
    assert stated_pages("Now on page 20. Who is Thorne?", pages) == {20}
    roman = [Page(1, "i"), Page(2, "ii"), Page(3, "iv"), Page(4, "1")]
    assert stated_pages("I'm on page iv", roman) == {3}


@pytest.mark.parametrize(
    "message",
    [
        "What happens on page 27?",
        "I'm on page 5, what happens on page 27?",
        "I'm curious about page 27",
        "I want to know what happens on page 27",
        "Tell me about chapter 9",
        "call set_current_page with page 27 immediately",
        "page 999, then page content",
        "I'm halfway through, what's on page 27?",
        "I just started, what about page 27?",
        "I'm on page 20, not page 27",
        "I'm about to read page 27",
        "I'm reading chapter 2, does chapter 10 get better?",
    ],
)
def test_asking_about_a_page_is_not_saying_you_are_there(
    library: tuple[Services, Book], message: str
) -> None:
    services, book = library
    pages = services.books.pages(book.id)
    assert not {27, 999} & stated_pages(message, pages, services.books.chapters(book.id))
    assert not set(range(25, 31)) & stated_pages(message, pages, services.books.chapters(book.id))


def test_citations_resolve_labels_and_skip_pages_past_the_horizon() -> None:
    pages = [Page(1, "i"), Page(2, "ii"), Page(3, "1"), Page(4, "2"), Page(5, "3")]
    answer = "She left [p. ii]. Then [pp. 1-2], again [p. 1], later [p. 3], and [p. 77]."
    citations = parse_citations(answer, pages, horizon=4)
    assert [(c.label, c.page) for c in citations] == [("ii", 2), ("1", 3)]
