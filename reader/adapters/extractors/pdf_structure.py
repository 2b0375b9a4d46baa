"""The structure a PDF prints but does not declare: page text without running heads and page numbers,
labels from the printed numbers, and chapters from its contents page or its headings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reader.adapters.extractors.pdf_contents import contents_chapters, contents_pages
from reader.adapters.extractors.pdf_fonts import PageFonts, body_size, large_heading
from reader.adapters.extractors.pdf_headings import heading_chapters, page_openings, words
from reader.adapters.extractors.pdf_running_heads import PageEdges, strip_running_heads
from reader.domain.extracted import ExtractedChapter

CONFIRMED_SHARE = 0.5
"""Below this share of its entries confirmed, a contents page gives way to headings that find more."""


@dataclass(frozen=True)
class PdfStructure:
    """Each page's lines without running heads and page numbers, page labels and found chapters."""

    lines: list[list[str]]
    labels: list[str]
    chapters: list[ExtractedChapter]


def find_structure(
    raw: Sequence[str | None],
    labels: Sequence[str],
    *,
    declared_labels: bool,
    outline: Sequence[ExtractedChapter] = (),
    title: str = "",
    fonts: Sequence[PageFonts | None] = (),
) -> PdfStructure:
    """Strip running heads, footers and page numbers from the pages' raw text; label the pages from the
    printed numbers unless the PDF declares labels; without an `outline`, find the chapters it prints.

    A top line naming the book (`title`) or the chapter a page is in is a running head too, even alone
    (only chapters found on their pages count: an outline may point a page before the heading).
    `fonts` (per page) tell which pages open with text larger than the body.
    """
    edges = strip_running_heads(raw, labels if declared_labels else None)
    if not declared_labels:
        labels = edges.labels() or labels
    chapters = list(outline)
    if not chapters:
        openings = page_openings(edges)
        listing = contents_pages(edges.lines)
        chapters, listed = contents_chapters(openings, edges.lines, labels, listing)
        if not chapters or len(chapters) < listed * CONFIRMED_SHARE:  # no contents, or hardly matching
            headings = heading_chapters(openings, _large_headings(fonts), title, skip=listing)
            chapters = headings if len(headings) > len(chapters) else chapters
    _restore_headings(edges, chapters)
    _drop_named_heads(edges, chapters, title, by_chapter=not outline)
    return PdfStructure(edges.lines, list(labels), chapters)


def _large_headings(fonts: Sequence[PageFonts | None]) -> list[str]:
    """Each page's opening text set larger than the book's body text ('' where there is none)."""
    body = body_size(fonts)
    if body is None:
        return []
    return [large_heading(page, body) for page in fonts]


def _drop_named_heads(
    edges: PageEdges, chapters: Sequence[ExtractedChapter], title: str, *, by_chapter: bool
) -> None:
    """Take off a page's first line, after the first chapter, when it names the book or (`by_chapter`)
    the chapter the page is in (not on the chapter's first page, where it is the heading)."""
    starts: dict[int, list[ExtractedChapter]] = {}
    for chapter in chapters:
        starts.setdefault(chapter.start_page - 1, []).append(chapter)
    if not starts:
        return
    book = words(title)
    current: dict[int, str] = {}
    for page in range(min(starts), len(edges.lines)):
        opened = starts.get(page, [])
        for chapter in opened if by_chapter else ():
            current = {level: name for level, name in current.items() if level < chapter.level}
            current[chapter.level] = words(chapter.title)
        lines = edges.lines[page]
        if opened or not lines:
            continue
        first = words(lines[0])
        if first and (first == book or first in current.values()):
            edges.heads[page].append(lines.pop(0).strip())


def _restore_headings(edges: PageEdges, chapters: Sequence[ExtractedChapter]) -> None:
    """Put back, on a chapter's first page, the heading lines taken for running heads."""
    for chapter in chapters:
        page = chapter.start_page - 1
        title = f" {words(chapter.title)} "
        heading = [line for line in edges.heads[page] if words(line) and f" {words(line)} " in title]
        if heading:
            edges.lines[page][:0] = heading
            edges.heads[page] = [line for line in edges.heads[page] if line not in heading]
