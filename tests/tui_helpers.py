"""Helpers for the app's tests: a library with the sample book, a scripted chat, waiting."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from reader.cli.library_commands import import_sample
from reader.domain.chat import ChatEvent, ChatMessage, Conversation
from reader.domain.models import Book
from reader.services import Services


def sample_services() -> tuple[Services, Book]:
    """A library (at READER_DB, isolated per test) holding the sample novella."""
    services = Services.open()
    return services, import_sample(services)


def write_book(folder: Path, name: str = "harbour.md", title: str = "The Harbour", chapters: int = 3) -> Path:
    """A small Markdown novel with `chapters` chapters of a few pages each."""
    parts = []
    for number in range(1, chapters + 1):
        paragraphs = [
            f"Paragraph {i} of chapter {number} tells of the harbour and the grey tide." + " More words." * 30
            for i in range(10)
        ]
        parts.append(f"# Chapter {number}: Part {number}\n\n" + "\n\n".join(paragraphs))
    path = folder / name
    path.write_text(
        f"---\ntitle: {title}\nauthor: Ann Writer\n---\n\n" + "\n\n".join(parts), encoding="utf-8"
    )
    return path


async def wait_until(pilot: Pilot[Any], condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Let the app run until `condition()` holds (no fixed sleeps)."""
    loop_time = 0.0
    while not condition():
        if loop_time > timeout:
            raise AssertionError("condition not met in time")
        await pilot.pause(0.02)
        loop_time += 0.02


@dataclass
class FakeChat:
    """Stands in for ChatWithBookUseCase: replays scripted events per question."""

    script: list[Sequence[ChatEvent]] = field(default_factory=list)
    block: threading.Event | None = None
    """When set, the answer waits here (after its first event) until released or cancelled."""
    asked: list[tuple[str, str, int | None]] = field(default_factory=list)
    conversations_by_book: dict[str, list[Conversation]] = field(default_factory=dict)
    stored: dict[int, list[ChatMessage]] = field(default_factory=dict)

    def ask(
        self,
        book_id: str,
        question: str,
        conversation_id: int | None = None,
        cancel: threading.Event | None = None,
    ) -> Iterator[ChatEvent]:
        self.asked.append((book_id, question, conversation_id))
        events = self.script.pop(0) if self.script else ()
        for index, event in enumerate(events):
            if cancel is not None and cancel.is_set():
                return
            yield event
            if index == 0 and self.block is not None:
                while not self.block.wait(0.01):
                    if cancel is not None and cancel.is_set():
                        return

    def conversations(self, book_id: str) -> list[Conversation]:
        return self.conversations_by_book.get(book_id, [])

    def new_conversation(self, book_id: str) -> int:
        return 99

    def messages(self, conversation_id: int) -> list[ChatMessage]:
        return self.stored.get(conversation_id, [])


class ServicesWithChat(Services):
    """Services whose chat is a FakeChat (the real one needs litellm and a model)."""

    fake_chat: FakeChat

    @property
    def chat(self) -> FakeChat:  # type: ignore[override]
        return self.fake_chat


def services_with_chat(chat: FakeChat) -> tuple[ServicesWithChat, Book]:
    base = Services.open()
    services = ServicesWithChat(base.db, base.config)
    services.fake_chat = chat
    return services, import_sample(services)
