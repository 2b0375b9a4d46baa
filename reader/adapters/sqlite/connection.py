"""Opening the single SQLite file: the sqlean binding, sqlite-vec, pragmas and migrations."""

from __future__ import annotations

import importlib.util
import threading
from functools import cache
from pathlib import Path
from typing import Any

import sqlean

from reader.adapters.sqlite.migrations import SCHEMA_VERSION, migrate
from reader.adapters.sqlite.storage_errors import storage_error

Connection = sqlean.Connection
IntegrityError = sqlean.IntegrityError
OperationalError = sqlean.OperationalError
DatabaseError = sqlean.DatabaseError

BUSY_TIMEOUT_MS = 10_000
"""How long a write waits for another connection's write lock before it fails."""


class LibraryConnection(sqlean.Connection):
    """A connection whose errors about the file itself (disk full, read-only, busy too long, damaged)
    are StorageError: one line that names the library file and says what to do."""

    library_path: str = ""

    def execute(self, sql: str, parameters: Any = (), /) -> Any:
        try:
            return super().execute(sql, parameters)
        except DatabaseError as error:
            translated = storage_error(error, self.library_path)
            if translated is None:
                raise
            raise translated from error

    def executemany(self, sql: str, parameters: Any, /) -> Any:
        try:
            return super().executemany(sql, parameters)
        except DatabaseError as error:
            translated = storage_error(error, self.library_path)
            if translated is None:
                raise
            raise translated from error


@cache
def _sqlite_vec_path() -> str:
    """sqlite-vec's loadable extension, found without importing the package: its __init__ imports
    numpy (75 ms at start-up, measured with -X importtime) for helpers reader does not use."""
    spec = importlib.util.find_spec("sqlite_vec")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("sqlite-vec is not installed")
    return str(Path(next(iter(spec.submodule_search_locations))) / "vec0")


def open_connection(path: Path | str, *, check_same_thread: bool = True) -> Any:
    """Open (creating if needed) the library file, load sqlite-vec and bring the schema up to date."""
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlean.connect(
        str(path),
        timeout=BUSY_TIMEOUT_MS / 1000,
        check_same_thread=check_same_thread,
        isolation_level=None,
        factory=LibraryConnection,
    )
    conn.library_path = str(path)
    conn.enable_load_extension(True)
    conn.load_extension(_sqlite_vec_path())
    conn.enable_load_extension(False)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if 0 < version < SCHEMA_VERSION and str(path) != ":memory:":
        from reader.adapters.sqlite.backup import backup_before_migration  # lazy: only before an upgrade

        try:
            backup_before_migration(Path(path), version)
        except BaseException:
            conn.close()
            raise
    migrate(conn)
    return conn


class Database:
    """The library file: hands out one connection per thread, all on the same path."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._local = threading.local()
        self._lock = threading.Lock()
        self._all: list[Any] = []
        with self._lock:
            self._main = open_connection(self.path)

    @property
    def conn(self) -> Any:
        """The connection for the calling thread."""
        if threading.current_thread() is threading.main_thread():
            return self._main
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = open_connection(self.path)
            self._local.conn = conn
            with self._lock:
                self._all.append(conn)
        return conn

    def close(self) -> None:
        with self._lock:
            for conn in [self._main, *self._all]:
                try:
                    conn.close()
                except Exception:  # noqa: BLE001 - closing best effort from any thread
                    pass
            self._all.clear()
