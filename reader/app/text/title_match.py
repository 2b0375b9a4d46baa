"""Matching what a user typed against titles (books, chapters): a whole title or a run of its words."""

from __future__ import annotations

from functools import lru_cache
from unicodedata import category, normalize

TITLE_CUTOFF = 80
"""How close (0-100) a query must be to a title, or to a run of its words, to name it."""


def title_score(query: str, title: str, *, typing: bool = False) -> float:
    """How well `query` names `title`: the whole title, or a run of as many of its words, typos allowed.

    "keper" names "The Keeper of Gull Rock" (one word, one typo), "gull rock" does too; "aes" names
    nothing in "Labelled Book", though a character-level partial match would say it does. With
    `typing`, a query that is still being typed also matches the beginning of a run ("keep" names
    "Keeper").
    """
    from rapidfuzz import fuzz, process  # 15 ms to import: on the first match, not at start-up

    query = _processed(query)
    whole, runs = _runs(title, len(query.split()))
    if not query or not whole:
        return 0.0
    best = fuzz.ratio(query, whole)
    long_enough = [run for run in runs if 4 * len(run) >= 3 * len(query)]  # "the" is no typo of "thief"
    if long_enough:
        best = max(best, process.extractOne(query, long_enough, scorer=fuzz.ratio)[1])
    if typing and (starts := [run[: len(query)] for run in runs if len(run) > len(query)]):
        best = max(best, process.extractOne(query, starts, scorer=fuzz.ratio)[1])
    return best


WHOLE_WORDS = 2
"""`prefix_match`: every typed word is a whole word of the text."""
PREFIXES = 1
"""`prefix_match`: every typed word starts a word of the text, some only partly ("franken")."""


def plain_words(text: str) -> list[str]:
    """The words of `text` in lower case without accents or punctuation ("Les Misérables" -> les, miserables)."""
    bare = "".join(ch for ch in normalize("NFKD", text.casefold()) if category(ch) != "Mn")
    return "".join(ch if ch.isalnum() else " " for ch in bare).split()


def prefix_match(query: str, text: str) -> int:
    """How `query` names `text` word by word: WHOLE_WORDS, PREFIXES, or 0 when some typed word starts
    no word of the text ("franken" and "tolst" start words of "Frankenstein" and "Leo Tolstoy"). Each
    typed word needs a word of its own ("war war" does not name "War and Peace")."""
    typed = plain_words(query)
    if not typed or sum(map(len, typed)) < 3:  # "a", "of": too short to name anything
        return 0
    available = plain_words(text)
    whole = True
    for word in sorted(typed, key=len, reverse=True):  # longest first: "the th" takes "the" for "the"
        exact = word in available
        match = word if exact else next((w for w in available if w.startswith(word)), None)
        if match is None:
            return 0
        available.remove(match)
        whole = whole and exact
    return WHOLE_WORDS if whole else PREFIXES


@lru_cache(maxsize=1024)
def _processed(text: str) -> str:
    from rapidfuzz import utils

    return str(utils.default_process(text))


@lru_cache(maxsize=16384)
def _runs(title: str, wanted: int) -> tuple[str, tuple[str, ...]]:
    """The title as matched (lower case, no punctuation) and its runs of `wanted` words, one fewer and
    one more (kept per title: the library filter asks again at every key press)."""
    whole = _processed(title)
    words = whole.split()
    runs = [
        " ".join(words[start : start + size])
        for size in sorted({max(1, wanted - 1), wanted, wanted + 1})
        for start in range(max(1, len(words) - size + 1))
    ]
    return whole, tuple(runs)
