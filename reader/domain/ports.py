"""Protocols the use cases depend on; adapters implement them."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # annotations only: a use case importing one port loads no other feature's records
    from reader.domain.chat import ChatMessage, Conversation
    from reader.domain.chat_model import ModelReply
    from reader.domain.concept_refinement import ChapterRefinement
    from reader.domain.enrichment import EnrichmentFailure, EnrichmentStatus, StoredEnrichment
    from reader.domain.extracted import ExtractedBook
    from reader.domain.images import BookImage
    from reader.domain.knowledge import ConceptEntry, ConceptHistory, ConceptName, ExtractedConcept
    from reader.domain.models import Book, Chapter, Chunk, Page, PagePicture
    from reader.domain.search import BookVectors, EmbeddingSpace, EmbeddingVector, ScoredChunk, SearchResult

ProgressCallback = Callable[[int, int], None]
"""Called with (done, total) as long work advances."""


class BookExtractor(Protocol):
    """Reads one file format into an ExtractedBook.

    Raises:
        ExtractionError: with a one-line message when the file cannot be read as a book.
    """

    def extract(
        self, path: Path, password: str | None = None, progress: ProgressCallback | None = None
    ) -> ExtractedBook: ...


class BookRepository(Protocol):
    """Stored books, their pages and chapters."""

    def get(self, book_id: str) -> Book | None: ...

    def list(self) -> list[Book]: ...

    def titles(self) -> dict[str, str]:
        """Every book's title by id (cheaper than `list` when only titles are wanted)."""
        ...

    def stale(self, index_version: int) -> builtins.list[Book]:
        """Books indexed by a version of the pipeline older than `index_version`."""
        ...

    def pages(self, book_id: str) -> builtins.list[Page]: ...

    def chapters(self, book_id: str) -> builtins.list[Chapter]: ...

    def set_current_page(self, book_id: str, page: int) -> None: ...

    def remove(self, book_id: str) -> bool: ...

    def mark_read(self, book_id: str) -> None: ...

    def index_version(self, book_id: str) -> int | None: ...

    def replace(
        self,
        book: Book,
        file_size: int,
        index_version: int,
        pages: Sequence[Page],
        chapters: Sequence[Chapter],
        chunks: Sequence[Chunk],
        concepts: Sequence[ExtractedConcept] = (),
        page_texts: Sequence[tuple[int, str, str]] = (),
        images: Sequence[BookImage] = (),
    ) -> None:
        """Write a whole book (with its concept map) atomically, replacing an earlier copy but keeping
        the reader's own: its reading position and conversations. `page_texts` ((page, source, text))
        are recognised page texts to keep marked as such (their text is in `chunks`); `pictures` are
        the pages that are pictures (page number -> picture)."""
        ...

    def page_texts(self, book_id: str) -> Mapping[int, tuple[str, str]]:
        """Page -> (source, text) of every page whose text was recognised (OCR, a model's transcription)."""
        ...


class PagePictures(Protocol):
    """The pictures of books whose pages are images, kept in the library."""

    def picture(self, book_id: str, page: int) -> PagePicture | None:
        """The picture of 1-based `page`, or None when that page is not a picture."""
        ...

    def pages_with_pictures(self, book_id: str) -> set[int]:
        """The numbers of the book's pages that are pictures (empty for a book of text)."""
        ...


class ChunkRepository(Protocol):
    """Stored page-aligned chunks."""

    def get_by_page_range(self, book_id: str, start_page: int, end_page: int) -> Sequence[Chunk]:
        """All chunks overlapping [start_page, end_page], in reading order."""
        ...

    def page_word_counts(self, book_id: str) -> Mapping[int, int]:
        """page -> how many words its chunks hold (the gaps between words, counted where the text is)."""
        ...


class SearchOutcome(Protocol):
    """What a book search returns: passages visible at the reader's position, plus notes."""

    @property
    def results(self) -> Sequence[SearchResult]: ...

    @property
    def mode(self) -> str: ...

    @property
    def warnings(self) -> Sequence[str]: ...

    @property
    def correction(self) -> str | None: ...


class BookSearcher(Protocol):
    """Searches one book's story pages up to `current_page` (the spoiler horizon); no front or back matter."""

    def search(
        self, book_id: str, query: str, current_page: int, k: int = 5, mode: str = "auto"
    ) -> SearchOutcome: ...


class ChatModel(Protocol):
    """A language model that streams answers and may call tools.

    Raises:
        ChatModelError: from `stream`, with a one-line message, when the call fails.
    """

    @property
    def name(self) -> str: ...

    def supports_tools(self) -> bool:
        """Whether the model can call functions (configuration may override what the provider says)."""
        ...

    def context_window(self) -> int:
        """Tokens the model accepts in one request."""
        ...

    def supports_pdf_input(self) -> bool:
        """Whether the model reads PDF files sent in a message (configuration may override it)."""
        ...

    def stream(
        self,
        messages: Sequence[dict[str, Any]],
        tools: Sequence[dict[str, Any]] | None = None,
        *,
        json_object: bool | Mapping[str, Any] = False,
    ) -> Iterator[str | ModelReply]:
        """Yield text pieces as they arrive, then exactly one ModelReply with the whole message.

        With `json_object` the provider is asked for a JSON object as the reply (where it can be);
        given a JSON schema instead of True, for one of that schema where the provider supports
        schemas, else for any JSON object. The caller still validates the reply.
        """
        ...


class EnrichmentRepository(Protocol):
    """Model-made page enrichments and the pages the model failed on; every write is committed at once."""

    def keys(self, book_id: str) -> dict[int, tuple[int, str, str]]:
        """(schema_version, content_hash, model) of each enriched page of the book, by page number."""
        ...

    def get(self, book_id: str, page: int) -> StoredEnrichment | None: ...

    def save(self, enrichment: StoredEnrichment) -> None:
        """Store (or replace) the enrichment of one page."""
        ...

    def add_failure(self, failure: EnrichmentFailure) -> None:
        """Log a page the model failed on, with its raw output."""
        ...

    def failures(self, book_id: str) -> builtins.list[EnrichmentFailure]:
        """The book's logged failures, oldest first."""
        ...

    def summaries(self, book_id: str, up_to_page: int) -> builtins.list[tuple[int, str]]:
        """(page, summary) of the enriched pages up to `up_to_page` (the spoiler horizon), in page order."""
        ...

    def status(self, book_id: str) -> EnrichmentStatus:
        """How far the book is enriched."""
        ...


class PageFiles(Protocol):
    """Pages of a book's original PDF file.

    Raises:
        ReaderError: from `page_pdf`, with a one-line message, when the file is gone, changed or unreadable.
    """

    def page_pdf(self, book: Book, pages: Sequence[int]) -> bytes:
        """A PDF holding only `pages` (1-based) of the book's file, in that order."""
        ...


class ConversationRepository(Protocol):
    """Stored conversations about books and their messages."""

    def create(self, book_id: str, title: str = "") -> int: ...

    def get(self, conversation_id: int) -> Conversation | None: ...

    def list_for_book(self, book_id: str) -> builtins.list[Conversation]: ...

    def latest(self, book_id: str) -> Conversation | None: ...

    def add_message(
        self,
        conversation_id: int,
        role: str,
        content: str,
        *,
        tool_calls: builtins.list[dict[str, Any]] | None = None,
        tool_call_id: str | None = None,
        name: str | None = None,
        status: str = "complete",
        horizon: int | None = None,
        held_at: int | None = None,
        spoiler_page: int | None = None,
        revealed: bool = False,
    ) -> int:
        """Store a message; for an answer the spoiler shield held back, `held_at` is where the held part
        starts in `content` and `spoiler_page` the position from which it spoils nothing."""
        ...

    def update_message(self, message_id: int, content: str, status: str) -> None: ...

    def reveal(self, message_id: int) -> None:
        """Mark a held-back answer as revealed (the reader chose to see it)."""
        ...

    def message(self, message_id: int) -> ChatMessage | None: ...

    def messages(self, conversation_id: int) -> builtins.list[ChatMessage]: ...

    def set_title(self, conversation_id: int, title: str) -> None: ...


class EmbeddingProvider(Protocol):
    """Turns texts into vectors: one per text, all of the same dimension.

    Raises:
        EmbeddingError: from `embed`, with a one-line message, when the endpoint fails or answers
            with vectors of the wrong count or dimension.
    """

    @property
    def name(self) -> str:
        """The model id, e.g. "text-embedding-3-small" or "ollama/nomic-embed-text"."""
        ...

    @property
    def dimension(self) -> int | None:
        """The vectors' length, learned from the first response (None before any)."""
        ...

    def embed(self, texts: builtins.list[str]) -> builtins.list[builtins.list[float]]:
        """One vector per text, in order (batched and retried as the provider needs)."""
        ...

    def embed_query(self, text: str) -> builtins.list[float]:
        """One search query's vector, failing fast (no retries)."""
        ...


class VectorStore(Protocol):
    """Chunk vectors, one space (vec0 table) per model and dimension."""

    def space(self, model: str, dimension: int) -> EmbeddingSpace:
        """The space for `model` vectors of `dimension`, created if missing."""
        ...

    def spaces(self, model: str | None = None) -> builtins.list[EmbeddingSpace]:
        """Known spaces (of one model when given), the most recently created first."""
        ...

    def missing_chunks(self, book_id: str, space: EmbeddingSpace) -> builtins.list[Chunk]:
        """The book's chunks without a vector in `space`, in reading order."""
        ...

    def add(self, space: EmbeddingSpace, book_id: str, vectors: Sequence[EmbeddingVector]) -> int:
        """Store vectors (replacing earlier ones of the same chunks); returns how many were stored."""
        ...

    def mark_embedded(self, book_id: str, space: EmbeddingSpace) -> None:
        """Record that every chunk of the book has a vector in `space`."""
        ...

    def book_vectors(self, book_id: str) -> builtins.list[BookVectors]:
        """Every space the book has vectors in, complete ones first."""
        ...


class SearchIndex(Protocol):
    """Retrieval over stored chunks; every query is limited to chunks with end_page <= current_page and
    (to leave front matter out) start_page >= first_page."""

    def lexical(
        self, book_id: str, terms: Sequence[str], current_page: int, k: int, first_page: int = 1
    ) -> builtins.list[ScoredChunk]:
        """Full-text (bm25) matches of any of `terms` (each searched as a quoted phrase), best first."""
        ...

    def semantic(
        self,
        book_id: str,
        space: EmbeddingSpace,
        vector: Sequence[float],
        current_page: int,
        k: int,
        first_page: int = 1,
    ) -> builtins.list[ScoredChunk]:
        """The k nearest chunks to `vector` in `space`, nearest first (score = cosine similarity)."""
        ...

    def similarities(
        self, space: EmbeddingSpace, vector: Sequence[float], chunk_ids: Sequence[str]
    ) -> dict[str, float]:
        """The cosine similarity of `vector` to each of these chunks' stored vectors (chunks without one
        are left out)."""
        ...

    def term_counts(
        self, book_id: str, terms: Sequence[str], current_page: int, first_page: int = 1
    ) -> tuple[int, builtins.list[int]]:
        """How many chunks from first_page to current_page there are, and how many of them hold each term."""
        ...

    def summaries(
        self, book_id: str, terms: Sequence[str], current_page: int, k: int, first_page: int = 1
    ) -> builtins.list[ScoredChunk]:
        """Full-text (bm25) matches among the model-made summaries of pages first_page..current_page
        (`reader enrich`), best first; each is cited as its page and its text says it is a summary."""
        ...

    def vocabulary(self, min_length: int, max_length: int) -> builtins.list[tuple[str, int]]:
        """Indexed terms (stemmed) of the given lengths with the number of chunks holding them."""
        ...

    def visible_forms(
        self,
        book_id: str,
        term: str,
        current_page: int,
        limit: int = 5,
        prefix: bool = False,
        first_page: int = 1,
    ) -> builtins.list[str]:
        """How `term` is written in the book's chunks from first_page up to current_page (empty when it
        is not there).

        With `prefix`, `term` is an indexed (stemmed) token from `vocabulary` and matches as a prefix.
        """
        ...


class ConceptRepository(Protocol):
    """A book's concept map; every read stops at `current_page` (the spoiler horizon)."""

    def count(self, book_id: str) -> int:
        """How many concepts the whole map holds (0 for a book imported before concept maps)."""
        ...

    def visible(self, book_id: str, current_page: int) -> builtins.list[ConceptEntry]:
        """Every concept first met by `current_page`, with names and counts up to it, most mentioned first."""
        ...

    def mentions(self, concept_id: int, current_page: int) -> builtins.list[tuple[int, int]]:
        """(page, count) of each page up to `current_page` that mentions the concept."""
        ...

    def shared_pages(self, book_id: str, concept_id: int, current_page: int) -> dict[int, int]:
        """For each other concept id, how many pages up to `current_page` it shares with this one."""
        ...

    def names(self, book_id: str) -> builtins.list[ConceptName]:
        """Every name of every concept of the whole book, with first pages (for the spoiler shield only:
        it must know later names to hold them back; never shown to the reader or the model)."""
        ...

    def histories(self, book_id: str) -> builtins.list[ConceptHistory]:
        """Every concept of the whole book with its mentions and names by page, in id order (for caches
        that read `visible` at many pages: `ConceptHistory.at`; never shown as a whole)."""
        ...

    def revision(self, book_id: str) -> tuple[int, ...]:
        """A cheap value that changes when the book's concept map is written again (held with a cache)."""
        ...


class SummaryRepository(Protocol):
    """Cached summaries, keyed by book, scope, model, prompt version and a hash of the text summarised."""

    def get(
        self, book_id: str, scope: str, model: str, prompt_version: int, text_hash: str
    ) -> str | None: ...

    def put(
        self,
        book_id: str,
        scope: str,
        model: str,
        prompt_version: int,
        text_hash: str,
        up_to_page: int,
        summary: str,
    ) -> None: ...


class RefinementRepository(Protocol):
    """Cached model refinements of a book's concept map, one per chapter read up to a page.

    Keyed by (book, chapter scope, model, prompt version, index version, a hash of the request), so a
    repeated request costs nothing and a changed request (the reader read on) is a new entry.
    """

    def get(
        self, book_id: str, scope: str, model: str, prompt_version: int, index_version: int, request_hash: str
    ) -> ChapterRefinement | None: ...

    def put(
        self,
        book_id: str,
        model: str,
        prompt_version: int,
        index_version: int,
        request_hash: str,
        refinement: ChapterRefinement,
    ) -> None:
        """Store one chapter's refinement (committed at once, so an interrupted run keeps it)."""
        ...

    def latest(
        self, book_id: str, model: str, prompt_version: int, index_version: int, up_to_page: int
    ) -> builtins.list[ChapterRefinement]:
        """For each chapter, the refinement read furthest but not past `up_to_page`, in page order."""
        ...

    def concept_counts(self, book_id: str, start_page: int, end_page: int) -> dict[int, int]:
        """Mentions of each concept on pages start_page..end_page (a chapter read so far), by concept id."""
        ...
