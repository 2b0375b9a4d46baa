"""The one way the repositories write several statements as a unit."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def transaction(conn: Any) -> Iterator[Any]:
    """`BEGIN IMMEDIATE` … `COMMIT`, or `ROLLBACK` and re-raise on any exception (KeyboardInterrupt too).

    IMMEDIATE takes the write lock up front, so a second writer waits (busy_timeout) at BEGIN instead
    of failing half-way through. Connections are opened with isolation_level=None (autocommit), so
    these statements are the only transaction control. Yields `conn` for convenience.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
