"""The composition root: builds the database, repositories and use cases from paths and config."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

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

    def find_book(self, query: str) -> Book:
        return find_book(query, self.books.list())

    def close(self) -> None:
        self.db.close()
