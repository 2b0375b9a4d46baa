"""Matching what a user typed against titles (books, chapters): a whole title or a run of its words."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

TITLE_CUTOFF = 80
"""How close (0-100) a query must be to a title, or to a run of its words, to name it."""


def title_score(query: str, title: str, *, typing: bool = False) -> float:
    """How well `query` names `title`: the whole title, or a run of as many of its words, typos allowed.

    "keper" names "The Keeper of Gull Rock" (one word, one typo), "gull rock" does too; "aes" names
    nothing in "Labelled Book", though a character-level partial match would say it does. With
    `typing`, a query that is still being typed also matches the beginning of a run ("keep" names
    "Keeper").
    """
    from rapidfuzz import fuzz, utils  # 15 ms to import: on the first match, not at start-up

    query, title = utils.default_process(query), utils.default_process(title)
    if not query or not title:
        return 0.0
    best = fuzz.ratio(query, title)
    words, wanted = title.split(), len(query.split())
    for size in {max(1, wanted - 1), wanted, wanted + 1}:
        for start in range(max(1, len(words) - size + 1)):
            window = " ".join(words[start : start + size])
            if 4 * len(window) >= 3 * len(query):  # "the" is no typo of "thief"
                best = max(best, fuzz.ratio(query, window))
            if typing and len(window) > len(query):
                best = max(best, fuzz.ratio(query, window[: len(query)]))
    return best


def best_title(query: str, titles: Mapping[K, str], cutoff: float = TITLE_CUTOFF) -> K | None:
    """The key of the title `query` names best, or None when none comes close enough."""
    best_key, best_score = None, cutoff
    for key, title in titles.items():
        score = title_score(query, title)
        if score >= best_score and (best_key is None or score > best_score):
            best_key, best_score = key, score
    return best_key
