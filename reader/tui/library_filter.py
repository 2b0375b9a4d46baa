"""Fuzzy filtering of the library list with rapidfuzz."""

from __future__ import annotations

from collections.abc import Sequence

from rapidfuzz import fuzz, process, utils

from reader.domain.models import Book

FILTER_CUTOFF = 60


def filter_books(books: Sequence[Book], query: str) -> list[Book]:
    """Books matching `query` best first; all books in their order when the query is empty."""
    query = query.strip()
    if not query:
        return list(books)
    choices = {i: f"{book.title} {book.author}" for i, book in enumerate(books)}
    matches = process.extract(
        query,
        choices,
        scorer=fuzz.WRatio,
        processor=utils.default_process,
        score_cutoff=FILTER_CUTOFF,
        limit=None,
    )
    # stable: equal scores keep the library order (most recently read first)
    ranked = sorted(matches, key=lambda match: (-match[1], match[2]))
    return [books[index] for _, _, index in ranked]
