"""The composition root: builds the database, repositories and use cases from paths and config."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from reader.adapters.sqlite.book_repository import SqliteBookRepository
from reader.adapters.sqlite.chunk_repository import SqliteChunkRepository
from reader.adapters.sqlite.connection import Database
from reader.adapters.sqlite.migrations import INDEX_VERSION
from reader.adapters.sqlite.settings_repository import SqliteSettingsRepository
from reader.app.book_lookup import find_book
from reader.app.page_lookup import PageLookup
from reader.config import Config, load_config
from reader.domain.models import Book
from reader.locations import database_path

if TYPE_CHECKING:
    from reader.adapters.extractors.pdf_page_files import PypdfPageFiles
    from reader.adapters.llm.litellm_chat import LitellmChatModel
    from reader.adapters.llm.litellm_embeddings import LitellmEmbeddingProvider
    from reader.adapters.sqlite.concept_repository import SqliteConceptRepository
    from reader.adapters.sqlite.enrichment_repository import SqliteEnrichmentRepository
    from reader.adapters.sqlite.refinement_repository import SqliteRefinementRepository
    from reader.adapters.sqlite.vector_store import SqliteVectorStore
    from reader.app.annotations import AnnotationsUseCase
    from reader.app.bookmarks import BookmarksUseCase
    from reader.app.chat_with_book import ChatWithBookUseCase
    from reader.app.embed_books import EmbedBooksUseCase
    from reader.app.enrich_pages import EnrichPagesUseCase
    from reader.app.import_books import ImportBooksUseCase
    from reader.app.ocr_pages import OcrPagesUseCase
    from reader.app.page_text_index import PageTextIndex
    from reader.app.reading_time import ReadingTimeUseCase
    from reader.app.refine_concepts import RefineConceptsUseCase
    from reader.app.search_books import SearchBooksUseCase
    from reader.app.shield_cache import ShieldIndexes
    from reader.app.shield_rules import ShieldIndex
    from reader.app.summaries import SummariesUseCase
    from reader.app.xray import XRayUseCase

SAMPLE_BOOK = Path(__file__).parent / "samples" / "the_keeper_of_gull_rock.md"


@dataclass
class Services:
    """Everything the command line and the app use, wired to one library file.

    Repositories are built per call so each thread gets its own SQLite connection.
    """

    db: Database
    config: Config = field(default_factory=Config)
    _shields: ShieldIndexes | None = field(default=None, repr=False)

    @classmethod
    def open(cls, db_path: str | Path | None = None, config: Config | None = None) -> Services:
        return cls(Database(database_path(db_path)), config if config is not None else load_config())

    @property
    def books(self) -> SqliteBookRepository:
        return SqliteBookRepository(self.db.conn)

    @property
    def chunks(self) -> SqliteChunkRepository:
        return SqliteChunkRepository(self.db.conn)

    @property
    def settings(self) -> SqliteSettingsRepository:
        return SqliteSettingsRepository(self.db.conn)

    @property
    def bookmarks(self) -> BookmarksUseCase:
        """The reader's bookmarks."""
        from reader.adapters.sqlite.bookmark_repository import SqliteBookmarkRepository
        from reader.app.bookmarks import BookmarksUseCase

        return BookmarksUseCase(SqliteBookmarkRepository(self.db.conn))

    @property
    def annotations(self) -> AnnotationsUseCase:
        """The reader's highlights and notes."""
        from reader.adapters.sqlite.annotation_repository import SqliteAnnotationRepository
        from reader.adapters.sqlite.bookmark_repository import SqliteBookmarkRepository
        from reader.app.annotations import AnnotationsUseCase

        conn = self.db.conn
        return AnnotationsUseCase(
            SqliteAnnotationRepository(conn), self.books, self.chunks, SqliteBookmarkRepository(conn)
        )

    @property
    def reading_time(self) -> ReadingTimeUseCase:
        """The reader's pace, time left and the reading log behind `reader stats`."""
        from reader.adapters.sqlite.reading_log_repository import SqliteReadingLogRepository
        from reader.app.reading_time import ReadingTimeUseCase

        return ReadingTimeUseCase(self.chunks, SqliteReadingLogRepository(self.db.conn))

    @property
    def importer(self) -> ImportBooksUseCase:
        # pypdf and ebooklib load only when something is imported (not on the app's start-up path)
        from reader.adapters.extractors.registry import SUPPORTED_SUFFIXES, extractor_for
        from reader.app.import_books import ImportBooksUseCase  # with the concept map builder

        def reanchor(book_id: str, old_page_count: int) -> str:  # in the importing thread
            return self.annotations.reanchor(book_id, old_page_count).message

        return ImportBooksUseCase(self.books, extractor_for, INDEX_VERSION, SUPPORTED_SUFFIXES, reanchor)

    @property
    def page_files(self) -> PypdfPageFiles:
        """Pages of a PDF book's file as PDFs of their own (pypdf loads on first use)."""
        from reader.adapters.extractors.pdf_page_files import PypdfPageFiles

        return PypdfPageFiles()

    @property
    def pages(self) -> PageLookup:
        return PageLookup(self.books, self.chunks)

    @property
    def vectors(self) -> SqliteVectorStore:
        from reader.adapters.sqlite.vector_store import SqliteVectorStore

        return SqliteVectorStore(self.db.conn)

    @property
    def concepts(self) -> SqliteConceptRepository:
        from reader.adapters.sqlite.concept_repository import SqliteConceptRepository

        return SqliteConceptRepository(self.db.conn)

    @property
    def refinements(self) -> SqliteRefinementRepository:
        from reader.adapters.sqlite.refinement_repository import SqliteRefinementRepository

        return SqliteRefinementRepository(self.db.conn)

    @property
    def xray(self) -> XRayUseCase:
        """People, places and terms of a book up to a page (the concept map built at import), with the
        [chat] model's stored refinements applied (`refine`; no model call is made here)."""
        from reader.app.refine_concepts import stored_refinements
        from reader.app.xray import XRayUseCase

        model = self.config.chat.model
        source = stored_refinements(self.refinements, self.books, model) if model else None
        return XRayUseCase(self.books, self.chunks, self.concepts, source)

    @property
    def refine(self) -> RefineConceptsUseCase:
        """Refining the X-Ray chapter by chapter with the [chat] model (litellm loads if one is configured)."""
        from reader.app.refine_concepts import RefineConceptsUseCase

        return RefineConceptsUseCase(
            self.books, self.chunks, self.concepts, self.refinements, self.chat_model, self._config_hint
        )

    def summaries_for(self, *, offline: bool = False, reuse_model: bool = False) -> SummariesUseCase:
        """Chapter summaries and recaps: map-reduce with the [chat] model, else (or `offline`) extractive.

        With `reuse_model` (and offline) the model is not called, but its cached summaries are used.
        """
        from reader.adapters.sqlite.summary_repository import SqliteSummaryRepository
        from reader.app.summaries import SummariesUseCase

        model = None if offline else self.chat_model
        reuse = self.config.chat.model or None if reuse_model else None
        return SummariesUseCase(
            self.books,
            self.chunks,
            SqliteSummaryRepository(self.db.conn),
            model,
            self.enrichments.summaries,
            reuse,
            self._summary_shield,
        )

    def _summary_shield(self, book: Book, page: int) -> ShieldIndex | None:
        """The spoiler shield's rules for a book at a page (model-written summaries are checked too)."""
        return self.shields.source(book, page, self.books, self.chunks, self.concepts)()

    @property
    def embedding_provider(self) -> LitellmEmbeddingProvider | None:
        """The configured embedding model (litellm loads on its first call), or None: lexical search."""
        settings = self.config.embeddings
        if not settings.model:
            return None
        from reader.adapters.llm.litellm_embeddings import LitellmEmbeddingProvider
        from reader.config import api_key

        return LitellmEmbeddingProvider(
            settings.model,
            api_base=settings.api_base,
            api_key=api_key(settings.api_key_env),
            api_key_env=settings.api_key_env,
            batch_size=settings.batch_size,
            timeout=settings.timeout,
            max_retries=settings.max_retries,
            retry_backoff=settings.retry_backoff,
        )

    @property
    def search(self) -> SearchBooksUseCase:
        from reader.adapters.sqlite.search_index import SqliteSearchIndex
        from reader.app.search_books import SearchBooksUseCase

        return SearchBooksUseCase(
            self.books,
            SqliteSearchIndex(self.db.conn),
            self.vectors,
            self.embedding_provider,
            self._config_hint,
        )

    @property
    def embed_use_case(self) -> EmbedBooksUseCase:
        from reader.app.embed_books import EmbedBooksUseCase

        return EmbedBooksUseCase(
            self.books,
            self.chunks,
            self.vectors,
            self.embedding_provider,
            self.config.embeddings.batch_size,
            self._config_hint,
        )

    @property
    def _config_hint(self) -> str:
        return str(self.config.path or "the config file")

    @property
    def chat_model(self) -> LitellmChatModel | None:
        """The [chat] model (litellm loads when it is built), or None when none is configured."""
        chat = self.config.chat
        if not chat.model:
            return None
        from reader.adapters.llm.litellm_chat import LitellmChatModel
        from reader.config import api_key

        return LitellmChatModel(
            chat.model,
            api_base=chat.api_base,
            api_key=api_key(chat.api_key_env),
            api_key_env=chat.api_key_env,
            timeout=chat.timeout,
            context_window=chat.context_window,
        )

    @property
    def shields(self) -> ShieldIndexes:
        """The spoiler shield's indexes, kept for the session (a book's text is indexed once)."""
        if self._shields is None:
            from reader.app.shield_cache import ShieldIndexes

            self._shields = ShieldIndexes()
        return self._shields

    @property
    def chat(self) -> ChatWithBookUseCase:
        """The chat about a book; loads litellm (seconds) only when a model is configured."""
        from reader.adapters.sqlite.conversation_repository import SqliteConversationRepository
        from reader.app.chat_turn import RetryPolicy
        from reader.app.chat_with_book import ChatSettings, ChatWithBookUseCase
        from reader.app.knowledge_tools import BookKnowledge

        chat = self.config.chat
        model = self.chat_model
        settings = ChatSettings(
            tool_calling=chat.tool_calling,
            max_tool_calls=chat.max_tool_calls,
            retry=RetryPolicy(chat.max_retries, chat.retry_backoff),
            config_path=self._config_hint,
            pdf_input=chat.pdf_input,
        )
        return ChatWithBookUseCase(
            self.books,
            self.chunks,
            SqliteConversationRepository(self.db.conn),
            self.search,
            model,
            settings,
            self.page_files,
            # no model calls inside a tool call: extractive summaries, or the model's where `reader recap`
            # (or the app's recap) already made them
            BookKnowledge(self.xray, self.summaries_for(offline=True, reuse_model=True)),
            notes=self.annotations.list,
            shields=self.shields,
            concepts=self.concepts,
        )

    @property
    def enrichments(self) -> SqliteEnrichmentRepository:
        from reader.adapters.sqlite.enrichment_repository import SqliteEnrichmentRepository

        return SqliteEnrichmentRepository(self.db.conn)

    @property
    def enrich(self) -> EnrichPagesUseCase:
        """Page enrichment with the [chat] model; loads litellm (seconds) only when a model is configured."""
        from reader.app.chat_turn import RetryPolicy
        from reader.app.chat_with_book import reads_pdf
        from reader.app.enrich_pages import EnrichPagesUseCase

        chat = self.config.chat
        model = self.chat_model
        return EnrichPagesUseCase(
            self.books,
            self.chunks,
            self.enrichments,
            model,
            page_files=self.page_files,
            pdf_input=reads_pdf(model, chat.pdf_input),
            retry=RetryPolicy(chat.max_retries, chat.retry_backoff),
            config_hint=self._config_hint,
            page_texts=self.page_text_index,
        )

    @property
    def page_text_index(self) -> PageTextIndex:
        """Stores page text from OCR or a model's transcription and re-indexes the page."""
        from reader.adapters.sqlite.page_text_repository import SqlitePageTextStore
        from reader.app.page_text_index import PageTextIndex

        return PageTextIndex(self.books, self.chunks, SqlitePageTextStore(self.db.conn))

    @property
    def ocr(self) -> OcrPagesUseCase:
        """OCR of scanned PDF pages; the recognizer (the `ocr` extra) loads on the first page read."""
        from reader.adapters.ocr.pdf_page_images import PdfPageImages
        from reader.adapters.ocr.rapid_ocr import RapidOcrRecognizer
        from reader.adapters.sqlite.page_text_repository import SqlitePageTextStore
        from reader.app.ocr_pages import OcrPagesUseCase

        store = SqlitePageTextStore(self.db.conn)
        return OcrPagesUseCase(self.books, self.chunks, store, PdfPageImages(), RapidOcrRecognizer())

    def find_book(self, query: str) -> Book:
        return find_book(query, self.books.list())

    def close(self) -> None:
        self.db.close()
