"""Value objects of search and embedding storage: scored chunks, passages found, embeddings and their spaces."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ScoredChunk:
    """A chunk one retriever found, with its printed page labels; a higher score is better."""

    chunk_id: str
    book_id: str
    text: str
    start_page: int
    end_page: int
    start_label: str
    end_label: str
    score: float


@dataclass(frozen=True)
class EmbeddingSpace:
    """Where one model's vectors of one dimension live (a vec0 table)."""

    table: str
    model: str
    dimension: int


@dataclass(frozen=True)
class BookVectors:
    """How far a book is embedded in one space: `count` of its `total` chunks have vectors."""

    space: EmbeddingSpace
    count: int
    total: int
    complete: bool
    """True once every chunk was embedded and the book was recorded as embedded with this model."""


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
    """Which retrievers matched it: "lexical", "semantic", "summary" (a page's `reader enrich` summary)."""
    answer_spans: tuple[tuple[int, int], ...] = ()
    """(start, end) in `content` of the sentences that best answer the query (empty: none stood out)."""

    @property
    def page_citation(self) -> str:
        """The citation for this passage, e.g. "p. 57" or "pp. 57-58"."""
        if self.start_label == self.end_label:
            return f"p. {self.start_label}"
        return f"pp. {self.start_label}-{self.end_label}"
