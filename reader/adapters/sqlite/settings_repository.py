"""Small key/value settings in the library file (chosen theme, last opened book)."""

from __future__ import annotations

from typing import Any


class SqliteSettingsRepository:
    """Reads and writes rows of the `settings` table."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def get(self, key: str, default: str | None = None) -> str | None:
        """The stored value of `key`, or `default`."""
        row = self.conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    def set(self, key: str, value: str) -> None:
        """Store `value` under `key`, replacing any earlier value."""
        self.conn.execute(
            "INSERT INTO settings (key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    def delete(self, key: str) -> None:
        """Forget `key`."""
        self.conn.execute("DELETE FROM settings WHERE key = ?", (key,))
