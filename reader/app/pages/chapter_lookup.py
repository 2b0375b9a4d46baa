"""Which chapter a reader means by "3", "III", "Chapter 3", "#3" or a title, for every chapter lookup.

A number means the chapter's own number ("Chapter 3", "CHAPTER III.", "3.", "III"), never its place
in the contents: "#3" is the third contents entry. Anything else is matched against the titles. In a
book whose parts each restart their numbering (War and Peace: "BOOK TWO: 1805" > "CHAPTER I"), a
bare number prefers the chapter in the part the reader is in, then the latest one started before
their page, and the choice says so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from reader.app.text.title_match import best_title
from reader.domain.models import Chapter

CHAPTER = "chapter"
_KINDS = {
    "chapter": CHAPTER,
    "chap": CHAPTER,
    "ch": CHAPTER,
    "stave": CHAPTER,
    "canto": CHAPTER,
    "part": "part",
    "book": "book",
    "volume": "volume",
    "vol": "volume",
}
"""Words that name a numbered entry, and the kind each means ("chap." is a chapter, "vol." a volume)."""
_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen"
).split()
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_ORDINALS = (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
    "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
).split()
_ROMAN = re.compile(r"^m{0,4}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$", re.IGNORECASE)
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_NUMBER = r"\d{1,4}|[ivxlcdm]{1,9}|[a-z]+(?:-[a-z]+)?"
_KIND = r"(?P<kind>chapter|chap|ch|stave|canto|part|book|volume|vol)\.?"
_QUERY = re.compile(rf"^\s*(?:{_KIND}\s*)?(?P<number>{_NUMBER})\s*[.:)]?\s*$", re.IGNORECASE)
"""What a reader types for a numbered entry: "3", "III", "three", "Chapter 3", "ch. iii", "Part 2"."""
_TITLE_WITH_KIND = re.compile(rf"^\W*{_KIND}\s+(?:the\s+)?(?P<number>{_NUMBER})\b", re.IGNORECASE)
"""A title that names its number: "Chapter 3: The Storm", "CHAPTER III.", "Book Two: 1806"."""
_TITLE_BARE = re.compile(
    r"^\W*(?:(?P<number>\d{1,4})(?:\s*$|[.:)](?!\d)|\s+(?=[^\W\d]))|(?P<roman>[IVXLCDM]{1,9})(?:\s*$|[.:)](?!\w)))"
)
"""A title that starts with its number: "3.", "III", "III. The Storm", "12 The Gale" (not "3.1 Scope",
not the "I" of "I Remember")."""
_TITLE_WORD = re.compile(r"^\W*(?P<number>[a-z]+(?:-[a-z]+)?)\W*$", re.IGNORECASE)
"""A title that is a number word: "ONE", "Twenty-One"."""
_INDEX = re.compile(r"^\s*#\s*(\d+)\s*$")


@dataclass(frozen=True)
class ChapterChoice:
    """The chapter a query named, and a note when a bare number had to pick one of several."""

    chapter: Chapter
    note: str = ""


def number_value(token: str) -> int | None:
    """The number `token` writes: "12", "xii", "twelve", "twenty-one", "third"; None for other words."""
    token = token.strip().lower()
    if token.isdigit():
        return int(token)
    if token in _UNITS:
        return _UNITS.index(token)
    if token in _ORDINALS:
        return _ORDINALS.index(token) + 1
    if token in _TENS:
        return _TENS[token]
    tens, _, unit = token.partition("-")
    if tens in _TENS and unit in _UNITS[1:10]:
        return _TENS[tens] + _UNITS.index(unit)
    if token and _ROMAN.match(token):
        values = [_ROMAN_VALUES[ch] for ch in token]
        return sum(-v if v < nxt else v for v, nxt in zip(values, [*values[1:], 0], strict=True))
    return None


@lru_cache(maxsize=8192)
def own_number(title: str) -> tuple[str, int] | None:
    """The kind and number a contents entry gives itself: ("chapter", 3) for "Chapter 3: The Storm",
    "CHAPTER III." or "3."; ("book", 2) for "BOOK TWO: 1805"; None for "The Storm"."""
    if match := _TITLE_WITH_KIND.match(title):
        number = number_value(match.group("number"))
        return None if number is None else (_KINDS[match.group("kind").lower()], number)
    if match := _TITLE_BARE.match(title):
        number = number_value(match.group("number") or match.group("roman"))
        return None if number is None else (CHAPTER, number)
    if (match := _TITLE_WORD.match(title)) and not _ROMAN.match(match.group("number")):
        number = number_value(match.group("number"))
        return None if number is None else (CHAPTER, number)
    return None


def asked_number(query: str) -> tuple[str, int] | None:
    """The kind and number a reader's query names ("3", "III", "chapter three", "Part 2"), else None."""
    match = _QUERY.match(query)
    if match is None:
        return None
    number = number_value(match.group("number"))
    if number is None:
        return None
    kind = match.group("kind")
    return (_KINDS[kind.lower()] if kind else CHAPTER), number


def contents_index(query: str) -> int | None:
    """N for "#N" (the N-th entry of the contents), else None."""
    match = _INDEX.match(query)
    return int(match.group(1)) if match else None


def _part_of(chapters: Sequence[Chapter], position: int) -> Chapter | None:
    """The part holding the entry at `position`: the nearest entry before it that is a level up, or at
    its level but not a numbered chapter ("BOOK TWO: 1805" before "CHAPTER I")."""
    level = chapters[position].level
    for earlier in reversed(chapters[:position]):
        if earlier.level < level:
            return earlier
        if earlier.level == level and (own_number(earlier.title) or ("", 0))[0] != CHAPTER:
            return earlier
    return None


def _current_part(chapters: Sequence[Chapter], current_page: int) -> Chapter | None:
    """The part the reader is in: the part of the last entry starting by `current_page` (or that entry
    when it is not a numbered chapter itself)."""
    positions = [i for i, c in enumerate(chapters) if c.start_page <= current_page]
    if not positions:
        return None
    here = positions[-1]
    if (own_number(chapters[here].title) or ("", 0))[0] != CHAPTER:
        return chapters[here]
    return _part_of(chapters, here)


def numbered_chapter(
    kind: str, number: int, chapters: Sequence[Chapter], current_page: int = 0
) -> ChapterChoice | None:
    """The entry whose own number is `number` (of `kind`), preferring the reader's part when several are."""
    found = [i for i, c in enumerate(chapters) if own_number(c.title) == (kind, number)]
    if not found:
        return None
    if len(found) == 1:
        return ChapterChoice(chapters[found[0]])
    current = _current_part(chapters, current_page)
    mine = [i for i in found if current is not None and _part_of(chapters, i) == current]
    started = [i for i in found if chapters[i].start_page <= current_page]
    chosen = mine[0] if mine else started[-1] if started else found[0]
    chapter = chapters[chosen]
    part = _part_of(chapters, chosen)
    why = "the part you are in" if mine else "the latest one you have reached" if started else "the first"
    where = f" of {part.title}" if part is not None and part.start_page <= max(current_page, 1) else ""
    note = (
        f"{len(found)} parts have a {kind} {number}; took {chapter.title}{where}, {why} "
        "(#N picks the N-th entry of the contents)."
    )
    return ChapterChoice(chapter, note)


def find_chapter(
    query: str, chapters: Sequence[Chapter], current_page: int = 0, *, titles_until: int | None = None
) -> ChapterChoice | None:
    """The chapter `query` names: "#N" (the N-th contents entry), a number (the chapter's own), then a
    title (fuzzy; only among chapters starting by `titles_until` when given: later titles may spoil)."""
    if (index := contents_index(query)) is not None:
        return ChapterChoice(chapters[index - 1]) if 1 <= index <= len(chapters) else None
    if (asked := asked_number(query)) is not None and _numeral(query):
        return numbered_chapter(*asked, chapters, current_page)
    if asked is not None and (choice := numbered_chapter(*asked, chapters, current_page)) is not None:
        return choice
    pool = [c for c in chapters if titles_until is None or c.start_page <= titles_until]
    best = best_title(query, {c.index: c.title for c in pool})
    return next((ChapterChoice(c) for c in pool if c.index == best), None)


def _numeral(query: str) -> bool:
    """Whether a numbered query writes its number in figures or Roman numerals ("3", "Chapter III"): it
    then names a number only, never a title (a chapter may be called "One")."""
    match = _QUERY.match(query)
    token = match.group("number") if match else ""
    return token.isdigit() or bool(token and _ROMAN.match(token))


def no_chapter(query: str, chapters: Sequence[Chapter]) -> str:
    """Why `query` names no chapter, and what to type instead."""
    if (index := contents_index(query)) is not None:
        return f"There is no entry #{index}; the contents have {len(chapters)}."
    if (asked := asked_number(query)) is not None:
        kind, number = asked
        hint = f"; #{number} is entry {number} of the contents" if 1 <= number <= len(chapters) else ""
        return f"No {kind} is numbered {number}{hint}."
    return f"No chapter matches '{query}'."
