"""Finding a book from what the user typed: exact titles, id prefixes, fuzzy titles, no loose matches."""

from __future__ import annotations

import pytest

from reader.app.library.book_lookup import find_book
from reader.domain.errors import AmbiguousBookError, BookNotFoundError
from reader.domain.models import Book


def book(book_id: str, title: str) -> Book:
    return Book(book_id, title, "", "en", "md", f"/{title}.md", 10, 1, "synthetic", "2026-01-01")


LIBRARY = [
    book("91977fd3aa", "Labelled Book"),
    book("92143a9dbb", "Good Epub good.epub"),
    book("9b4d2dc4cc", "The Keeper of Gull Rock"),
    book("c0ffee00dd", "Pride and Prejudice"),
]


@pytest.mark.parametrize(
    ("query", "title"),
    [
        ("keper", "The Keeper of Gull Rock"),
        ("gull rock", "The Keeper of Gull Rock"),
        ("keeper of gul rock", "The Keeper of Gull Rock"),
        ("PRIDE", "Pride and Prejudice"),
        ("labelled book", "Labelled Book"),
        ("c0ff", "Pride and Prejudice"),
        ("92143", "Good Epub good.epub"),
    ],
)
def test_a_title_a_run_of_its_words_or_an_id_prefix_names_a_book(query: str, title: str) -> None:
    assert find_book(query, LIBRARY).title == title


@pytest.mark.parametrize("query", ["aes", "big", "ok", "war and peace", "harbour"])
def test_a_loose_overlap_of_letters_names_nothing(query: str) -> None:
    with pytest.raises(BookNotFoundError):
        find_book(query, LIBRARY)


def test_an_id_prefix_several_books_share_lists_them() -> None:
    with pytest.raises(AmbiguousBookError) as caught:
        find_book("9", LIBRARY)
    assert len(caught.value.candidates) == 3 and all(c.startswith("9") for c in caught.value.candidates)


def test_a_long_ambiguous_list_says_how_many_more() -> None:
    many = [book(f"{i:02d}aaaaaa", f"Harbour Tales {i}") for i in range(12)]
    with pytest.raises(AmbiguousBookError) as caught:
        find_book("harbour tales", many)
    assert len(caught.value.candidates) == 9 and caught.value.candidates[-1] == "and 4 more"


def authored(book_id: str, title: str, author: str) -> Book:
    return Book(book_id, title, author, "en", "txt", f"/{title}.txt", 10, 1, "synthetic", "2026-01-01")


SHELF = [
    authored("a1a1a1a1", "Frankenstein; Or, The Modern Prometheus", "Mary Wollstonecraft Shelley"),
    authored("b2b2b2b2", "The Adventures of Sherlock Holmes", "Arthur Conan Doyle"),
    authored("c3c3c3c3", "War and Peace", "Leo Tolstoy"),
    authored("d4d4d4d4", "Northern Tales", "Ann Writer"),
    authored("e5e5e5e5", "Les Misérables", "Victor Hugo"),
    authored("f6f6f6f6", "The War of the Worlds", "H. G. Wells"),
    authored("a7a7a7a7", "North and South", "Elizabeth Gaskell"),
    authored("b8b8b8b8", "Northanger Abbey", "Jane Austen"),
]


@pytest.mark.parametrize(
    ("query", "title"),
    [
        ("franken", "Frankenstein; Or, The Modern Prometheus"),
        ("sherl", "The Adventures of Sherlock Holmes"),
        ("tolst", "War and Peace"),
        ("miser", "Les Misérables"),
        ("doyle sherl", "The Adventures of Sherlock Holmes"),
        ("war peace", "War and Peace"),
        ("war wells", "The War of the Worlds"),
        ("northern", "Northern Tales"),
        ("north", "North and South"),  # the whole word "north" beats the beginnings of longer words
        ("northa", "Northanger Abbey"),
    ],
)
def test_the_beginning_of_any_word_of_the_title_or_author_names_a_book(query: str, title: str) -> None:
    assert find_book(query, SHELF).title == title


def test_word_beginnings_several_books_share_list_them() -> None:
    with pytest.raises(AmbiguousBookError) as caught:
        find_book("nort", SHELF)
    listed = " ".join(caught.value.candidates)
    assert all(t in listed for t in ("Northern Tales", "North and South", "Northanger Abbey"))
    with pytest.raises(AmbiguousBookError) as caught:
        find_book("war", SHELF)
    assert len(caught.value.candidates) == 2


def test_the_north_prefix_finds_northern_tales_when_it_is_the_only_one() -> None:
    assert find_book("North", SHELF[:4]).title == "Northern Tales"
    with pytest.raises(BookNotFoundError):
        find_book("xyz", SHELF)
