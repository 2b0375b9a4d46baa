"""The library as the library pane lists it: every book, with its embedding models and enrichment."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from reader.domain.enrichment_status import EnrichmentStatus
from reader.domain.models import Book

if TYPE_CHECKING:  # the ports load with the adapters that implement them
    from reader.domain.ports import BookRepository


@dataclass(frozen=True)
class LibraryOverview:
    """Every book (most recently read first), what each is embedded with and how far it is enriched."""

    books: list[Book]
    embedded: dict[str, list[str]] = field(default_factory=dict)
    """Embedding models each book has vectors for, by book id (books without vectors are absent)."""
    enrichment: dict[str, EnrichmentStatus] = field(default_factory=dict)
    """The enrichment status of each book that has enrichments or failures, by book id."""


class LibraryOverviewUseCase:
    """Reads the library's books with their index and enrichment status in one go."""

    def __init__(
        self,
        books: BookRepository,
        embedded_models: Callable[[], dict[str, list[str]]],
        enrichment_statuses: Callable[[], dict[str, EnrichmentStatus]],
    ) -> None:
        self.books = books
        self.embedded_models = embedded_models
        self.enrichment_statuses = enrichment_statuses

    def overview(self) -> LibraryOverview:
        """The library as it is now."""
        return LibraryOverview(self.books.list(), self.embedded_models(), self.enrichment_statuses())
