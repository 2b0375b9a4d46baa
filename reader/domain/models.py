"""Entities and value objects of a reader library. Pure Python, no I/O."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple


@dataclass(frozen=True)
class PageVisuals:
    """What is visual on a page, measured at import without a model."""

    image_count: int = 0
    """Images drawn on the page (PDF image XObjects and inline images) or in its markup (EPUB img, svg)."""
    image_area: float = 0.0
    """Fraction of the page (0-1) covered by images; for EPUB an estimate from the markup."""
    drawing_area: float = 0.0
    """Fraction of the page covered by vector drawings (painted paths); PDF only."""
    importance: int = 1
    """visual_importance, 1 (prose) to 5 (the page's meaning is in its figures)."""

    @property
    def has_visuals(self) -> bool:
        return self.image_count > 0 or self.drawing_area > 0


NO_VISUALS = PageVisuals()

class PagePicture(NamedTuple):
    """A page that is a picture, kept in the library (image-only books: comics, fixed-layout EPUBs).

    A NamedTuple, not a frozen dataclass: this module is on the app's start-up path."""

    media_type: str
    """"image/jpeg", "image/png", "image/gif", "image/webp", "image/svg+xml", ..."""
    data: bytes
    width: int = 0
    """The pixels its header declares (0 when unreadable: the viewer then shows its alt text)."""
    height: int = 0


@dataclass(frozen=True)
class Book:
    """A book in the library."""

    id: str
    title: str
    author: str
    language: str
    format: str
    source_path: str
    page_count: int
    current_page: int
    pagination: str
    imported_at: str
    last_read_at: str | None = None
    warnings: tuple[str, ...] = ()
    story_start: int = 1
    """The story's first page: the pages before it are front matter (a publisher's header, contents)."""
    story_end: int | None = None
    """The story's last page (None: the last page); the pages after it are back matter (a licence)."""
    encoding: str = ""
    """The text encoding a text book was decoded from ("" for formats that declare their own)."""

    @property
    def short_id(self) -> str:
        return self.id[:8]

    @property
    def story_last(self) -> int:
        return min(self.story_end or self.page_count, self.page_count)

    @property
    def story_pages(self) -> range:
        """The story's pages, story_start to story_last."""
        return range(self.story_start, self.story_last + 1)

    def matter_at(self, page: int) -> str | None:
        """ "front" or "back" when `page` is front or back matter, None on a page of the story."""
        if page < self.story_start:
            return "front"
        if page > self.story_last:
            return "back"
        return None

    def story_progress(self, page: int) -> float:
        """How much of the story (0-1) is read at `page`: front matter is 0, back matter 1."""
        pages = self.story_last - self.story_start + 1
        if pages <= 0:
            return 1.0
        return max(0.0, min(1.0, (page - self.story_start + 1) / pages))


FIGURE_IMPORTANCE = 3
"""Pages of this visual_importance or more are shown as pages with figures."""


OCR_SOURCE = "ocr"
"""A page's text (Page.text_source) read from its picture by local OCR (`reader ocr`)."""

MODEL_SOURCE = "model"
"""A page's text transcribed by a model that reads PDFs (`reader enrich`, the enrichment's full_text)."""

SOURCE_MARKERS = {OCR_SOURCE: "OCR text", MODEL_SOURCE: "model transcription"}
"""The short marker shown with a page whose text did not come from its text layer."""


def source_marker(source: str | None) -> str:
    """The marker for a page's text source ("" for a text layer)."""
    return SOURCE_MARKERS.get(source or "", source or "")


@dataclass(frozen=True)
class Page:
    """A page of a stored book: 1-based number, printed label and what is visual on it."""

    number: int
    label: str
    visuals: PageVisuals = NO_VISUALS
    enriched_importance: int | None = None
    """The visual_importance a model gave the page (`reader enrich`); it replaces the measured one."""
    text_source: str = ""
    """Where the page's text came from when not its text layer: OCR_SOURCE or MODEL_SOURCE."""

    @property
    def visual_importance(self) -> int:
        return self.enriched_importance if self.enriched_importance is not None else self.visuals.importance

    @property
    def has_figures(self) -> bool:
        return self.visual_importance >= FIGURE_IMPORTANCE


@dataclass(frozen=True)
class Chapter:
    """A stored table-of-contents entry with its page range (inclusive)."""

    index: int
    title: str
    start_page: int
    end_page: int
    level: int = 0


@dataclass(frozen=True)
class Chunk:
    """A page-aligned piece of a book's text; it never crosses a page boundary."""

    id: str
    book_id: str
    index: int
    start_page: int
    end_page: int
    text: str
    continues_paragraph: bool = False
    """True when this chunk continues the previous chunk's paragraph (join with a space)."""


def join_chunks(chunks: Iterable[Chunk]) -> str:
    """The text the chunks were cut from: paragraphs joined by blank lines."""
    out: list[str] = []
    for chunk in chunks:
        if out:
            out.append(" " if chunk.continues_paragraph else "\n\n")
        out.append(chunk.text)
    return "".join(out)
