"""The parts of a book the X-Ray refinement asks about one at a time: its smallest chapters.

Summaries go by top-level chapters; a contents whose one top entry holds the whole book (a "Book One"
holding every chapter) would make that one request, so here every chapter with no chapter inside it
counts, and a long one is cut into runs of pages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from reader.app.summaries import Section, sections_of
from reader.domain.models import Chapter

MAX_PAGES = 30
"""A chapter longer than this is asked about in runs of this many pages."""


def innermost(chapters: Sequence[Chapter]) -> list[Chapter]:
    """The chapters no other chapter nests in (by level and pages), as top-level entries."""
    ordered = sorted(chapters, key=lambda c: (c.start_page, c.level))
    leaves = []
    for i, chapter in enumerate(ordered):
        nested = any(
            other.level > chapter.level and chapter.start_page <= other.start_page <= chapter.end_page
            for other in ordered[i + 1 :]
            if other.start_page <= chapter.end_page
        )
        if not nested:
            leaves.append(replace(chapter, level=0))
    return leaves


def refine_sections(
    chapters: Sequence[Chapter], page_count: int, first: int = 1, last: int | None = None
) -> list[Section]:
    """The story's innermost chapters (with its opening pages before them), long ones cut into runs."""
    found: list[Section] = []
    for section in sections_of(innermost(chapters), page_count, first, last):
        if section.end_page - section.start_page < MAX_PAGES:
            found.append(Section(len(found), section.title, section.start_page, section.end_page))
            continue
        for start in range(section.start_page, section.end_page + 1, MAX_PAGES):
            end = min(section.end_page, start + MAX_PAGES - 1)
            found.append(Section(len(found), f"{section.title} (pages {start}-{end})", start, end))
    return found
