"""Opening the page on screen in the system's PDF viewer: the page is cut out as a PDF of its own."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from reader.domain.errors import ReaderError
from reader.domain.models import Book
from reader.locations import cache_dir

if TYPE_CHECKING:
    from reader.domain.ports import PageFiles

FORMAT_NAMES = {
    "pdf": "PDF",
    "epub": "EPUB",
    "markdown": "Markdown",
    "txt": "plain-text",
    "text": "plain-text",
}


def book_kind(book_format: str) -> str:
    """E.g. "an EPUB book", "a Markdown book"."""
    name = FORMAT_NAMES.get(book_format, book_format.upper())
    article = "an" if name[:1].upper() in "AEIOU" else "a"
    return f"{article} {name} book"


def not_a_pdf(book: Book, figure_label: str | None = None) -> str:
    """Why a book that is not a PDF has no page to open (on a page of figures: where its picture is)."""
    if figure_label is not None:
        name = FORMAT_NAMES.get(book.format, book.format.upper())
        return (
            f"The picture on p. {figure_label} is inside the {name} file; o opens pages of PDF books only "
            "(in the PDF viewer)."
        )
    return f"{book.title} is {book_kind(book.format)}: only PDF books have pages to open in a PDF viewer."


def pages_dir() -> Path:
    """Where cut-out pages are written (the user cache dir's pages/ folder)."""
    return cache_dir() / "pages"


def opener_command() -> list[str] | None:
    """The command that opens a file in its default application: open (macOS), xdg-open (elsewhere)."""
    name = "open" if sys.platform == "darwin" else "xdg-open"
    found = shutil.which(name)
    return [found] if found else None


def launch(path: Path) -> None:
    """Open `path` with the system's default viewer, detached from the app (its output discarded).

    Raises:
        ReaderError: no opener is installed, or it cannot start.
    """
    if sys.platform == "win32":  # pragma: no cover - not a supported platform for the tests
        os.startfile(path)  # type: ignore[attr-defined]  # noqa: S606
        return
    command = opener_command()
    if command is None:
        raise ReaderError(f"No program to open files with was found (xdg-open); the page is saved at {path}.")
    try:
        subprocess.Popen(
            [*command, str(path)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError as error:
        raise ReaderError(
            f"Cannot start {command[0]} ({error.strerror or error}); the page is at {path}."
        ) from None


def open_page(page_files: PageFiles, book: Book, number: int, label: str) -> Path:
    """Write page `number` of a PDF book to the cache as its own PDF and open it; returns the file.

    Raises:
        ReaderError: the book is not a PDF, its file is gone or changed, or no viewer can be started.
    """
    if book.format != "pdf":
        raise ReaderError(not_a_pdf(book))
    data = page_files.page_pdf(book, [number])
    folder = pages_dir()
    folder.mkdir(parents=True, exist_ok=True)
    safe = "".join(ch if ch.isalnum() else "_" for ch in label) or str(number)
    path = folder / f"{book.short_id}-p{number}-{safe}.pdf"
    path.write_bytes(data)
    launch(path)
    return path
