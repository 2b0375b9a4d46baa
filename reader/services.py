"""The composition root: builds the database, repositories and use cases from paths and config."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from reader.adapters.sqlite.book_repository import SqliteBookRepository
from reader.adapters.sqlite.chunk_repository import SqliteChunkRepository
from reader.adapters.sqlite.connection import BUSY_TIMEOUT_MS, Database
from reader.adapters.sqlite.migrations import INDEX_VERSION
from reader.adapters.sqlite.settings_repository import SqliteSettingsRepository
from reader.app.library.book_lookup import find_in_library
from reader.app.pages.page_lookup import PageLookup
from reader.config import Config, load_config
from reader.domain.errors import ReaderError
from reader.domain.models import Book
from reader.locations import database_path

if TYPE_CHECKING:
    from reader.adapters.extractors.pdf_page_files import PypdfPageFiles
    from reader.adapters.llm.litellm_chat import LitellmChatModel
    from reader.adapters.pdf_figures import PdfFigures
    from reader.adapters.sqlite.backup import BackupResult
    from reader.adapters.sqlite.concept_repository import SqliteConceptRepository
    from reader.adapters.sqlite.conversation_repository import SqliteConversationRepository
    from reader.adapters.sqlite.enrichment_repository import SqliteEnrichmentRepository
    from reader.adapters.sqlite.image_repository import SqliteImageRepository
    from reader.adapters.sqlite.library_check import CheckReport
    from reader.adapters.sqlite.refinement_repository import SqliteRefinementRepository
    from reader.adapters.sqlite.search_index import SqliteSearchIndex
    from reader.adapters.sqlite.vector_store import SqliteVectorStore
    from reader.app.chat.chat_with_book import ChatWithBookUseCase
    from reader.app.knowledge.refine_concepts import RefineConceptsUseCase
    from reader.app.knowledge.summaries import SummariesUseCase
    from reader.app.knowledge.xray import XRayUseCase
    from reader.app.library.import_books import ImportBooksUseCase
    from reader.app.library.library_overview import LibraryOverviewUseCase
    from reader.app.library.ocr_pages import OcrPagesUseCase
    from reader.app.notes.annotations import AnnotationsUseCase
    from reader.app.notes.bookmarks import BookmarksUseCase
    from reader.app.notes.reading_time import ReadingTimeUseCase
    from reader.app.pages.enrich_pages import EnrichPagesUseCase
    from reader.app.pages.page_text_index import PageTextIndex
    from reader.app.search.embed_books import EmbedBooksUseCase
    from reader.app.search.search_books import SearchBooksUseCase
    from reader.app.search.search_memory import SearchMemory
    from reader.app.shield.cache import ShieldIndexes
    from reader.app.shield.rules import ShieldIndex
    from reader.domain.ports import EmbeddingProvider

_LOCAL_EMBEDDERS: dict[str, EmbeddingProvider] = {}

SAMPLE_BOOK = Path(__file__).parent / "samples" / "the_keeper_of_gull_rock.md"

T = TypeVar("T")


class per_thread(Generic[T]):
    """A Services part built on first use, once per thread: SQLite connections belong to their thread,
    so a worker thread gets its own repositories and use cases, and the UI thread keeps its own."""

    def __init__(self, build: Callable[[Services], T]) -> None:
        self.build = build
        self.name = build.__name__
        self.__doc__ = build.__doc__

    @overload
    def __get__(self, services: None, owner: Any = None) -> per_thread[T]: ...

    @overload
    def __get__(self, services: Services, owner: Any = None) -> T: ...

    def __get__(self, services: Services | None, owner: Any = None) -> T | per_thread[T]:
        if services is None:
            return self
        built = services._built.__dict__
        if self.name not in built:
            built[self.name] = self.build(services)
        return built[self.name]


class Services:
    """Everything the command line and the app use, wired to one library file.

    The object graph is built once per thread, each part on first use (see `per_thread`), so each
    thread uses its own SQLite connection.
    """

    def __init__(self, db: Database, config: Config | None = None) -> None:
        self.db = db
        self.config = config if config is not None else Config()
        self._shields: ShieldIndexes | None = None
        self._search_memory: SearchMemory | None = None
        self._built = threading.local()

    @classmethod
    def open(cls, db_path: str | Path | None = None, config: Config | None = None) -> Services:
        return cls(Database(database_path(db_path)), config if config is not None else load_config())

    @per_thread
    def books(self) -> SqliteBookRepository:
        return SqliteBookRepository(self.db.conn)

    @per_thread
    def chunks(self) -> SqliteChunkRepository:
        return SqliteChunkRepository(self.db.conn)

    @per_thread
    def settings(self) -> SqliteSettingsRepository:
        return SqliteSettingsRepository(self.db.conn)

    @per_thread
    def bookmarks(self) -> BookmarksUseCase:
        """The reader's bookmarks."""
        from reader.adapters.sqlite.bookmark_repository import SqliteBookmarkRepository
        from reader.app.notes.bookmarks import BookmarksUseCase

        return BookmarksUseCase(SqliteBookmarkRepository(self.db.conn), self.chunks)

    @per_thread
    def annotations(self) -> AnnotationsUseCase:
        """The reader's highlights and notes."""
        from reader.adapters.sqlite.annotation_repository import SqliteAnnotationRepository
        from reader.adapters.sqlite.bookmark_repository import SqliteBookmarkRepository
        from reader.app.notes.annotations import AnnotationsUseCase

        conn = self.db.conn
        return AnnotationsUseCase(
            SqliteAnnotationRepository(conn), self.books, self.chunks, SqliteBookmarkRepository(conn)
        )

    @per_thread
    def reading_time(self) -> ReadingTimeUseCase:
        """The reader's pace, time left and the reading log behind `reader stats`."""
        from reader.adapters.sqlite.reading_log_repository import SqliteReadingLogRepository
        from reader.app.notes.reading_time import ReadingTimeUseCase

        return ReadingTimeUseCase(self.chunks, SqliteReadingLogRepository(self.db.conn))

    @per_thread
    def importer(self) -> ImportBooksUseCase:
        # pypdf and ebooklib load only when something is imported (not on the app's start-up path)
        from reader.adapters.extractors.registry import SUPPORTED_SUFFIXES, extractor_for
        from reader.app.library.import_books import ImportBooksUseCase  # with the concept map builder

        def reanchor(book_id: str, old_page_count: int) -> str:  # in the importing thread
            return self.annotations.reanchor(book_id, old_page_count).message

        return ImportBooksUseCase(self.books, extractor_for, INDEX_VERSION, SUPPORTED_SUFFIXES, reanchor)

    @per_thread
    def page_files(self) -> PypdfPageFiles:
        """Pages of a PDF book's file as PDFs of their own (pypdf loads on first use)."""
        from reader.adapters.extractors.pdf_page_files import PypdfPageFiles

        return PypdfPageFiles()

    @per_thread
    def images(self) -> SqliteImageRepository:
        """The pictures stored with books (EPUB, FB2, HTML): by page, the cover, their bytes."""
        from reader.adapters.sqlite.image_repository import SqliteImageRepository

        return SqliteImageRepository(self.db.conn)

    @per_thread
    def pdf_figures(self) -> PdfFigures:
        """A PDF book's figures and whole pages drawn from its file (pypdfium2 loads on first use)."""
        from reader.adapters.pdf_figures import PdfFigures

        return PdfFigures()

    @per_thread
    def pages(self) -> PageLookup:
        return PageLookup(self.books, self.chunks)

    @per_thread
    def search_index(self) -> SqliteSearchIndex:
        """Full-text and vector retrieval (it keeps what it read until the library changes)."""
        from reader.adapters.sqlite.search_index import SqliteSearchIndex

        return SqliteSearchIndex(self.db.conn)

    @per_thread
    def vectors(self) -> SqliteVectorStore:
        from reader.adapters.sqlite.vector_store import SqliteVectorStore

        return SqliteVectorStore(self.db.conn)

    @per_thread
    def concepts(self) -> SqliteConceptRepository:
        from reader.adapters.sqlite.concept_repository import SqliteConceptRepository

        return SqliteConceptRepository(self.db.conn)

    @per_thread
    def refinements(self) -> SqliteRefinementRepository:
        from reader.adapters.sqlite.refinement_repository import SqliteRefinementRepository

        return SqliteRefinementRepository(self.db.conn)

    @per_thread
    def xray(self) -> XRayUseCase:
        """People, places and terms of a book up to a page (the concept map built at import), with the
        [chat] model's stored refinements applied (`refine`; no model call is made here)."""
        from reader.app.knowledge.refine_concepts import stored_refinements
        from reader.app.knowledge.xray import XRayUseCase

        model = self.config.chat.model
        source = stored_refinements(self.refinements, self.books, model) if model else None
        return XRayUseCase(self.books, self.chunks, self.concepts, source)

    @per_thread
    def refine(self) -> RefineConceptsUseCase:
        """Refining the X-Ray chapter by chapter with the [chat] model (litellm loads if one is configured)."""
        from reader.app.knowledge.refine_concepts import RefineConceptsUseCase

        return RefineConceptsUseCase(
            self.books, self.chunks, self.concepts, self.refinements, self.chat_model, self._config_hint
        )

    def summaries_for(self, *, offline: bool = False, reuse_model: bool = False) -> SummariesUseCase:
        """Chapter summaries and recaps: map-reduce with the [chat] model, else (or `offline`) extractive.

        With `reuse_model` (and offline) the model is not called, but its cached summaries are used.
        """
        from reader.adapters.sqlite.summary_repository import SqliteSummaryRepository
        from reader.app.knowledge.summaries import SummariesUseCase

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

    @property  # built per access: the embedding provider learns the model's dimension
    def embedding_provider(self) -> EmbeddingProvider | None:
        """The configured embedding model (litellm loads on its first call; an in-process model once per
        process), or None: lexical search."""
        settings = self.config.embeddings
        model = settings.model or self._default_embedding_model()
        if not model:
            return None
        from reader.adapters.embeddings.local_onnx import is_local

        if is_local(model):
            return self._local_embedder(model)
        from reader.adapters.llm.litellm_embeddings import LitellmEmbeddingProvider
        from reader.config import api_key

        return LitellmEmbeddingProvider(
            settings, api_key=api_key(settings.api_key_env), batch_size=settings.batch_size
        )

    download_progress: Callable[[str, int, int], None] | None = None
    """Told how a model file's first fetch goes (the CLI draws a bar); None: quiet."""

    @staticmethod
    def _default_embedding_model() -> str:
        """The in-process model when the semantic extra is installed and hybrid search is on by default."""
        from reader.adapters.embeddings.local_onnx import LOCAL_PREFIX, semantic_installed
        from reader.app.search.search_books import HYBRID_BY_DEFAULT

        return LOCAL_PREFIX if HYBRID_BY_DEFAULT and semantic_installed() else ""

    def warm_embedder(self) -> None:
        """Start loading the configured in-process embedding model in the background, when its files are
        at hand (a search that embeds its query waits only for what is left of the load)."""
        model = self.config.embeddings.model or self._default_embedding_model()
        if not model:
            return
        from reader.adapters.embeddings.local_onnx import LocalEmbeddingProvider, is_local

        if not is_local(model):
            return
        provider = self._local_embedder(model)
        if isinstance(provider, LocalEmbeddingProvider) and provider.present:
            import threading

            threading.Thread(target=provider.warm, name="model-warm-up", daemon=True).start()

    def _local_embedder(self, model: str) -> EmbeddingProvider:
        """One in-process model per process and model name (loading it takes a while; it is thread-safe)."""
        from reader.adapters.embeddings.local_onnx import LocalEmbeddingProvider
        from reader.locations import cache_dir

        held = _LOCAL_EMBEDDERS.get(model)
        if held is None:
            held = _LOCAL_EMBEDDERS.setdefault(
                model, LocalEmbeddingProvider(model, cache_dir(), lambda *a: self._progress(*a))
            )
        return held

    def _progress(self, name: str, done: int, total: int) -> None:
        if self.download_progress is not None:
            self.download_progress(name, done, total)

    @property  # built per access: the embedding provider learns the model's dimension
    def search(self) -> SearchBooksUseCase:
        from reader.app.search.search_books import SearchBooksUseCase
        from reader.app.search.search_memory import SearchMemory

        if self._search_memory is None:  # chapters and concept maps kept for every search, in every thread
            self._search_memory = SearchMemory()
        return SearchBooksUseCase(
            self.books,
            self.search_index,
            self.vectors,
            self.embedding_provider,
            self._config_hint,
            self.concepts,
            self._search_memory,
        )

    @property  # built per access: the embedding provider learns the model's dimension
    def embed_use_case(self) -> EmbedBooksUseCase:
        from reader.app.search.embed_books import EmbedBooksUseCase

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

    @per_thread
    def chat_model(self) -> LitellmChatModel | None:
        """The [chat] model (litellm loads when it is built), or None when none is configured."""
        chat = self.config.chat
        if not chat.model:
            return None
        from reader.adapters.llm.litellm_chat import LitellmChatModel
        from reader.config import api_key

        return LitellmChatModel(chat, api_key=api_key(chat.api_key_env), context_window=chat.context_window)

    @property
    def shields(self) -> ShieldIndexes:
        """The spoiler shield's indexes, kept for the session (a book's text is indexed once)."""
        if self._shields is None:
            from reader.app.shield.cache import ShieldIndexes

            self._shields = ShieldIndexes()
        return self._shields

    def has_conversation(self, book_id: str) -> bool:
        """Whether `book_id` has a conversation with messages (without loading `conversations`)."""
        from reader.adapters.sqlite.conversation_index import has_conversation_messages

        return has_conversation_messages(self.db.conn, book_id)

    @per_thread
    def conversations(self) -> SqliteConversationRepository:
        """The stored conversations (listing and showing them needs no chat model)."""
        from reader.adapters.sqlite.conversation_repository import SqliteConversationRepository

        return SqliteConversationRepository(self.db.conn)

    @per_thread
    def chat(self) -> ChatWithBookUseCase:
        """The chat about a book; loads litellm (seconds) only when a model is configured."""
        from reader.app.chat.chat_with_book import ChatSettings, ChatWithBookUseCase
        from reader.app.chat.knowledge_tools import BookKnowledge

        chat = self.config.chat
        model = self.chat_model
        settings = ChatSettings(
            tool_calling=chat.tool_calling,
            max_tool_calls=chat.max_tool_calls,
            retry=chat.retry,
            config_path=self._config_hint,
            pdf_input=chat.pdf_input,
        )
        return ChatWithBookUseCase(
            self.books,
            self.chunks,
            self.conversations,
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

    @per_thread
    def enrichments(self) -> SqliteEnrichmentRepository:
        from reader.adapters.sqlite.enrichment_repository import SqliteEnrichmentRepository

        return SqliteEnrichmentRepository(self.db.conn)

    @per_thread
    def enrich(self) -> EnrichPagesUseCase:
        """Page enrichment with the [chat] model; loads litellm (seconds) only when a model is configured."""
        from reader.app.chat.chat_with_book import reads_pdf
        from reader.app.pages.enrich_pages import EnrichPagesUseCase

        chat = self.config.chat
        model = self.chat_model
        return EnrichPagesUseCase(
            self.books,
            self.chunks,
            self.enrichments,
            model,
            page_files=self.page_files,
            pdf_input=reads_pdf(model, chat.pdf_input),
            retry=chat.retry,
            config_hint=self._config_hint,
            page_texts=self.page_text_index,
        )

    @property
    def page_text_index(self) -> PageTextIndex:
        """Stores page text from OCR or a model's transcription and re-indexes the page."""
        from reader.adapters.sqlite.page_text_repository import SqlitePageTextStore
        from reader.app.knowledge.concept_map import build_concept_map
        from reader.app.pages.page_text_index import PageTextIndex

        return PageTextIndex(self.books, self.chunks, SqlitePageTextStore(self.db.conn), build_concept_map)

    @property
    def ocr(self) -> OcrPagesUseCase:
        """OCR of scanned PDF pages and of books whose pages are pictures; the recognizer (the `ocr` extra)
        loads on the first page read."""
        from reader.adapters.ocr.book_page_images import BookPageImages
        from reader.adapters.ocr.rapid_ocr import RapidOcrRecognizer
        from reader.adapters.sqlite.page_text_repository import SqlitePageTextStore
        from reader.app.library.ocr_pages import OcrPagesUseCase

        store = SqlitePageTextStore(self.db.conn)
        images = BookPageImages(self.images)
        return OcrPagesUseCase(self.books, self.chunks, store, images, RapidOcrRecognizer())

    @per_thread
    def library(self) -> LibraryOverviewUseCase:
        """The library pane's view: the books with their embedding models and enrichment status."""
        from reader.adapters.sqlite.enrichment_status import enrichment_statuses
        from reader.adapters.sqlite.index_status import embedded_models
        from reader.app.library.library_overview import LibraryOverviewUseCase

        conn = self.db.conn
        return LibraryOverviewUseCase(self.books, lambda: embedded_models(conn), lambda: enrichment_statuses(conn))

    def try_write(self, write: Callable[[], None]) -> bool:
        """Run `write` at once unless another writer holds the library file: then nothing is written and
        the answer is False (the caller may queue it; see tui.ui_writes). Never waits for the lock."""
        from reader.domain.errors import StorageError

        conn = self.db.conn
        conn.execute("PRAGMA busy_timeout = 0")
        try:
            write()
        except StorageError as error:
            if error.kind != "busy":
                raise
            return False
        finally:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        return True

    def backup(self, target: Path | None = None) -> BackupResult:
        """A consistent copy of the library file at `target` (default: dated, in the backups folder)."""
        from reader.adapters.sqlite.backup import backup_library, default_backup_path

        return backup_library(self.db.path, target or default_backup_path(self.db.path))

    def storage_error(self, error: BaseException) -> ReaderError | None:
        """The one-line error for a failure of the library file itself (raised by the driver outside a
        statement, e.g. while rows are read), or None for any other error."""
        from reader.adapters.sqlite.storage_errors import storage_error

        return storage_error(error, self.db.path) if type(error).__module__.startswith("sqlean") else None

    def latest_backups(self) -> list[Path]:
        """The newest copies of the library in its backups folder, newest first."""
        from reader.adapters.sqlite.backup import latest_backups

        return latest_backups(self.db.path)

    def check_library(self, repair: bool = False) -> CheckReport:
        """The library file's integrity and whether its derived tables are in step; `repair` rebuilds them."""
        from reader.adapters.sqlite.library_check import LibraryCheck

        return LibraryCheck(self.db.conn).run(repair=repair)

    def find_book(self, query: str) -> Book:
        return find_in_library(query, self.books)

    def stale_books(self) -> list[Book]:
        """Books indexed by an older version of the import pipeline (`reader reindex` redoes them),
        found without loading the extractors."""
        return self.books.stale(INDEX_VERSION)

    def pdf_figures_made(self) -> PdfFigures | None:
        """This thread's `pdf_figures`, if it was made (None: no PDF was shown, nothing to close)."""
        return self._built.__dict__.get("pdf_figures")

    def close(self) -> None:
        self.db.close()
