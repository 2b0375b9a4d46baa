"""Value objects of search and embedding storage: scored chunks and embedding spaces."""

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
