"""Pages the reader says they are at, in their own words ("I'm on page 57", "p. iv", "chapter 3"), and page citations."""

from __future__ import annotations

import re
from collections.abc import Sequence

from reader.app.pages.chapter_lookup import CHAPTER, numbered_chapter
from reader.app.pages.page_lookup import resolve_page
from reader.domain.chat import Citation
from reader.domain.errors import PageNotFoundError
from reader.domain.models import Chapter, Page
from reader.domain.numbering import number_value

_PAGE_MENTION = re.compile(
    r"(?:\bpages?|\bpp?\.|\bpg\.?)\s*(#?[0-9]+|[ivxlcdm]+\b)(?:\s*(?:-|–|to|and)\s*(#?[0-9]+|[ivxlcdm]+\b))?",
    re.IGNORECASE,
)
_PERCENT_MENTION = re.compile(r"\b(\d{1,3}(?:\.\d+)?)\s*%")
_CHAPTER_MENTION = re.compile(r"\bchapter\s+([0-9]+|[ivxlcdm]+\b|[a-z]+)", re.IGNORECASE)
_CITATION = re.compile(r"\[(pp?)\.\s*([^\[\]\(\)]{1,40}?)\](?!\()")


def _resolve(token: str, pages: Sequence[Page], story: range | None = None) -> int | None:
    try:
        return resolve_page(token, pages, story=story)
    except PageNotFoundError:
        return None


_BE = r"(?:\s*['’]\s*(?:m|re)\b|\s+am\b|\s+are\b)"
_HAVE = r"(?:\s*['’]\s*ve\b|\s+have\b|\s+had\b)?"
_ADVERBS = (
    r"(?:\s+(?:just|now|currently|already|only|finally|still|about|almost|nearly|right|been|got|gotten|up))*"
)
_WHERE = r"(?:\s+(?:on|at|to|in|into|reading|through|past|halfway|starting|beginning|done\s+with))"
_DONE = r"\s+(?:read|reading|finished|finishing|reached|started|starting|begun|began|got\s+to|gotten\s+to|made\s+it\s+to)"
_POSITION_CUE = re.compile(
    rf"\b(?:i|we)(?:{_BE}{_ADVERBS}{_WHERE}+|{_HAVE}{_ADVERBS}{_DONE}{_WHERE}*)"
    rf"|\bmy\s+(?:bookmark|place|position|progress)\s+is{_ADVERBS}{_WHERE}*"
    rf"|(?:^|[.!?;]\s*)(?:now|currently)\s+(?:on|at|reading)\b",
    re.IGNORECASE,
)
"""Where a reader says where they are: "I'm on", "we are now at", "I've read up to", "I just finished",
"my bookmark is at", "Now on"."""
_BARE_CUE = re.compile(rf"\b(?:i|we){_BE}{_ADVERBS}", re.IGNORECASE)
""""I'm", "we are now": a position only when the page follows at once ("I'm 45% through")."""
_FILLER = r"(?:up|to|until|the|a|an|start|end|beginning|middle|top|bottom|of|now|about|around|roughly|exactly|right|just)"
_CUE_GAP = re.compile(rf"^[\s,:\-–—]*(?:{_FILLER}[\s,:\-–—]+){{0,3}}$", re.IGNORECASE)
"""What may stand between a cue and the page it states: a dash or comma and at most three filler words
("I'm at the start of page 4"); any other word ("what", "not", "read") ends the statement."""
_NO_GAP = re.compile(r"^[\s,:\-–—]*$")
_FINISHED = re.compile(r"\b(?:finished|done\s+with|read)\b", re.IGNORECASE)
"""A cue that says a whole chapter is read; otherwise a chapter stated is only its first page."""


def _mentions(
    text: str, pages: Sequence[Page], chapters: Sequence[Chapter], story: range | None, current_page: int
) -> list[tuple[int, set[int], bool]]:
    """Each page, range, percentage (of the story) or chapter mention: where it starts in `text`, its
    pages, and whether it is a chapter (its own number, in the reader's part: `numbered_chapter`)."""
    found: list[tuple[int, set[int], bool]] = []
    for match in _PAGE_MENTION.finditer(text):
        first = _resolve(match.group(1), pages)
        last = _resolve(match.group(2), pages) if match.group(2) else None
        if first is not None and last is not None and first <= last and last - first < 100:
            found.append((match.start(), set(range(first, last + 1)), False))
        else:
            found.append((match.start(), {n for n in (first, last) if n is not None}, False))
    for match in _PERCENT_MENTION.finditer(text):
        if (number := _resolve(f"{match.group(1)}%", pages, story)) is not None:
            found.append((match.start(), {number}, False))
    for match in _CHAPTER_MENTION.finditer(text):
        number = number_value(match.group(1))
        if number is not None and (choice := numbered_chapter(CHAPTER, number, chapters, current_page)):
            found.append(
                (match.start(), set(range(choice.chapter.start_page, choice.chapter.end_page + 1)), True)
            )
    return found


def stated_pages(
    text: str,
    pages: Sequence[Page],
    chapters: Sequence[Chapter] = (),
    *,
    story: range | None = None,
    current_page: int = 0,
) -> set[int]:
    """The pages the reader says they are at ("I'm on page 57", "I just finished chapter 3", "I'm 40%
    through": a share of the `story` pages).

    A page merely asked about ("what happens on page 80?") is not one of them: only these may move
    the reading position forward. A chapter number is the chapter's own ("Chapter 3"), in the part
    holding `current_page` when several parts have one.
    """
    cues = [(m.end(), _CUE_GAP, bool(_FINISHED.search(m.group()))) for m in _POSITION_CUE.finditer(text)]
    cues += [(m.end(), _NO_GAP, False) for m in _BARE_CUE.finditer(text)]
    stated: set[int] = set()
    for start, numbers, chapter in _mentions(text, pages, chapters, story, current_page):
        for end, gap, finished in cues:
            if end <= start and gap.match(text[end:start]):
                stated |= numbers if finished or not chapter or not numbers else {min(numbers)}
                break
    return stated


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
