"""What a book knows that bears on a question: which chapter each page is in, a chapter the question
names, and the other names of the people it names (from the concept map, up to the reader's page)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from reader.app.search.search_terms import STOPWORDS
from reader.domain.knowledge import ConceptEntry
from reader.domain.models import Chapter

MAX_ALIASES = 4
"""Other name words added for one question word."""
_CHAPTER = re.compile(r"\b(?:chapter|chap\.?|part|book|story|tale)\s+(\d+|[ivxlcdm]+)\b", re.IGNORECASE)
_NUMBERING = re.compile(r"^(?:(?:chapter|part|book|stave|letter|story)\s+)?(?:\d+|[ivxlcdm]+)\b[.:)\s-]*", re.IGNORECASE)
_NAME_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}


@dataclass(frozen=True)
class QuestionScope:
    """The chapter of each page, the pages of a chapter the question names, and name aliases."""

    chapter_of: Callable[[int], int]
    named: tuple[int, int] | None = None
    aliases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


def _number(token: str) -> int | None:
    if token.isdigit():
        return int(token)
    values = [_ROMAN.get(ch) for ch in token.lower()]
    if not values or None in values:
        return None
    total = 0
    for i, value in enumerate(values):
        assert value is not None
        following = values[i + 1] if i + 1 < len(values) else None
        total += -value if following is not None and following > value else value
    return total


def chapter_index(chapters: Sequence[Chapter]) -> Callable[[int], int]:
    """page -> the index of the (deepest) chapter it is in; -1 before the first chapter."""
    ordered = sorted(chapters, key=lambda c: (c.start_page, c.level))
    starts = [c.start_page for c in ordered]

    def chapter_of(page: int) -> int:
        at = bisect.bisect_right(starts, page) - 1
        return ordered[at].index if at >= 0 else -1

    return chapter_of


def named_chapter(question: str, chapters: Sequence[Chapter]) -> tuple[int, int] | None:
    """The page range of the chapter the question names, by number ("chapter 3", "part IV") or by a
    title of two words or more written out in it."""
    lowered = " ".join(question.lower().split())
    for chapter in chapters:
        title = " ".join(chapter.title.lower().split())
        if title.rsplit(" ", 1)[-1] not in lowered:  # most titles end in a word the question lacks: no regex
            continue
        title = _NUMBERING.sub("", title).strip()
        words = [w for w in title.split() if w not in ("the", "a", "an")]
        if len(words) >= 2 and len(title) >= 8 and re.search(rf"(?<!\w){re.escape(title)}(?!\w)", lowered):
            return chapter.start_page, chapter.end_page
    match = _CHAPTER.search(question)
    if match is None:
        return None
    number = _number(match.group(1))
    if number is None:
        return None
    for chapter in chapters:
        tokens = re.findall(r"\w+", chapter.title.lower())
        if any(_number(t) == number for t in tokens[:3]):
            return chapter.start_page, chapter.end_page
    top = [c for c in sorted(chapters, key=lambda c: c.start_page) if c.level == 0]
    if 1 <= number <= len(top):
        return top[number - 1].start_page, top[number - 1].end_page
    return None


def _name_words(name: str) -> list[str]:
    return [w.lower() for w in _NAME_WORD.findall(name) if len(w) > 2 and w.lower() not in STOPWORDS]


def names_someone(question: str) -> bool:
    """Whether a word inside the question (not its first) is capitalised, as names are."""
    return any(w[:1].isupper() and len(w) > 2 for w in _NAME_WORD.findall(question)[1:])


def asked_names(question: str) -> set[str]:
    """The question's capitalised words, lowercased: the names `name_aliases` looks up."""
    return {w.lower() for w in _NAME_WORD.findall(question) if w[:1].isupper() and len(w) > 2}


def name_aliases(question: str, entries: Sequence[ConceptEntry]) -> dict[str, tuple[str, ...]]:
    """For each capitalised question word that is part of a concept's name: the words of its other
    names ("Bolkonsky" -> "andrew", "prince")."""
    asked = asked_names(question)
    if not asked:
        return {}
    found: dict[str, dict[str, None]] = {}
    for entry in entries:
        names = [entry.name, *entry.aliases]
        blob = " ".join(names).lower()
        if not any(word in blob for word in asked):
            continue
        words = {w for name in names for w in _name_words(name)}
        for word in asked & words:
            others = found.setdefault(word, {})
            for other in sorted(words - asked):
                others.setdefault(other, None)
    return {word: tuple(list(others)[:MAX_ALIASES]) for word, others in found.items() if others}


def question_scope(
    question: str,
    chapters: Sequence[Chapter],
    entries: Sequence[ConceptEntry],
    chapter_of: Callable[[int], int] | None = None,
) -> QuestionScope:
    """The scope of one question in one book at the reader's page (`chapter_of`: `chapter_index(chapters)`
    when the caller keeps it)."""
    return QuestionScope(
        chapter_of or chapter_index(chapters), named_chapter(question, chapters), name_aliases(question, entries)
    )
