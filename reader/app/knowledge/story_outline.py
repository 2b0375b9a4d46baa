"""The story's outline for recaps: its leaf chapters in reading order, grouped under their parts.

Parts come from the contents in two ways. A nested contents (EPUB nav or NCX, Markdown headings)
puts chapters inside the entry above them. A flat run of entries has part headings among the
chapters ("BOOK TWO: 1805", then "CHAPTER I", "CHAPTER II", ...; plain-text books, and Project
Gutenberg's War and Peace, whose NCX nests BOOK TWO and every later book inside BOOK ONE): a
heading that names a book, part or volume adopts the entries after it up to the next heading, and so
does an entry after which the chapter numbering starts again ("FIRST EPILOGUE" before "CHAPTER I") in
a book that has such headings. Front and back matter (outside the story's pages) are left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from reader.app.pages.chapter_lookup import CHAPTER, own_number
from reader.domain.models import Chapter

SECTION_PAGES = 10
"""Pages per section of a book without a table of contents."""
OPENING = "Opening pages"
"""The story's pages before its first chapter (or a part's before its first chapter)."""
PART_KINDS = frozenset(("book", "part", "volume"))
"""What a contents entry calls itself when it heads chapters ("BOOK TWO", "Part 3", "Volume I")."""


@dataclass(frozen=True)
class Section:
    """A leaf chapter (or a run of pages in a book without one) that summaries are made of."""

    index: int
    title: str
    start_page: int
    end_page: int
    entry: int | None = None
    """The contents entry (Chapter.index) it is; None for opening pages and page runs."""
    parts: tuple[int, ...] = ()
    """The contents entries of the parts it is in, outermost first."""

    @property
    def scope(self) -> str:
        """Its key in the summary cache."""
        return f"entry:{self.entry}" if self.entry is not None else f"pages:{self.start_page}"


@dataclass(frozen=True)
class Part:
    """A part heading over sections: its contents entry, title, pages and the parts it is in."""

    entry: int
    title: str
    start_page: int
    end_page: int
    parts: tuple[int, ...] = ()


@dataclass(frozen=True)
class StoryOutline:
    """The story's sections (leaves, in reading order) and the parts over them (in reading order)."""

    sections: tuple[Section, ...]
    parts: tuple[Part, ...] = ()


@dataclass
class _Node:
    chapter: Chapter
    children: list[_Node] = field(default_factory=list)


def _kind(chapter: Chapter) -> str:
    return (own_number(chapter.title) or ("", 0))[0]


def _numbered_one(chapter: Chapter) -> bool:
    return own_number(chapter.title) == (CHAPTER, 1)


def _tree(chapters: Sequence[Chapter]) -> list[_Node]:
    """The contents as a tree by level: an entry holds the deeper entries after it."""
    roots: list[_Node] = []
    stack: list[_Node] = []
    for chapter in chapters:
        node = _Node(chapter)
        while stack and stack[-1].chapter.level >= chapter.level:
            stack.pop()
        (stack[-1].children if stack else roots).append(node)
        stack.append(node)
    return roots


def _regroup(nodes: list[_Node]) -> list[_Node]:
    """Siblings with part headings among them, grouped: a heading adopts the entries after it.

    A part holding a heading of its own kind (BOOK ONE holding BOOK TWO) gives that heading and what
    follows it back to its own level. A heading that adopts nothing stays a chapter.
    """
    flat: list[_Node] = []
    for node in nodes:
        node.children = _regroup(node.children)
        kind = _kind(node.chapter)
        cut = next(
            (
                i
                for i, child in enumerate(node.children)
                if kind in PART_KINDS and _kind(child.chapter) == kind
            ),
            None,
        )
        flat.append(node)
        if cut is not None:
            flat.extend(node.children[cut:])
            del node.children[cut:]
    grouped: list[_Node] = []
    heading: _Node | None = None
    seen_part = False
    for position, node in enumerate(flat):
        following = flat[position + 1] if position + 1 < len(flat) else None
        kind = _kind(node.chapter)
        starts_part = not node.children and (
            kind in PART_KINDS
            or (
                seen_part
                and kind != CHAPTER
                and following is not None
                and not following.children
                and _numbered_one(following.chapter)
            )
        )
        if node.children or starts_part:
            seen_part = True
            heading = node if starts_part else None
            grouped.append(node)
        elif heading is not None:
            heading.children.append(node)
        else:
            grouped.append(node)
    return grouped


class _Builder:
    """Walks the grouped tree into sections and parts within the story's pages `first`..`last`."""

    def __init__(self, first: int, last: int) -> None:
        self.first = first
        self.last = last
        self.sections: list[Section] = []
        self.parts: list[Part] = []

    def leaf(self, title: str, start: int, end: int, entry: int | None, parts: tuple[int, ...]) -> None:
        start, end = max(start, self.first), min(end, self.last)
        if start <= end:
            self.sections.append(Section(len(self.sections), title, start, end, entry, parts))

    def walk(self, nodes: Sequence[_Node], parts: tuple[int, ...], end_limit: int) -> None:
        """Add `nodes` (and what they hold), none reaching past `end_limit`."""
        for position, node in enumerate(nodes):
            chapter = node.chapter
            if node.children:
                limit = end_limit
                if position + 1 < len(nodes):
                    limit = max(chapter.start_page, nodes[position + 1].chapter.start_page - 1)
                self.parts.append(Part(chapter.index, chapter.title, 0, 0, parts))
                inside = (*parts, chapter.index)
                first_child = node.children[0].chapter.start_page
                if chapter.start_page < first_child:
                    self.leaf(OPENING, chapter.start_page, first_child - 1, None, inside)
                self.walk(node.children, inside, limit)
            elif chapter.start_page >= self.first:
                self.leaf(
                    chapter.title, chapter.start_page, min(chapter.end_page, end_limit), chapter.index, parts
                )
            else:  # an entry of the front matter (contents) reaching into the story
                self.leaf(OPENING, chapter.start_page, min(chapter.end_page, end_limit), None, parts)


def _part_spans(parts: Sequence[Part], sections: Sequence[Section]) -> tuple[Part, ...]:
    """The parts with the pages of their sections (a part without one is left out)."""
    spans: dict[int, tuple[int, int]] = {}
    for section in sections:
        for entry in section.parts:
            start, end = spans.get(entry, (section.start_page, section.end_page))
            spans[entry] = (min(start, section.start_page), max(end, section.end_page))
    return tuple(Part(p.entry, p.title, *spans[p.entry], p.parts) for p in parts if p.entry in spans)


def story_outline(
    chapters: Sequence[Chapter], page_count: int, first: int = 1, last: int | None = None
) -> StoryOutline:
    """The leaf chapters within the story's pages `first`..`last` (default: every page), clamped to
    them and grouped under their parts, with the story's pages before the first chapter as an opening
    section; or 10-page runs in a book without contents. Pages between two chapters go to the first."""
    last = page_count if last is None else min(last, page_count)
    if chapters:
        builder = _Builder(first, last)
        builder.walk(_regroup(_tree(chapters)), (), page_count)
        found = sorted(builder.sections, key=lambda s: (s.start_page, s.index))
        if found:
            if found[0].start_page > first:
                found.insert(0, Section(0, OPENING, first, found[0].start_page - 1))
            sections: list[Section] = []
            for position, s in enumerate(found):
                end = (
                    max(s.end_page, found[position + 1].start_page - 1)
                    if position + 1 < len(found)
                    else s.end_page
                )
                sections.append(Section(position, s.title, s.start_page, end, s.entry, s.parts))
            return StoryOutline(tuple(sections), _part_spans(builder.parts, sections))
    runs = (
        Section(
            i,
            f"Pages {start}-{min(last, start + SECTION_PAGES - 1)}",
            start,
            min(last, start + SECTION_PAGES - 1),
        )
        for i, start in enumerate(range(first, last + 1, SECTION_PAGES))
    )
    return StoryOutline(tuple(runs))
