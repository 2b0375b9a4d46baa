"""Entities and value objects of a reader library. Pure Python, no I/O."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ExtractedPage:
    """One page of a book as an extractor reads it: its printed label and clean text."""

    label: str
    text: str


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

    @property
    def short_id(self) -> str:
        return self.id[:8]


@dataclass(frozen=True)
class Page:
    """A page of a stored book: 1-based number and printed label."""

    number: int
    label: str


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


@dataclass(frozen=True)
class EmbeddingVector:
    """A chunk's embedding with the page range it covers."""

    chunk_id: str
    vector: list[float]
    start_page: int
    end_page: int


@dataclass(frozen=True)
class SearchResult:
    """A passage found by search, visible at the reader's position."""

    chunk_id: str
    book_id: str
    content: str
    start_page: int
    end_page: int
    start_label: str
    end_label: str
    score: float
    retrievers: tuple[str, ...]
    """Which retrievers matched it: "lexical", "semantic" or both."""

    @property
    def page_citation(self) -> str:
        """The citation for this passage, e.g. "p. 57" or "pp. 57-58"."""
        if self.start_label == self.end_label:
            return f"p. {self.start_label}"
        return f"pp. {self.start_label}-{self.end_label}"
