"""Completion of file and folder paths for the import input."""

from __future__ import annotations

import os
from pathlib import Path

from textual.suggester import Suggester

BOOK_SUFFIXES = (
    ".pdf", ".epub", ".txt", ".md", ".markdown", ".html", ".htm", ".xhtml", ".fb2", ".fb2.zip",
    ".mobi", ".azw", ".azw3", ".kf8", ".prc",
)  # fmt: skip
"""The names the completion offers; the same list as the extractors' registry (tui does not import it)."""


def complete_path(typed: str) -> str | None:
    """The first folder or book file completing `typed` (with a trailing slash for folders)."""
    if not typed:
        return None
    expanded = os.path.expanduser(typed)
    folder, prefix = os.path.split(expanded)
    base = Path(folder or ".")
    try:
        entries = sorted(os.scandir(base), key=lambda e: (not e.is_dir(), e.name.lower()))
    except OSError:
        return None
    show_hidden = prefix.startswith(".")
    for entry in entries:
        if not entry.name.startswith(prefix) or (entry.name.startswith(".") and not show_hidden):
            continue
        is_dir = entry.is_dir()
        if not is_dir and not entry.name.lower().endswith(BOOK_SUFFIXES):
            continue
        completed = os.path.join(folder, entry.name) + (os.sep if is_dir else "")
        if expanded != typed and typed.startswith("~"):
            completed = "~" + completed[len(os.path.expanduser("~")) :]
        return completed if completed != typed else None
    return None


class PathSuggester(Suggester):
    """Suggests the completion of a path as the user types (accept it with the right arrow or Tab)."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        return complete_path(value)
