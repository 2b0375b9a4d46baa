"""The SQLite driver's errors about the library file itself, as one line a person can act on."""

from __future__ import annotations

from typing import Any

from reader.domain.errors import StorageError

BUSY_SECONDS = 10
"""The busy timeout in seconds (connection.BUSY_TIMEOUT_MS), as the messages say it."""

_KINDS = {
    "SQLITE_FULL": "full",
    "SQLITE_READONLY": "readonly",
    "SQLITE_BUSY": "busy",
    "SQLITE_LOCKED": "busy",
    "SQLITE_CORRUPT": "damaged",
    "SQLITE_NOTADB": "damaged",
    "SQLITE_IOERR": "io",
}
"""Primary result codes (extended codes start with them, e.g. SQLITE_READONLY_DBMOVED) -> kind."""


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


def storage_kind(error: BaseException) -> str | None:
    """full, readonly, busy, damaged or io for an error about the library file; None for others."""
    name = getattr(error, "sqlite_errorname", None) or ""
    for code, kind in _KINDS.items():
        if name == code or name.startswith(code + "_"):
            return kind
    text = str(error)
    if "database or disk is full" in text:
        return "full"
    if "readonly database" in text:
        return "readonly"
    if "database is locked" in text:
        return "busy"
    if "malformed" in text or "not a database" in text:
        return "damaged"
    return None


def storage_error(error: BaseException, path: Any) -> StorageError | None:
    """The one-line StorageError for a driver error about the library file at `path`, else None."""
    kind = storage_kind(error)
    if kind is None:
        return None
    messages = {
        "full": f"The disk holding the library is full ({path}); nothing of this change was saved. "
        "Free some space and try again.",
        "readonly": f"The library file is read-only ({path}); nothing was saved. Check its permissions "
        "and the disk's, then try again.",
        "busy": f"The library file stayed busy with another program's write for over {BUSY_SECONDS} s; "
        "nothing was saved. Try again in a moment.",
        "damaged": f"The library file is damaged ({path}: {_one_line(error)}); run `reader check`, or "
        "restore a copy made by `reader backup`.",
        "io": f"Cannot read or write the library file ({path}: {_one_line(error)}); nothing was saved. "
        "Check the disk and try again.",
    }
    return StorageError(messages[kind], kind)
