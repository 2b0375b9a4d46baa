"""What an extractor reads from a book file, before it is stored: pages, contents entries, metadata."""

from __future__ import annotations

from dataclasses import dataclass, field

from reader.domain.images import BookImage
from reader.domain.models import NO_VISUALS, PagePicture, PageVisuals


@dataclass(frozen=True)
class ExtractedPage:
    """One page of a book as an extractor reads it: its printed label, clean text and visual measurements."""

    label: str
    text: str
    visuals: PageVisuals = NO_VISUALS
    picture: PagePicture | None = None
    """The page itself as a picture, for books whose pages are images (kept in the library)."""


@dataclass(frozen=True)
class ExtractedChapter:
    """A table-of-contents entry: a title starting on a 1-based page number."""

    title: str
    start_page: int
    level: int = 0


@dataclass
class ExtractedBook:
    """What an extractor returns: metadata, pages 1..N in order, chapters and warnings."""

    title: str
    author: str
    language: str
    format: str
    pages: list[ExtractedPage]
    chapters: list[ExtractedChapter] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    pagination: str = "physical"
    """How pages were made: "physical" (PDF), "print" (EPUB page-list) or "synthetic"."""
    encoding: str = ""
    """The text encoding a text book was decoded from ("" for formats that declare their own)."""
    images: list[BookImage] = field(default_factory=list)
    """The pictures on its pages and its cover, with their bytes (PDF figures are drawn from the file)."""
