"""Embed books' chunks into the configured model's vector space: resumable, batch by batch."""

from __future__ import annotations

from dataclasses import dataclass

from reader.domain.errors import ReaderError
from reader.domain.models import Book, Chunk
from reader.domain.ports import (
    BookRepository,
    ChunkRepository,
    EmbeddingProvider,
    ProgressCallback,
    VectorStore,
)
from reader.domain.search import EmbeddingSpace, EmbeddingVector


@dataclass(frozen=True)
class EmbedOutcome:
    """What embedding one book did."""

    book: Book
    space: EmbeddingSpace | None
    embedded: int
    """Chunks embedded by this run."""
    total: int
    """Chunks the book has."""
    other_models: tuple[str, ...] = ()
    """Other models the book also has vectors from (unused while another model is configured)."""

    @property
    def already_done(self) -> bool:
        return self.embedded == 0


class EmbedBooksUseCase:
    """Writes `EmbeddingVector`s for the chunks a book's space lacks; every batch is committed."""

    def __init__(
        self,
        books: BookRepository,
        chunks: ChunkRepository,
        vectors: VectorStore,
        provider: EmbeddingProvider | None,
        batch_size: int = 64,
        config_hint: str = "the config file",
    ) -> None:
        self.books = books
        self.chunks = chunks
        self.vectors = vectors
        self.provider = provider
        self.batch_size = max(1, batch_size)
        self.config_hint = config_hint

    def require_provider(self) -> EmbeddingProvider:
        """The configured provider.

        Raises:
            ReaderError: no embedding model is configured.
        """
        if self.provider is None:
            raise ReaderError(
                f"No embedding model is configured; set [embeddings] model in {self.config_hint} "
                "(search works without one, lexically)."
            )
        return self.provider

    def embed_book(self, book_id: str, progress: ProgressCallback | None = None) -> EmbedOutcome:
        """Embed what is missing; an interrupted run keeps its finished batches and resumes from them.

        Raises:
            ReaderError: no embedding model is configured or the book does not exist.
            EmbeddingError: the endpoint failed (what was stored before stays stored).
        """
        provider = self.require_provider()
        book = self.books.get(book_id)
        if book is None:
            raise ReaderError(f"No book with id {book_id}; see `reader list`.")
        others = tuple(
            sorted(
                {v.space.model for v in self.vectors.book_vectors(book_id) if v.space.model != provider.name}
            )
        )
        known = self.vectors.spaces(provider.name)
        dimension = provider.dimension or (known[0].dimension if known else None)
        space = self.vectors.space(provider.name, dimension) if dimension else None
        pending = self._missing(book, space)
        total = len(self.chunks.get_by_page_range(book_id, 1, book.page_count))
        done = total - len(pending)
        embedded = 0
        if progress:
            progress(done, total)
        while pending:
            batch = pending[: self.batch_size]
            vectors = provider.embed([chunk.text for chunk in batch])
            size = len(vectors[0])
            if space is None or space.dimension != size:
                # first batch, or the model's dimension changed: (re)start in the matching space
                space = self.vectors.space(provider.name, size)
                pending = self._missing(book, space)
                done = total - len(pending)
                if [c.id for c in pending[: len(batch)]] != [c.id for c in batch]:
                    continue
            stored = self.vectors.add(
                space,
                book_id,
                [
                    EmbeddingVector(c.id, v, c.start_page, c.end_page)
                    for c, v in zip(batch, vectors, strict=True)
                ],
            )
            embedded += stored
            done += len(batch)
            pending = pending[len(batch) :]
            if progress:
                progress(done, total)
        if space is not None:
            self.vectors.mark_embedded(book_id, space)
        return EmbedOutcome(book, space, embedded, total, others)

    def embed_all(self, progress: ProgressCallback | None = None) -> list[EmbedOutcome]:
        """Every book in the library, one after another."""
        return [self.embed_book(book.id, progress) for book in self.books.list()]

    def _missing(self, book: Book, space: EmbeddingSpace | None) -> list[Chunk]:
        if space is None:
            return list(self.chunks.get_by_page_range(book.id, 1, book.page_count))
        return self.vectors.missing_chunks(book.id, space)
