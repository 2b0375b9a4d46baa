"""The structure a PDF prints but does not declare: page text without running heads and page numbers,
labels from the printed numbers, and chapters from its contents page or its headings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reader.adapters.extractors.pdf_contents import contents_chapters
from reader.adapters.extractors.pdf_headings import heading_chapters, page_openings, words
from reader.adapters.extractors.pdf_running_heads import PageEdges, strip_running_heads
from reader.adapters.extractors.text_cleanup import normalize_text
from reader.domain.extracted import ExtractedChapter


@dataclass(frozen=True)
class PdfStructure:
    """Clean page texts (None where a page could not be read), page labels and found chapters."""

    texts: list[str | None]
    labels: list[str]
    chapters: list[ExtractedChapter]


def find_structure(
    raw: Sequence[str | None], labels: Sequence[str], *, declared_labels: bool, find_chapters: bool
) -> PdfStructure:
    """Strip running heads, footers and page numbers from the pages' raw text; label the pages from the
    printed numbers unless the PDF declares labels; with `find_chapters`, find the chapters it prints."""
    edges = strip_running_heads(raw, labels if declared_labels else None)
    if not declared_labels:
        labels = edges.labels() or labels
    chapters: list[ExtractedChapter] = []
    if find_chapters:
        openings = page_openings(edges)
        chapters = contents_chapters(openings, edges.lines, labels) or heading_chapters(openings)
        _restore_headings(edges, chapters)
    texts = [None if text is None else normalize_text("\n".join(lines)) for text, lines in zip(raw, edges.lines, strict=True)]
    return PdfStructure(texts, list(labels), chapters)


def _restore_headings(edges: PageEdges, chapters: Sequence[ExtractedChapter]) -> None:
    """Put back, on a chapter's first page, the heading lines taken for running heads."""
    for chapter in chapters:
        page = chapter.start_page - 1
        title = f" {words(chapter.title)} "
        heading = [line for line in edges.heads[page] if words(line) and f" {words(line)} " in title]
        if heading:
            edges.lines[page][:0] = heading
            edges.heads[page] = [line for line in edges.heads[page] if line not in heading]
