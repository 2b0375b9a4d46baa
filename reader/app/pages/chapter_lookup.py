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
from functools import cache, lru_cache

from reader.domain.models import Chapter
from reader.domain.numbering import is_roman, number_value

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
_NUMBER = r"\d{1,4}|[ivxlcdm]{1,9}|[a-z]+(?:-[a-z]+)?"
_KIND = r"(?P<kind>chapter|chap|ch|stave|canto|part|book|volume|vol)\.?"

PATH_MARK = " › "
"""Between a part's title and its chapter's, where the numbering restarts in each part."""
_TITLE_WITH_KIND = re.compile(rf"^\W*{_KIND}\s+(?:the\s+)?(?P<number>{_NUMBER})\b", re.IGNORECASE)
"""A title that names its number: "Chapter 3: The Storm", "CHAPTER III.", "Book Two: 1806"."""
_TITLE_BARE = re.compile(
    r"^\W*(?:(?P<number>\d{1,4})(?:\s*$|[.:)](?!\d)|\s+(?=[^\W\d]))|(?P<roman>[IVXLCDM]{1,9})(?:\s*$|[.:)](?!\w)))"
)
"""A title that starts with its number: "3.", "III", "III. The Storm", "12 The Gale" (not "3.1 Scope",
not the "I" of "I Remember")."""
_TITLE_WORD = re.compile(r"^\W*(?P<number>[a-z]+(?:-[a-z]+)?)\W*$", re.IGNORECASE)
"""A title that is a number word: "ONE", "Twenty-One"."""


@cache
def _query() -> re.Pattern[str]:
    """What a reader types for a numbered entry: "3", "III", "three", "Chapter 3", "ch. iii", "Part 2",
    "Chapter the Third". Compiled when a reader first asks (the contents' own titles need only the
    patterns above, and the first page's header is drawn with those: these took 2 ms more of it)."""
    return re.compile(rf"^\s*(?:{_KIND}\s*)?(?:the\s+)?(?P<number>{_NUMBER})\s*[.:)]?\s*$", re.IGNORECASE)


@cache
def _index() -> re.Pattern[str]:
    """ "#3": the third entry of the contents."""
    return re.compile(r"^\s*#\s*(\d+)\s*$")


@cache
def _part_separator() -> re.Pattern[str]:
    return re.compile(rf"\s*(?:{PATH_MARK.strip()}|>|,|;|/)\s*")


@cache
def _part_then_chapter() -> re.Pattern[str]:
    """A part and a chapter in it: "Book Ten, Chapter III", "BOOK TEN: 1812 › CHAPTER III", "book 10 ch 3"."""
    return re.compile(
        r"^\s*(?P<part>(?:book|part|volume|vol)\.?\s+\S+)\s+(?P<chapter>(?:chapter|chap|ch)\.?\s+.+)$",
        re.IGNORECASE,
    )


@dataclass(frozen=True)
class ChapterChoice:
    """The chapter a query named, and a note when a bare number had to pick one of several."""

    chapter: Chapter
    note: str = ""


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
    if (match := _TITLE_WORD.match(title)) and not is_roman(match.group("number")):
        number = number_value(match.group("number"))
        return None if number is None else (CHAPTER, number)
    return None


def asked_number(query: str) -> tuple[str, int] | None:
    """The kind and number a reader's query names ("3", "III", "chapter three", "Part 2"), else None."""
    match = _query().match(query)
    if match is None:
        return None
    number = number_value(match.group("number"))
    if number is None:
        return None
    kind = match.group("kind")
    return (_KINDS[kind.lower()] if kind else CHAPTER), number


def contents_index(query: str) -> int | None:
    """N for "#N" (the N-th entry of the contents), else None."""
    match = _index().match(query)
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
    kind: str, number: int, chapters: Sequence[Chapter], current_page: int = 0, *, until: int | None = None
) -> ChapterChoice | None:
    """The entry whose own number is `number` (of `kind`), preferring the reader's part when several are;
    with `until`, one starting by that page when any does (a recap: the latest CHAPTER III read)."""
    found = numbered(kind, number, chapters)
    if until is not None:
        found = [i for i in found if chapters[i].start_page <= until] or found
    if not found:
        return None
    if len(found) == 1:
        return ChapterChoice(chapters[found[0]])
    current = _current_part(chapters, current_page)
    mine = [i for i in found if current is not None and _part_of(chapters, i) == current]
    started = [i for i in found if chapters[i].start_page <= current_page]
    chosen = mine[0] if mine else started[-1] if started else found[0]
    why = "the part you are in" if mine else "the latest one you have reached" if started else "the first"
    name = chapter_name(chapters, chosen, reached=max(current_page, 1))
    return ChapterChoice(chapters[chosen], f"{len(found)} parts have a {kind} {number}; took {name}, {why}.")


def numbered(kind: str, number: int, chapters: Sequence[Chapter]) -> list[int]:
    """The positions of the entries numbered `number` of `kind` ("CHAPTER III" of every part)."""
    return [i for i, c in enumerate(chapters) if own_number(c.title) == (kind, number)]


def chapter_name(chapters: Sequence[Chapter], position: int, *, reached: int | None = None) -> str:
    """The entry at `position` as a reader can tell it apart: its title, after its part's where other
    parts have an entry of the same number ("BOOK TEN: 1812 › CHAPTER III"). With `reached`, a part
    starting after that page is not named (its title may tell what is to come)."""
    chapter = chapters[position]
    number = own_number(chapter.title)
    if number is None or len(numbered(*number, chapters)) < 2:
        return chapter.title
    part = _part_of(chapters, position)
    if part is None or (reached is not None and part.start_page > reached):
        return chapter.title
    return f"{part.title}{PATH_MARK}{chapter.title}"


def chapter_names(chapters: Sequence[Chapter]) -> dict[int, str]:
    """`chapter_name` of every entry, by its index (the page header names the chapter on screen so)."""
    counts: dict[tuple[str, int], int] = {}
    for chapter in chapters:
        if (number := own_number(chapter.title)) is not None:
            counts[number] = counts.get(number, 0) + 1
    names = {}
    for position, chapter in enumerate(chapters):
        number = own_number(chapter.title)
        part = _part_of(chapters, position) if number is not None and counts[number] > 1 else None
        names[chapter.index] = f"{part.title}{PATH_MARK}{chapter.title}" if part else chapter.title
    return names


def find_chapter(
    query: str, chapters: Sequence[Chapter], current_page: int = 0, *, titles_until: int | None = None
) -> ChapterChoice | None:
    """The chapter `query` names: "#N" (the N-th contents entry), a part and a chapter in it ("Book Ten,
    Chapter III", the header's "BOOK TEN: 1812 › CHAPTER III"), a number (the chapter's own), then a
    title (fuzzy; only among chapters starting by `titles_until` when given: later titles may spoil)."""
    if (index := contents_index(query)) is not None:
        return ChapterChoice(chapters[index - 1]) if 1 <= index <= len(chapters) else None
    wanted = query.strip().casefold()
    if not any(c.title.strip().casefold() == wanted for c in chapters):  # a title with a comma is a title
        for part, chapter in _part_and_chapter(query):
            if (choice := _chapter_in_part(part, chapter, chapters, current_page, titles_until)) is not None:
                return choice
    return _find_one(query, chapters, current_page, titles_until)


def _find_one(
    query: str, chapters: Sequence[Chapter], current_page: int, titles_until: int | None
) -> ChapterChoice | None:
    """`find_chapter` for a query naming one entry: a number, else a title. Of entries titled alike
    (a contents page's entry and the chapter itself), the latest one started by `current_page`."""
    if (asked := asked_number(query)) is not None and _numeral(query):
        return numbered_chapter(*asked, chapters, current_page, until=titles_until)
    if (
        asked is not None
        and (choice := numbered_chapter(*asked, chapters, current_page, until=titles_until)) is not None
    ):
        return choice
    from reader.app.text.title_match import TITLE_CUTOFF, title_score  # off the app's first page

    pool = [c for c in chapters if titles_until is None or c.start_page <= titles_until]
    scores = [title_score(query, c.title) for c in pool]
    best = max(scores, default=0.0)
    if best < TITLE_CUTOFF:
        return None
    tied = [c for c, score in zip(pool, scores, strict=True) if score == best]
    reached = [c for c in tied if c.start_page <= current_page]
    return ChapterChoice(reached[-1] if reached else tied[0])


def _part_and_chapter(query: str) -> list[tuple[str, str]]:
    """Ways to read `query` as a part and a chapter in it, the header's "›" first."""
    cuts = sorted(_part_separator().finditer(query), key=lambda m: PATH_MARK.strip() not in m.group())
    found = [(query[: m.start()], query[m.end() :]) for m in cuts if m.start() > 0 and m.end() < len(query)]
    if match := _part_then_chapter().match(query):
        found.append((match.group("part"), match.group("chapter")))
    return found


def _chapter_in_part(
    part_query: str,
    chapter_query: str,
    chapters: Sequence[Chapter],
    current_page: int,
    titles_until: int | None,
) -> ChapterChoice | None:
    """The chapter `chapter_query` names inside the part `part_query` names ("Book Ten, Chapter III")."""
    part = _find_one(part_query, chapters, current_page, titles_until)
    if part is None:
        return None
    start = next(i for i, c in enumerate(chapters) if c.index == part.chapter.index)
    inside = [c for i, c in enumerate(chapters) if i > start and _part_of(chapters, i) == part.chapter]
    found = _find_one(chapter_query, inside, current_page, titles_until) if inside else None
    return ChapterChoice(found.chapter) if found is not None else None


def _numeral(query: str) -> bool:
    """Whether a numbered query writes its number in figures or Roman numerals ("3", "Chapter III"): it
    then names a number only, never a title (a chapter may be called "One")."""
    match = _query().match(query)
    token = match.group("number") if match else ""
    return token.isdigit() or is_roman(token)


def names_chapter(query: str) -> bool:
    """Whether `query` can only mean a chapter (or part): "Chapter 99", "Book Two", never a page label."""
    match = _query().match(query)
    return match is not None and match.group("kind") is not None and asked_number(query) is not None


def no_chapter(query: str, chapters: Sequence[Chapter], *, entries: bool = True) -> str:
    """Why `query` names no chapter, and what the book has instead. With `entries`, "#N" means the N-th
    entry of the contents (recaps); without, it is a page and is not suggested (`g`, `set-page`)."""
    if entries and (index := contents_index(query)) is not None:
        return f"There is no entry #{index}; the contents have {len(chapters)}."
    if (asked := asked_number(query)) is not None:
        kind, number = asked
        numbers = sorted(
            {n for c in chapters if (own := own_number(c.title)) and own[0] == kind for n in [own[1]]}
        )
        if not numbers:
            has = f"no entry of its contents is numbered as a {kind}"
        else:
            again = sum(own_number(c.title) == (kind, numbers[0]) for c in chapters) > 1
            has = (
                f"each part numbers its {kind}s anew, up to {numbers[-1]}"
                if again
                else f"its {kind}s are numbered {numbers[0]} to {numbers[-1]}"
            )
        hint = (
            f"; #{number} is entry {number} of the contents"
            if entries and 1 <= number <= len(chapters)
            else ""
        )
        return f"No {kind} {number} in this book: {has}{hint}."
    return f"No chapter matches '{query}'."
