"""Protocols the use cases depend on; adapters implement them."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

from reader.domain.chat import ChatMessage, Conversation
from reader.domain.chat_model import ModelReply
from reader.domain.models import Book, Chapter, Chunk, ExtractedBook, Page, SearchResult

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
    ) -> None:
        """Write a whole book atomically, replacing an earlier copy but keeping its reading position."""
        ...


class ChunkRepository(Protocol):
    """Stored page-aligned chunks."""

    def get_by_page_range(self, book_id: str, start_page: int, end_page: int) -> Sequence[Chunk]:
        """All chunks overlapping [start_page, end_page], in reading order."""
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
    """Searches one book's pages up to `current_page` (the spoiler horizon)."""

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

    def stream(
        self, messages: Sequence[dict[str, Any]], tools: Sequence[dict[str, Any]] | None = None
    ) -> Iterator[str | ModelReply]:
        """Yield text pieces as they arrive, then exactly one ModelReply with the whole message."""
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
    ) -> int: ...

    def update_message(self, message_id: int, content: str, status: str) -> None: ...

    def messages(self, conversation_id: int) -> builtins.list[ChatMessage]: ...

    def set_title(self, conversation_id: int, title: str) -> None: ...
