"""Reading time per book and local day in the library file."""

from __future__ import annotations

from typing import Any

from reader.domain.reading_log import ReadingDay


class SqliteReadingLogRepository:
    """Adds to and reads rows of the `reading_log` table."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def add(self, book_id: str, day: str, seconds: float, pages: int, words: int) -> None:
        self.conn.execute(
            "INSERT INTO reading_log (book_id, day, seconds, pages, words) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT(book_id, day) DO UPDATE SET seconds = seconds + excluded.seconds, "
            "pages = pages + excluded.pages, words = words + excluded.words",
            (book_id, day, seconds, pages, words),
        )

    def finished(self) -> dict[str, str]:
        rows = self.conn.execute("SELECT book_id, finished_on FROM finished_books").fetchall()
        return {book_id: finished_on for book_id, finished_on in rows}

    def days(self, book_id: str | None = None, since: str | None = None) -> list[ReadingDay]:
        where, params = ["day >= ?"], [since or ""]
        if book_id is not None:
            where.append("book_id = ?")
            params.append(book_id)
        rows = self.conn.execute(
            f"SELECT book_id, day, seconds, pages, words FROM reading_log WHERE {' AND '.join(where)} "
            "ORDER BY day, book_id",
            params,
        ).fetchall()
        return [ReadingDay(*row) for row in rows]
