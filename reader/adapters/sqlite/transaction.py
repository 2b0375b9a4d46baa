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
        _rollback(conn)
        raise
    try:
        conn.execute("COMMIT")
    except BaseException:  # a full disk at commit: nothing of the transaction stays
        _rollback(conn)
        raise


def _rollback(conn: Any) -> None:
    """Roll back whatever is open; SQLite may already have rolled back (a full disk, an I/O error)."""
    if conn.in_transaction:
        conn.execute("ROLLBACK")
