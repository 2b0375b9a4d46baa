"""What the spoiler shield knows of a book's text, built once per book and good for every horizon.

For each run of QUOTE_WORDS words, the first page it occurs on (hashes in sorted arrays: about 12
bytes a run, so War and Peace takes under 8 MB); for each word, the first page it is written with a
capital, and whether the book ever writes it in lower case (then it is an ordinary word too).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Sequence

from reader.app.shield.words import APOSTROPHES, WORD, key_of

QUOTE_WORDS = 8
"""A quote this many words long from a later page holds an answer back."""


def gram_hash(keys: Sequence[str]) -> int:
    """The hash of a run of compared words (the same in the book's index and in an answer)."""
    return hash(" ".join(keys))


class BookTextIndex:
    """First pages of word runs and of capitalised words in one book's pages."""

    def __init__(
        self, hashes: array[int], pages: array[int], capital: dict[str, int], lower: frozenset[str]
    ) -> None:
        self._hashes = hashes
        self._pages = pages
        self._capital = capital
        self._lower = lower

    @classmethod
    def build(cls, pages: Iterable[tuple[int, str]]) -> BookTextIndex:
        """Index `pages` ((number, text) in page order); a run crossing a page break belongs to the later page."""
        first: dict[int, int] = {}
        seen: dict[str, int] = {}
        """Each word as written (case and accents kept) -> the first page writing it so."""
        keys_of: dict[str, str] = {}
        tail: list[str] = []
        for number, text in pages:
            raw = WORD.findall(text.translate(APOSTROPHES))
            note = seen.setdefault
            for word in raw:
                note(word, number)
            keys = tail + [keys_of[w] if w in keys_of else keys_of.setdefault(w, key_of(w)) for w in raw]
            remember = first.setdefault
            for i in range(len(keys) - QUOTE_WORDS + 1):
                remember(hash(" ".join(keys[i : i + QUOTE_WORDS])), number)
            tail = keys[-(QUOTE_WORDS - 1) :]
        capital: dict[str, int] = {}
        lower: set[str] = set()
        for word, number in seen.items():
            key = keys_of[word]
            if word[:1].isupper():
                capital[key] = min(number, capital.get(key, number))
            else:
                lower.add(key)
        hashes = array("q", sorted(first))
        return cls(hashes, array("i", map(first.__getitem__, hashes)), capital, frozenset(lower))

    def __len__(self) -> int:
        return len(self._hashes)

    def quote_page(self, keys: Sequence[str]) -> int | None:
        """The first page holding this run of QUOTE_WORDS compared words, or None."""
        wanted = gram_hash(keys)
        at = bisect_left(self._hashes, wanted)
        if at < len(self._hashes) and self._hashes[at] == wanted:
            return int(self._pages[at])
        return None

    def first_capital(self, key: str) -> int | None:
        """The first page writing this word with a capital (as a name, or opening a sentence)."""
        return self._capital.get(key)

    def ordinary(self, key: str) -> bool:
        """Whether the book also writes this word in lower case (so it is an ordinary word too)."""
        return key in self._lower
