"""Helpers for the chat tests: the sample novella at a reading position and a chat wired to a server."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from reader.app.chat.chat_with_book import ChatWithBookUseCase
from reader.cli.library_commands import import_sample
from reader.config import ChatConfig, Config
from reader.domain.chat import AnswerEvent, ChatEvent, ErrorEvent
from reader.domain.models import Book
from reader.services import Services


def chat_services(base_url: str | None, page: int = 10, **chat: Any) -> tuple[Services, Book]:
    """A library holding the sample novella at `page`, chatting with the server at `base_url`."""
    settings: dict[str, Any] = {"tool_calling": "on", "timeout": 10.0, "retry_backoff": 0.01}
    if base_url is not None:
        settings |= {"model": "openai/scripted", "api_base": base_url}
    settings |= chat
    services = Services.open(config=Config(chat=ChatConfig(**settings)))
    book = import_sample(services)
    services.books.set_current_page(book.id, page)
    return services, services.books.get(book.id) or book


def ask(chat: ChatWithBookUseCase, book: Book, question: str, **kwargs: Any) -> list[ChatEvent]:
    return list(chat.ask(book.id, question, **kwargs))


def final(events: Iterable[ChatEvent]) -> AnswerEvent | ErrorEvent:
    """The one AnswerEvent or ErrorEvent that ends a turn (checked to be last and alone)."""
    events = list(events)
    ends = [e for e in events if isinstance(e, AnswerEvent | ErrorEvent)]
    assert len(ends) == 1 and events[-1] is ends[0], events
    return ends[0]


def tool_messages(requests: Iterable[dict[str, Any]]) -> list[str]:
    """Every tool result the model was sent, across all requests."""
    return [m["content"] for r in requests for m in r["messages"] if m.get("role") == "tool"]


def later_texts(services: Services, book: Book, page: int) -> list[str]:
    """Distinctive chunk texts (and their long sentences) from every page after `page`."""
    chunks = services.chunks.get_by_page_range(book.id, page + 1, book.page_count)
    sentences = [s for c in chunks for s in c.text.split(". ") if len(s) > 60]
    return [c.text for c in chunks if len(c.text) > 80] + sentences


def arguments_json(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)
