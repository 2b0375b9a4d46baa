"""Pages the reader names in their own words ("I'm on page 57", "p. iv", "chapter 3") and page citations."""

from __future__ import annotations

import re
from collections.abc import Sequence

from reader.app.page_lookup import resolve_page
from reader.domain.chat import Citation
from reader.domain.errors import PageNotFoundError
from reader.domain.models import Chapter, Page

_PAGE_MENTION = re.compile(
    r"(?:\bpages?|\bpp?\.|\bpg\.?)\s*(#?[0-9]+|[ivxlcdm]+\b)(?:\s*(?:-|–|to|and)\s*(#?[0-9]+|[ivxlcdm]+\b))?",
    re.IGNORECASE,
)
_PERCENT_MENTION = re.compile(r"\b(\d{1,3}(?:\.\d+)?)\s*%")
_CHAPTER_MENTION = re.compile(r"\bchapter\s+([0-9]+|[ivxlcdm]+\b|[a-z]+)", re.IGNORECASE)
_WORD_NUMBERS = {
    word: number
    for number, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
        "sixteen seventeen eighteen nineteen twenty".split()
    )
}
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_CITATION = re.compile(r"\[(pp?)\.\s*([^\[\]\(\)]{1,40}?)\](?!\()")


def _roman(text: str) -> int | None:
    values = [_ROMAN.get(ch) for ch in text.lower()]
    if not values or None in values:
        return None
    total = 0
    for value, following in zip(values, [*values[1:], 0], strict=True):
        assert value is not None and following is not None
        total += -value if value < following else value
    return total


def _chapter_number(token: str) -> int | None:
    token = token.lower()
    if token.isdigit():
        return int(token)
    return _WORD_NUMBERS.get(token) or _roman(token)


def _chapter_pages(number: int, chapters: Sequence[Chapter]) -> range | None:
    """The pages of the reader's "chapter N": a title saying so, else the N-th top-level entry."""
    pattern = re.compile(rf"^\s*(chapter\s+)?0*{number}\b", re.IGNORECASE)
    for chapter in chapters:
        if pattern.match(chapter.title):
            return range(chapter.start_page, chapter.end_page + 1)
    top = [c for c in chapters if c.level == min((c.level for c in chapters), default=0)]
    if 1 <= number <= len(top):
        return range(top[number - 1].start_page, top[number - 1].end_page + 1)
    return None


def _resolve(token: str, pages: Sequence[Page]) -> int | None:
    try:
        return resolve_page(token, pages)
    except PageNotFoundError:
        return None


def named_pages(text: str, pages: Sequence[Page], chapters: Sequence[Chapter] = ()) -> set[int]:
    """Every page number the message names: page labels and ranges, percentages, whole chapters."""
    found: set[int] = set()
    for match in _PAGE_MENTION.finditer(text):
        first = _resolve(match.group(1), pages)
        last = _resolve(match.group(2), pages) if match.group(2) else None
        if first is not None and last is not None and first <= last and last - first < 100:
            found.update(range(first, last + 1))
        else:
            found.update(n for n in (first, last) if n is not None)
    for match in _PERCENT_MENTION.finditer(text):
        if (number := _resolve(f"{match.group(1)}%", pages)) is not None:
            found.add(number)
    for match in _CHAPTER_MENTION.finditer(text):
        number = _chapter_number(match.group(1))
        if number is not None and (span := _chapter_pages(number, chapters)) is not None:
            found.update(span)
    return found


def parse_citations(answer: str, pages: Sequence[Page], horizon: int) -> tuple[Citation, ...]:
    """The distinct pages an answer cites ([p. 57], [pp. 57-58]) that exist and are not past `horizon`."""
    seen: dict[str, Citation] = {}
    for match in _CITATION.finditer(answer):
        for part in re.split(r"\s*[,;]\s*", match.group(2).strip()):
            label = re.split(r"\s*[-–]\s*", part, maxsplit=1)[0].strip()
            if not label or label in seen:
                continue
            number = next((p.number for p in pages if p.label == label), None)
            if number is None and label.isdigit() and 1 <= int(label) <= len(pages):
                number = int(label)
            if number is not None and number <= horizon:
                seen[label] = Citation(label, number)
    return tuple(seen.values())
