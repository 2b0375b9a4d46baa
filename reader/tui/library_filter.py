"""Fuzzy filtering of the library list: the query against a book's title and author, a run of their
words at a time and while it is still being typed ("keepr" and "keep" find The Keeper of Gull Rock)."""

from __future__ import annotations

from collections.abc import Sequence

from reader.app.text.title_match import title_score
from reader.domain.models import Book

FILTER_CUTOFF = 70
"""Looser than naming a book on the command line (80): the list shows every match, best first."""


def book_score(query: str, book: Book) -> float:
    """The best of the query against the title, the author, and both together in either order
    ("austen pride"); a query naming only the author does not outrank one naming the book too."""
    fields = [book.title, book.author]
    if len(query.split()) > 1:  # one word cannot name both
        fields += [f"{book.title} {book.author}", f"{book.author} {book.title}"]
    return max(title_score(query, text, typing=True) for text in fields if text.strip())


def filter_books(books: Sequence[Book], query: str) -> list[Book]:
    """Books matching `query` best first; all books in their order when the query is empty."""
    if not query.strip():
        return list(books)
    scored = [(book_score(query, book), index) for index, book in enumerate(books)]
    # stable: equal scores keep the library order (most recently read first)
    ranked = sorted((-score, index) for score, index in scored if score >= FILTER_CUTOFF)
    return [books[index] for _, index in ranked]
