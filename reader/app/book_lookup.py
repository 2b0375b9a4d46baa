"""Finding a book from what the user typed: an id prefix or a fuzzy title."""

from __future__ import annotations

from collections.abc import Sequence

from rapidfuzz import fuzz, process, utils

from reader.domain.errors import AmbiguousBookError, BookNotFoundError
from reader.domain.models import Book

_STRONG = 90
_CUTOFF = 60
_MARGIN = 8


def describe(book: Book) -> str:
    """A book as one short line: id prefix, title and author."""
    author = f" by {book.author}" if book.author else ""
    return f"{book.short_id} {book.title}{author}"


def find_book(query: str, books: Sequence[Book]) -> Book:
    """The one book `query` names.

    Raises:
        BookNotFoundError: nothing matches.
        AmbiguousBookError: several books match about equally well.
    """
    query = query.strip()
    if not books:
        raise BookNotFoundError("The library is empty; import a book first with `reader import PATH`.")
    if not query:
        raise BookNotFoundError("No book given; name one by title or id (see `reader list`).")
    lowered = query.lower()
    by_id = [b for b in books if b.id.startswith(lowered)]
    if len(by_id) == 1:
        return by_id[0]
    exact = [b for b in books if b.title.lower() == lowered]
    if len(exact) == 1:
        return exact[0]
    scored = process.extract(
        query,
        {i: b.title for i, b in enumerate(books)},
        scorer=fuzz.WRatio,
        processor=utils.default_process,
        score_cutoff=_CUTOFF,
        limit=None,
    )
    if not scored:
        raise BookNotFoundError(f"No book matches '{query}'; see `reader list` for titles and ids.")
    best_score = scored[0][1]
    close = [books[key] for _, score, key in scored if best_score - score <= _MARGIN]
    if len(close) == 1 or (best_score >= _STRONG and len([s for _, s, _ in scored if s >= _STRONG]) == 1):
        return books[scored[0][2]]
    raise AmbiguousBookError(query, [describe(b) for b in close[:6]])
