"""The parts of a book the X-Ray refinement asks about one at a time: its smallest chapters.

The story outline's leaf chapters (a "Book One" holding every chapter is never one request), a long
one cut into runs of pages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from reader.app.knowledge.story_outline import Section, story_outline
from reader.domain.models import Chapter

MAX_PAGES = 30
"""A chapter longer than this is asked about in runs of this many pages."""


def refine_sections(
    chapters: Sequence[Chapter], page_count: int, first: int = 1, last: int | None = None
) -> list[Section]:
    """The story's innermost chapters (with its opening pages before them), long ones cut into runs."""
    found: list[Section] = []
    for section in story_outline(chapters, page_count, first, last).sections:
        if section.end_page - section.start_page < MAX_PAGES:
            found.append(replace(section, index=len(found)))
            continue
        for start in range(section.start_page, section.end_page + 1, MAX_PAGES):
            end = min(section.end_page, start + MAX_PAGES - 1)
            found.append(Section(len(found), f"{section.title} (pages {start}-{end})", start, end))
    return found
