"""The line above the page: title and chapter on the left, page label, index and percent of the story
on the right (and "front matter" / "back matter" outside it), fitted to the width the page pane has."""

from __future__ import annotations

from typing import NamedTuple

from textual.content import Content
from textual.widget import Widget

from reader.app.notes.reading_pace import format_minutes
from reader.domain.models import source_marker
from reader.tui.fit_text import Part, cells, drop_to_fit, elide
from reader.tui.reading_session import ShownPage

FIGURE_MARKER = "▣ figures"
"""Shown in the header on a page whose meaning is largely in its figures (visual importance 3-5)."""

MATTER_MARKERS = {"front": "front matter", "back": "back matter"}
"""Shown in the header on a page before or after the story (a publisher's header, a licence)."""

GAP = 2
"""Blank cells between the title and the position."""

NAME_ROOM = 24
"""Position parts ranked above READING_POSITION are dropped to show the chapter (or title) whole, or
when it cannot be whole anyway, to give it this many cells before it is elided."""

READING_POSITION = 1
"""The rank of "read to p. N": dropped only when the position alone does not fit."""

MIN_TITLE = 8
"""Fewer cells than this left for the book title beside the chapter: the title is left out."""

DASH = " — "


BOOKMARK_MARKER = "⚑"
"""Shown in the header on a bookmarked page (with the bookmark's name, when it has one)."""

BOOKMARK_NAME_ROOM = 18


def position_parts(page: ShownPage) -> list[Part]:
    """The position of `page` in display order; the least important parts have the highest rank."""
    parts = []
    if page.bookmark is not None:
        name = (
            page.bookmark
            if len(page.bookmark) <= BOOKMARK_NAME_ROOM
            else page.bookmark[: BOOKMARK_NAME_ROOM - 1] + "…"
        )
        parts.append(Part(f"{BOOKMARK_MARKER} {name}".rstrip(), 2))
    if page.matter:
        parts.append(Part(MATTER_MARKERS[page.matter], 2))
    if page.has_figures:
        parts.append(Part(FIGURE_MARKER, 2))
    if page.text_source:  # the text was read from the page's picture: OCR or a model's transcription
        parts.append(Part(source_marker(page.text_source), 2))
    parts += [
        Part(f"p. {page.label}"),
        Part(f"{page.number} of {page.page_count}", 4),
        Part(f"{page.percent}%", 3),
    ]
    if page.horizon > page.number:
        parts.append(Part(f"read to p. {page.horizon_label}", READING_POSITION))
    if page.time_left is not None:
        if page.time_left.chapter_minutes is not None:
            parts.append(Part(f"{format_minutes(page.time_left.chapter_minutes)} left in chapter", 5))
        parts.append(Part(f"{format_minutes(page.time_left.book_minutes)} left in book", 6))
    return parts


def title_text(title: str, chapter: str | None, width: int) -> Content:
    """The book title in bold, then the chapter, fitted to `width`: the chapter says where the reader
    is, so the title is elided (or left out) before the chapter is."""
    book = Content.styled(title, "bold")
    if not chapter:
        return elide(book, width)
    full = Content.assemble(book, (DASH, "$text-muted"), chapter)
    if full.cell_length <= width:
        return full
    title_room = width - cells(DASH) - cells(chapter)
    if title_room < MIN_TITLE:
        return chapter_in(chapter, width)
    return Content.assemble(elide(book, title_room), (DASH, "$text-muted"), chapter)


def chapter_forms(chapter: str) -> list[str]:
    """The ways to name a chapter, longest first: whole; with its part shortened to what precedes its
    colon ("BOOK TEN: 1812 › CHAPTER III" -> "BOOK TEN › CHAPTER III"); the chapter alone."""
    from reader.app.pages.chapter_lookup import PATH_MARK  # loaded already when a name has a part

    if PATH_MARK not in chapter:
        return [chapter]
    part, mark, leaf = chapter.rpartition(PATH_MARK)
    short = part.split(":")[0].strip()
    return list(dict.fromkeys([chapter, f"{short}{mark}{leaf}" if short else chapter, leaf]))


def chapter_in(chapter: str, width: int) -> Content:
    """The chapter's name fitted to `width`: the longest of `chapter_forms` that fits, else the chapter
    alone, elided."""
    forms = chapter_forms(chapter)
    return elide(next((form for form in forms if cells(form) <= width), forms[-1]), width)


class HeaderLine(NamedTuple):
    """The header fitted to a width."""

    title: Content
    position: str


def header_line(page: ShownPage, width: int) -> HeaderLine:
    """Fit `page`'s header into `width` cells: position parts are dropped (least important first) to
    leave the chapter some room, then the title and chapter are elided; numbers are never cut."""
    chapter = (page.chapter_name or page.chapter.title) if page.chapter is not None else None
    names = [cells(form) for form in chapter_forms(chapter)] if chapter else [cells(page.book.title)]
    parts = position_parts(page._replace(time_left=None))  # the time left only fills room left over
    shortest = drop_to_fit(parts, 0, keep=READING_POSITION)
    # drop parts to show a whole name when that is possible at all, else to give it NAME_ROOM
    whole = [name for name in names if name <= width - GAP - cells(shortest)]
    wanted = whole[0] if whole else min(names[-1], NAME_ROOM)
    position = drop_to_fit(parts, width - GAP - wanted, keep=READING_POSITION)
    if cells(position) > width:
        position = drop_to_fit(parts, width)
    title = title_text(page.book.title, chapter, width - cells(position) - GAP)
    # a dropped part (or the time left) may still fit beside the title as shown
    wider = drop_to_fit(position_parts(page), width - GAP - title.cell_length, keep=READING_POSITION)
    if cells(position) < cells(wider) <= width - GAP - title.cell_length:
        position = wider
    return HeaderLine(title, position)


class PageHeader(Widget):
    """Title, chapter and position of the page on screen, fitted to the header's width."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.page: ShownPage | None = None
        self.message = ""

    def show(self, page: ShownPage) -> None:
        """Describe `page`."""
        self.page = page
        self.refresh()

    def clear(self, message: str) -> None:
        """Show `message` instead of a page."""
        self.page = None
        self.message = message
        self.refresh()

    @property
    def line(self) -> HeaderLine:
        """The header as it fits the widget now."""
        if self.page is None:
            return HeaderLine(Content(self.message), "")
        return header_line(self.page, self.content_size.width)

    def render(self) -> Content:
        line = self.line
        least = GAP if line.title.cell_length else 0
        gap = max(least, self.content_size.width - line.title.cell_length - cells(line.position))
        return Content.assemble(line.title, " " * gap, (line.position, "$text-muted"))
