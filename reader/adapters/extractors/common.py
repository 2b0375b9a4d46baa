"""Helpers shared by the extractors: file checks, one-line messages, titles from file names."""

from __future__ import annotations

import re
from pathlib import Path

from reader.domain.errors import ExtractionError

_SPACE = re.compile(r"\s+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def one_line(text: object) -> str:
    """Any message squeezed onto one line (newlines and runs of spaces become one space)."""
    return _SPACE.sub(" ", str(text)).strip()


def shown(path: Path) -> str:
    """A path as it appears in messages: always on one line."""
    return one_line(path) if "\n" in str(path) or "\r" in str(path) else str(path)


def check_file(path: Path) -> int:
    """The size of a readable, non-empty regular file; ExtractionError otherwise."""
    try:
        if not path.exists():
            raise ExtractionError(f"{shown(path)}: no such file.")
        if path.is_dir():
            raise ExtractionError(f"{shown(path)} is a folder, not a book file.")
        size = path.stat().st_size
    except OSError as error:
        raise ExtractionError(
            f"{shown(path)}: cannot read the file ({one_line(error.strerror or error)})."
        ) from None
    if size == 0:
        raise ExtractionError(f"{shown(path)} is empty (0 bytes).")
    return size


def check_size(path: Path, size: int, max_bytes: int, kind: str) -> None:
    """ExtractionError when a file of `size` bytes is over the `max_bytes` limit for a `kind` book."""
    if size > max_bytes:
        raise ExtractionError(
            f"{shown(path)} is {size // (1024 * 1024)} MB, over the {max_bytes // (1024 * 1024)} MB "
            f"limit for {kind}; refusing it."
        )


def read_head(path: Path, size: int = 1024) -> bytes:
    """The first `size` bytes of a file; ExtractionError when it cannot be read."""
    try:
        with path.open("rb") as handle:
            return handle.read(size)
    except OSError as error:
        raise ExtractionError(
            f"{shown(path)}: cannot read the file ({one_line(error.strerror or error)})."
        ) from None


def clean_field(value: object) -> str:
    """A metadata value as one clean line ('' for None or junk)."""
    if value is None:
        return ""
    text = _CONTROL.sub("", str(value))
    return one_line(text)


def title_from_filename(path: Path) -> str:
    """A title guessed from a file name: `pride_and-prejudice.txt` -> `Pride And Prejudice`."""
    stem = one_line(re.sub(r"[_\-]+", " ", path.stem)) or path.name
    if stem == stem.lower() or stem == stem.upper():
        return stem.title()
    return stem


def plural(count: int, singular: str, many: str) -> str:
    """`1 page` / `3 pages`."""
    return f"{count} {singular if count == 1 else many}"
