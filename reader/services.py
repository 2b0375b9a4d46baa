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
from reader.app.import_books import ImportBooksUseCase
from reader.app.page_lookup import PageLookup
from reader.config import Config, load_config
from reader.domain.models import Book
from reader.locations import database_path

if TYPE_CHECKING:
    from reader.app.chat_with_book import ChatWithBookUseCase

SAMPLE_BOOK = Path(__file__).parent / "samples" / "the_keeper_of_gull_rock.md"


@dataclass
class Services:
    """Everything the command line and the app use, wired to one library file.

    Repositories are built per call so each thread gets its own SQLite connection.
    """

    db: Database
    config: Config = field(default_factory=Config)

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
    def importer(self) -> ImportBooksUseCase:
        # pypdf and ebooklib load only when something is imported (not on the app's start-up path)
        from reader.adapters.extractors.registry import SUPPORTED_SUFFIXES, extractor_for

        return ImportBooksUseCase(self.books, extractor_for, INDEX_VERSION, SUPPORTED_SUFFIXES)

    @property
    def pages(self) -> PageLookup:
        return PageLookup(self.books, self.chunks)

    @property
    def chat(self) -> ChatWithBookUseCase:
        """The chat about a book; loads litellm (seconds) only when a model is configured."""
        from reader.adapters.sqlite.conversation_repository import SqliteConversationRepository
        from reader.app.chat_turn import RetryPolicy
        from reader.app.chat_with_book import ChatSettings, ChatWithBookUseCase

        chat = self.config.chat
        model = None
        if chat.model:
            from reader.adapters.llm.litellm_chat import LitellmChatModel
            from reader.config import api_key

            model = LitellmChatModel(
                chat.model,
                api_base=chat.api_base,
                api_key=api_key(chat.api_key_env),
                api_key_env=chat.api_key_env,
                timeout=chat.timeout,
                context_window=chat.context_window,
            )
        settings = ChatSettings(
            tool_calling=chat.tool_calling,
            max_tool_calls=chat.max_tool_calls,
            retry=RetryPolicy(chat.max_retries, chat.retry_backoff),
            config_path=str(self.config.path or "the config file"),
        )
        searcher = getattr(self, "search", None)
        return ChatWithBookUseCase(
            self.books, self.chunks, SqliteConversationRepository(self.db.conn), searcher, model, settings
        )

    def find_book(self, query: str) -> Book:
        return find_book(query, self.books.list())

    def close(self) -> None:
        self.db.close()
