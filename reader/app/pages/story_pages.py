"""Which pages of a book are the story, and which are front or back matter.

Front matter: everything up to Project Gutenberg's START marker, then the title, dedication and
contents pages before the first chapter, and contents entries such as "Contents" or "Transcriber's
Note" at the start. Back matter: from Project Gutenberg's END marker (or "End of the Project
Gutenberg EBook") on, and entries such as "Index" after the last chapter of the story. A page that
holds both (a print page with the marker mid-page) is story, with only its story text kept for the
companion features.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from reader.domain.book_matter import closes_story, ends_story, matter_title, opens_matter, starts_story
from reader.domain.models import Chapter

SHORT_PAGE = 800
"""Characters under which a page before the first chapter is a title, dedication or epigraph page."""
LAST_PART = 0.1
"""The share of the story at its end where "THE END" ends it (publishers' advertisements follow)."""
CONTENTS_ENTRIES = 3
"""Chapter titles a page must list to be a contents page."""
_PARAGRAPHS = re.compile(r"\n\s*\n")
_NOT_WORD = re.compile(r"[\W_]+")


@dataclass(frozen=True)
class StoryPages:
    """The story's first and last page (inclusive) and each page's story text ("" for matter)."""

    first: int
    last: int
    texts: tuple[str, ...]


def _title_key(text: str) -> str:
    return " ".join(text.split()).casefold()


def find_story_pages(pages: Sequence[str], chapters: Sequence[Chapter], title: str = "") -> StoryPages:
    """The story's pages of a book whose page texts are `pages` (page 1 first)."""
    count = len(pages)
    texts = list(pages)
    first, last = 1, count
    for number in range(1, (count + 1) // 2 + 1):  # the last START marker in the first half
        paragraphs = _PARAGRAPHS.split(pages[number - 1])
        for index, paragraph in enumerate(paragraphs):
            if starts_story(paragraph):
                rest = "\n\n".join(paragraphs[index + 1 :]).strip()
                for earlier in range(first, number):
                    texts[earlier - 1] = ""
                texts[number - 1] = rest
                first = number if rest else number + 1
    for number in range(first, count + 1):  # the first END marker after the story began
        paragraphs = _PARAGRAPHS.split(pages[number - 1])
        at = next((i for i, p in enumerate(paragraphs) if ends_story(p)), None)
        if at is not None:
            kept = "\n\n".join(paragraphs[:at]).strip() if number >= first else ""
            texts[number - 1] = kept
            last = number if kept else number - 1
            for later in range(number + 1, count + 1):
                texts[later - 1] = ""
            break
    last = _the_end(texts, first, last)
    first, last = _trim_by_chapters(texts, chapters, title, max(1, first), min(count, last))
    for number in range(1, count + 1):
        if number < first or number > last:
            texts[number - 1] = ""
    if first > last:  # nothing but matter found: treat the whole book as story rather than hide it
        return StoryPages(1, count, tuple(pages))
    return StoryPages(first, last, tuple(texts))


def _the_end(texts: list[str], first: int, last: int) -> int:
    """The story's last page when "THE END" stands in its last part: the text after it is not story."""
    floor = max(first, last - int((last - first + 1) * LAST_PART))
    for number in range(last, floor - 1, -1):
        paragraphs = _PARAGRAPHS.split(texts[number - 1])
        at = max((i for i, p in enumerate(paragraphs) if closes_story(p)), default=None)
        if at is not None:
            texts[number - 1] = "\n\n".join(paragraphs[: at + 1])
            return number
    return last


def _trim_by_chapters(
    texts: Sequence[str], chapters: Sequence[Chapter], title: str, first: int, last: int
) -> tuple[int, int]:
    """Move `first` past title, dedication and contents pages and matter entries before the first
    chapter, and `last` before matter entries after the story's last chapter."""
    inside = [c for c in chapters if first <= c.start_page <= last]
    book_title = _plain(title)
    story = [c for c in inside if not matter_title(c.title) and _plain(c.title) != book_title]
    if not story:
        return first, last
    contents = _contents_page(texts, story, first)
    if contents is not None:  # a title page, a subtitle or a dedication named in the contents: front matter
        later = [c for c in story if c.start_page > contents]
        if later:
            first, story = contents + 1, later
    opening = min(c.start_page for c in story)
    closing = max(c.start_page for c in story)
    if opening > first and opening - first <= max(10, len(texts) // 20):
        first = _front_end(texts, story, first, opening)
    trailing = [c for c in inside if matter_title(c.title) and c.start_page > closing]
    if trailing:
        last = min(last, min(c.start_page for c in trailing) - 1)
    for number in range(closing + 1, last + 1):  # a transcriber's note or index after the last chapter
        paragraphs = _PARAGRAPHS.split(texts[number - 1].lstrip(), 1)
        if paragraphs and opens_matter(paragraphs[0]):
            return first, number - 1
    return first, last


def _plain(text: str) -> str:
    """A title without case, punctuation or spacing ("MOBY-DICK; or, THE WHALE." = "Moby Dick; Or, The Whale")."""
    return " ".join(_NOT_WORD.sub(" ", text).casefold().split())


def _contents_page(texts: Sequence[str], story: Sequence[Chapter], first: int) -> int | None:
    """The last page near the start that lists the chapters (a contents page), if there is one."""
    counts = Counter(_plain(c.title) for c in story)
    titles = [t for t, n in counts.items() if n == 1 and len(t) >= 4]  # "CHAPTER I" of every part names none
    found = None
    for number in range(first, min(len(texts), first + max(10, len(texts) // 50)) + 1):
        plain = f" {_plain(texts[number - 1])} "
        if sum(1 for t in titles if f" {t} " in plain) >= CONTENTS_ENTRIES:
            found = number
    return found


def _front_end(texts: Sequence[str], story: Sequence[Chapter], first: int, opening: int) -> int:
    """The first story page when pages `first`..`opening - 1` come before the first chapter: past
    the last contents or matter page and any short pages, but not past a page of prose."""
    titles = {_title_key(c.title) for c in story if len(c.title.strip()) >= 4}
    marked = first - 1
    for number in range(first, opening):
        text = texts[number - 1]
        lowered = _title_key(text)
        listed = sum(1 for t in titles if t in lowered)
        heads_matter = any(opens_matter(p) for p in _PARAGRAPHS.split(text))
        if listed >= CONTENTS_ENTRIES or heads_matter:
            marked = number
    for number in range(marked + 1, opening):
        if len(texts[number - 1].strip()) >= SHORT_PAGE:
            return marked + 1 if marked >= first else first
    return opening
