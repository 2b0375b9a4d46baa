"""Finding a book from what the user typed: an exact title, an id prefix, the beginnings of words of its
title or author ("franken", "tolst"), else a fuzzy title."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from reader.app.text.title_match import TITLE_CUTOFF, WHOLE_WORDS, prefix_match, title_score
from reader.domain.errors import AmbiguousBookError, BookNotFoundError
from reader.domain.models import Book

if TYPE_CHECKING:
    from reader.domain.ports import BookRepository

_MARGIN = 8
"""Titles scoring within this much of the best are all candidates."""
_SHOWN = 8
"""Candidates listed when a query is ambiguous."""


def describe(book: Book) -> str:
    """A book as one short line: id prefix, title and author."""
    author = f" by {book.author}" if book.author else ""
    return f"{book.short_id} {book.title}{author}"


def exactly_titled(query: str, titles: Mapping[str, str]) -> list[str]:
    """The ids of the books titled `query`, in any case."""
    wanted = query.strip().lower()
    return [book_id for book_id, title in titles.items() if title.lower() == wanted]


def find_in_library(query: str, books: BookRepository) -> Book:
    """`find_book`, reading the whole library only when no single title is `query` exactly (the usual
    `reader open "Title"` reads one book instead of every one: 0.3 ms instead of 20 with 1,000 books)."""
    exact = exactly_titled(query, books.titles())
    if len(exact) == 1 and (book := books.get(exact[0])) is not None:
        return book
    return find_book(query, books.list())


def find_book(query: str, books: Sequence[Book]) -> Book:
    """The one book `query` names: an exact title, an id prefix, the one book whose title and author
    have a word starting with each typed word ("sherl", "tolst war"), else the title it matches best.

    Raises:
        BookNotFoundError: nothing matches.
        AmbiguousBookError: several books match about equally well, or share the id prefix.
    """
    query = query.strip()
    if not books:
        raise BookNotFoundError("The library is empty; import a book first with `reader import PATH`.")
    if not query:
        raise BookNotFoundError("No book given; name one by title or id (see `reader list`).")
    lowered = query.lower()
    exact = exactly_titled(query, {b.id: b.title for b in books})
    if len(exact) == 1:
        return next(b for b in books if b.id == exact[0])
    by_id = [b for b in books if b.id.startswith(lowered)]
    if len(by_id) == 1:
        return by_id[0]
    if prefixed := by_word_prefix(query, books):
        if len(prefixed) == 1:
            return prefixed[0]
        raise AmbiguousBookError(query, _listing(prefixed))
    scored = sorted(
        ((title_score(query, b.title), i) for i, b in enumerate(books)), key=lambda pair: -pair[0]
    )
    scored = [(score, i) for score, i in scored if score >= TITLE_CUTOFF]
    if not scored and len(by_id) > 1:
        raise AmbiguousBookError(query, _listing(by_id))
    if not scored:
        raise BookNotFoundError(f"No book matches '{query}'; see `reader list` for titles and ids.")
    best = scored[0][0]
    close = [books[i] for score, i in scored if best - score <= _MARGIN]
    if len(close) == 1:
        return close[0]
    raise AmbiguousBookError(query, _listing(close))


def by_word_prefix(query: str, books: Sequence[Book]) -> list[Book]:
    """The books whose title and author have a word starting with each word of `query`; when some of
    them have each typed word whole ("north" in "North and South" beside "Northern Tales"), those."""
    ranked = [(prefix_match(query, f"{b.title} {b.author}"), b) for b in books]
    whole = [b for rank, b in ranked if rank == WHOLE_WORDS]
    return whole or [b for rank, b in ranked if rank]


def _listing(books: Sequence[Book]) -> list[str]:
    shown = [describe(b) for b in books[:_SHOWN]]
    if len(books) > _SHOWN:
        shown.append(f"and {len(books) - _SHOWN} more")
    return shown
