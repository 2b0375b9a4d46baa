"""Words as the spoiler shield compares them: accents and case forgiven, possessives dropped.

The same function reads the book's pages and the model's answer, so "Natásha's" in a page and
"Natasha" in an answer are the same word.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_COMBINING = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "ʼ": "'"})
_STARTERS = frozenset('.!?:;"“”(*#-–—>\n')
"""What before a word (ignoring spaces) makes it the start of a sentence or a line."""


def plain(text: str) -> str:
    """`text` without accents, with one kind of apostrophe; case kept."""
    text = text.translate(APOSTROPHES)
    if text.isascii():
        return text
    return _COMBINING.sub("", unicodedata.normalize("NFKD", text))


def word_key(word: str) -> str:
    """How a word is compared: lower case, without a possessive "'s"."""
    lowered = word.lower()
    return lowered[:-2] if lowered.endswith("'s") and len(lowered) > 2 else lowered


def key_of(word: str) -> str:
    """The compared form of one word as written."""
    return word_key(word if word.isascii() else plain(word))


def words(text: str) -> list[str]:
    """The compared words of `text`, in order."""
    return [word_key(w) for w in WORD.findall(plain(text))]


@dataclass(frozen=True)
class Word:
    """One word of an answer: its compared form, whether it is capitalised, and where it stands."""

    key: str
    capital: bool
    opens: bool
    """Whether it opens a sentence, a line or a quotation (a capital there says nothing)."""
    start: int
    end: int


def answer_words(text: str, offset: int = 0) -> list[Word]:
    """The words of `text` with case and position (start and end counted from `offset`)."""
    found = []
    flat = text.translate(APOSTROPHES)
    for match in WORD.finditer(flat):
        back = match.start() - 1
        while back >= 0 and flat[back] in " \t":
            back -= 1
        opens = back < 0 or flat[back] in _STARTERS
        word = plain(match.group())
        found.append(
            Word(word_key(word), word[:1].isupper(), opens, offset + match.start(), offset + match.end())
        )
    return found
