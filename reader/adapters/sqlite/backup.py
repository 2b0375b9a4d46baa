"""Copies of the library file: `reader backup` and the rolling copy made before a schema migration.

The copy is SQLite's online backup done in one step: it reads one snapshot of the file (WAL readers
never block writers, and writers never block it), so the copy is consistent while the app or an import
writes. It is written to a temporary file beside the target, checked, and then renamed into place: a
failed copy (a full disk) leaves nothing behind.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import sqlean

from reader.adapters.sqlite.storage_errors import storage_kind
from reader.domain.errors import ReaderError

BACKUP_DIR = "backups"
"""Where copies go by default: a folder beside the library file."""
MIGRATION_PREFIX = "before-schema-"
MIGRATION_BACKUPS_KEPT = 3
"""Copies made before schema migrations that are kept (the oldest go first)."""


@dataclass(frozen=True)
class BackupResult:
    """A finished copy: where it is, its size in bytes and how long it took."""

    path: Path
    size: int
    seconds: float


def default_backup_path(library: Path, now: datetime | None = None) -> Path:
    """`backups/<library name>-YYYY-MM-DD-HHMMSS.db` beside the library file."""
    stamp = (now or datetime.now()).strftime("%Y-%m-%d-%H%M%S")
    return library.parent / BACKUP_DIR / f"{library.stem}-{stamp}.db"


def backup_library(library: Path, target: Path, *, check: bool = True) -> BackupResult:
    """Copy the library file to `target` (a folder gets a dated name) consistently, even while other
    connections write; with `check`, the copy must pass SQLite's quick_check before it is kept.

    Raises:
        ReaderError: the library cannot be read, the target cannot be written (one line; nothing is left).
    """
    started = time.perf_counter()
    if target.is_dir():
        target = target / default_backup_path(library).name
    if target.exists() and _same_file(target, library):
        raise ReaderError(f"{target} is the library file itself; choose another file for the copy.")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ReaderError(f"Cannot create the folder {target.parent} ({error.strerror or error}).") from None
    partial = target.with_name(f".{target.name}.partial")
    try:
        _copy(library, partial, check)
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return BackupResult(target, target.stat().st_size, time.perf_counter() - started)


def _copy(library: Path, partial: Path, check: bool) -> None:
    if not library.is_file():
        raise ReaderError(f"There is no library file at {library} to back up.")
    partial.unlink(missing_ok=True)
    source = sqlean.connect(str(library), timeout=10.0, isolation_level=None)
    try:
        destination = sqlean.connect(str(partial), isolation_level=None)
        try:
            source.backup(destination, pages=-1)  # one step: one snapshot, never restarted by a writer
            destination.execute("PRAGMA journal_mode = DELETE")  # the copy is one self-contained file
            if check:
                problems = [row[0] for row in destination.execute("PRAGMA quick_check").fetchall()]
                if problems != ["ok"]:
                    raise ReaderError(
                        f"The copy of {library} failed its check ({problems[0]}); the library may be "
                        "damaged: run `reader check`."
                    )
        finally:
            destination.close()
    except sqlean.DatabaseError as error:
        raise _backup_error(error, library, partial) from None
    finally:
        source.close()
    with partial.open("rb") as handle:  # on disk before the rename makes it the copy
        os.fsync(handle.fileno())


def _backup_error(error: BaseException, library: Path, partial: Path) -> ReaderError:
    kind = storage_kind(error)
    reason = " ".join(str(error).split())
    if kind == "full":
        return ReaderError(
            f"The disk is full: the copy of the library did not fit in {partial.parent}; nothing was written."
        )
    if kind == "damaged":
        return ReaderError(f"The library file {library} is damaged ({reason}); run `reader check`.")
    return ReaderError(f"Cannot copy the library to {partial.parent} ({reason}); nothing was written.")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.samefile(b)
    except OSError:
        return False


def backup_before_migration(library: Path, version: int) -> Path | None:
    """A copy of the library before its schema moves on from `version`, keeping the last few such
    copies; None for a new (empty) library or one in memory.

    Raises:
        ReaderError: the copy cannot be made (the migration must not run without it).
    """
    if version == 0 or str(library) == ":memory:" or not library.is_file():
        return None
    stamp = datetime.now().strftime("%Y-%m-%d-%H%M%S")
    target = library.parent / BACKUP_DIR / f"{library.stem}-{MIGRATION_PREFIX}{version}-{stamp}.db"
    try:
        result = backup_library(library, target, check=False)
    except ReaderError as error:
        raise ReaderError(
            f"The library must be upgraded, but a copy of it could not be made first: {error} "
            "Nothing was changed."
        ) from None
    kept = sorted(
        target.parent.glob(f"{library.stem}-{MIGRATION_PREFIX}*.db"), key=lambda p: p.stat().st_mtime
    )
    for old in kept[:-MIGRATION_BACKUPS_KEPT]:
        old.unlink(missing_ok=True)
    return result.path


def latest_backups(library: Path, count: int = 3) -> list[Path]:
    """The newest copies in the backups folder beside the library, newest first."""
    folder = library.parent / BACKUP_DIR
    if not folder.is_dir():
        return []
    copies = [p for p in folder.glob("*.db") if p.is_file()]
    return sorted(copies, key=lambda p: p.stat().st_mtime, reverse=True)[:count]
