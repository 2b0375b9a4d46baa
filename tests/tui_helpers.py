"""Helpers for the app's tests: a library with the sample book, a small generated book, waiting."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from reader.cli.library_commands import import_sample
from reader.domain.models import Book
from reader.services import Services


def sample_services(page: int = 1) -> tuple[Services, Book]:
    """A library (at READER_DB, isolated per test) holding the sample novella, read up to `page`."""
    services = Services.open()
    book = import_sample(services)
    if page != 1:
        services.books.set_current_page(book.id, page)
    return services, book


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
