"""Books, pages and chapters in the library file."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from reader.adapters.sqlite.concept_repository import next_concept_id, write_concepts
from reader.adapters.sqlite.migrations import COUNT_PAGE_WORDS
from reader.adapters.sqlite.transaction import transaction
from reader.domain.models import Book, Chapter, Chunk, Page, PageVisuals

if TYPE_CHECKING:
    from reader.domain.images import BookImage
    from reader.domain.knowledge import ExtractedConcept

_BOOK_COLUMNS = (
    "id, title, author, language, format, source_path, page_count, current_page, pagination, "
    "imported_at, last_read_at, warnings, index_version, story_start, story_end, encoding"
)


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _book(row: Sequence[Any]) -> Book:
    """The book a row of `_BOOK_COLUMNS` holds. Its fields are set at once, not one by one through the
    frozen dataclass's __init__ (an `object.__setattr__` call per field): the library pane reads every
    book on the app's start-up path, and 1,000 books took 6 ms that way, 2 ms this way."""
    book = _bare(Book)
    book.__dict__.update(
        id=row[0],
        title=row[1],
        author=row[2],
        language=row[3],
        format=row[4],
        source_path=row[5],
        page_count=row[6],
        current_page=row[7],
        pagination=row[8],
        imported_at=row[9],
        last_read_at=row[10],
        warnings=_warnings(row[11]),
        story_start=row[13],
        story_end=row[14],
        encoding=row[15],
    )
    return book


def _page(number: int, label: str, visuals: PageVisuals, enriched_importance: int | None, text_source: str) -> Page:
    """A page read back, its fields set at once as `_book` does: opening a book reads every page on the
    way to its first page on screen (1,000 pages: 3.5 ms through the dataclass's __init__, 1 ms this way)."""
    page = _bare(Page)
    page.__dict__.update(
        number=number,
        label=label,
        visuals=visuals,
        enriched_importance=enriched_importance,
        text_source=text_source,
    )
    return page


_bare = object.__new__


class SqliteBookRepository:
    """Reads and writes books with their pages and chapters."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def get(self, book_id: str) -> Book | None:
        row = self.conn.execute(f"SELECT {_BOOK_COLUMNS} FROM books WHERE id = ?", (book_id,)).fetchone()
        return _book(row) if row else None

    def list(self) -> list[Book]:
        """All books, the most recently read first, then by title."""
        rows = self.conn.execute(
            f"SELECT {_BOOK_COLUMNS} FROM books "
            "ORDER BY last_read_at IS NULL, last_read_at DESC, title COLLATE NOCASE"
        ).fetchall()
        return [_book(row) for row in rows]

    def titles(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT id, title FROM books").fetchall())

    def index_version(self, book_id: str) -> int | None:
        row = self.conn.execute("SELECT index_version FROM books WHERE id = ?", (book_id,)).fetchone()
        return row[0] if row else None

    def stale(self, index_version: int) -> builtins.list[Book]:
        """Books indexed by an older version of the pipeline."""
        rows = self.conn.execute(
            f"SELECT {_BOOK_COLUMNS} FROM books WHERE index_version < ? ORDER BY title", (index_version,)
        ).fetchall()
        return [_book(row) for row in rows]

    def pages(self, book_id: str) -> builtins.list[Page]:
        """The book's pages with their visuals; a model's visual_importance (from enrich) where there is one."""
        rows = self.conn.execute(
            "SELECT p.number, p.label, p.image_count, p.image_area, p.drawing_area, p.visual_importance, "
            "e.visual_importance, t.source FROM pages p LEFT JOIN page_enrichments e "
            "ON e.book_id = p.book_id AND e.page = p.number LEFT JOIN page_texts t "
            "ON t.book_id = p.book_id AND t.page = p.number WHERE p.book_id = ? ORDER BY p.number",
            (book_id,),
        ).fetchall()
        visuals: dict[tuple[Any, ...], PageVisuals] = {}  # shared: most pages of a book have the same
        return [
            _page(
                row[0],
                row[1],
                visuals.get(row[2:6]) or visuals.setdefault(row[2:6], PageVisuals(*row[2:6])),
                row[6],
                row[7] or "",
            )
            for row in rows
        ]

    def chapters(self, book_id: str) -> builtins.list[Chapter]:
        rows = self.conn.execute(
            "SELECT idx, title, start_page, end_page, level FROM chapters WHERE book_id = ? ORDER BY idx",
            (book_id,),
        ).fetchall()
        return [Chapter(index=r[0], title=r[1], start_page=r[2], end_page=r[3], level=r[4]) for r in rows]

    def set_current_page(self, book_id: str, page: int) -> None:
        """Move the reading position; reaching the story's last page records today (local) as the day
        the book was finished, the first time."""
        self.conn.execute(
            "UPDATE books SET current_page = ?, last_read_at = ? WHERE id = ?", (page, utc_now(), book_id)
        )
        self.conn.execute(
            "INSERT OR IGNORE INTO finished_books (book_id, finished_on) "
            "SELECT id, date('now', 'localtime') FROM books "
            "WHERE id = ? AND current_page >= min(coalesce(story_end, page_count), page_count)",
            (book_id,),
        )

    def mark_read(self, book_id: str) -> None:
        """Record that the book was just opened, so it sorts first."""
        self.conn.execute("UPDATE books SET last_read_at = ? WHERE id = ?", (utc_now(), book_id))

    def remove(self, book_id: str) -> bool:
        """Delete a book with everything derived from it (pages, chunks, vectors, conversations)."""
        with transaction(self.conn):
            self._delete(book_id)
            deleted = self.conn.execute("SELECT changes()").fetchone()[0]
            from reader.adapters.sqlite.bookmark_repository import delete_reader_marks  # lazy: start-up

            delete_reader_marks(self.conn, book_id)  # kept by replace(): a reindex keeps them
        return bool(deleted)

    def _delete(self, book_id: str) -> None:
        """Delete inside the caller's transaction."""
        for (table,) in self.conn.execute("SELECT table_name FROM embedding_spaces").fetchall():
            self.conn.execute(f'DELETE FROM "{table}" WHERE book_id = ?', (book_id,))
        self.conn.execute("DELETE FROM pages WHERE book_id = ?", (book_id,))  # first: see derived_tables
        self.conn.execute("DELETE FROM books WHERE id = ?", (book_id,))

    def _enrichments_to_keep(
        self, book_id: str, chunks: Sequence[Chunk], page_count: int
    ) -> builtins.list[tuple[Any, ...]]:
        """Stored enrichments of pages whose text is unchanged in `chunks` (they cost a model call each)."""
        rows = self.conn.execute(
            "SELECT page, schema_version, content_hash, model, data, visual_importance, search_text, created_at "
            "FROM page_enrichments WHERE book_id = ?",
            (book_id,),
        ).fetchall()
        if not rows:
            return []
        from reader.domain.enrichment import page_content_hash  # lazy: not needed at start-up

        by_page: dict[int, builtins.list[Chunk]] = {}
        for chunk in chunks:
            by_page.setdefault(chunk.start_page, []).append(chunk)
        return [
            tuple(row)
            for row in rows
            if row[0] <= page_count and row[2] == page_content_hash(by_page.get(row[0], ()), row[0])
        ]

    def replace(
        self,
        book: Book,
        file_size: int,
        index_version: int,
        pages: Sequence[Page],
        chapters: Sequence[Chapter],
        chunks: Sequence[Chunk],
        concepts: Sequence[ExtractedConcept] = (),
        page_texts: Sequence[tuple[int, str, str]] = (),
        images: Sequence[BookImage] = (),
    ) -> None:
        """Write a whole book in one transaction, replacing any earlier copy; all or nothing.

        What the import made of the file goes (`_clear_derived`); the reader's own stays: the reading
        position (clamped to the new page count), conversations, and the tables without a foreign key
        to books (bookmarks, highlights, notes, the reading log). Page enrichments of pages whose text
        is unchanged are kept; `page_texts` ((page, source, text)) are the recognised texts to store
        again (the caller's chunks hold them). The concept map, cached summaries and pictures (those on
        pages and pages that are pictures) are made anew.
        """
        conn = self.conn
        with transaction(conn):
            previous = conn.execute(
                "SELECT current_page, last_read_at FROM books WHERE id = ?", (book.id,)
            ).fetchone()
            current_page, last_read_at = (previous[0], previous[1]) if previous else (1, None)
            enrichments = self._enrichments_to_keep(book.id, chunks, book.page_count)
            first_concept_id = next_concept_id(conn)  # read before the old map goes: its ids are not reused
            if previous:
                self._clear_derived(book.id)
            columns = (
                book.title,
                book.author,
                book.language,
                book.format,
                book.source_path,
                file_size,
                book.page_count,
                max(1, min(current_page, book.page_count)),
                book.pagination,
                index_version,
                _warnings_json(book.warnings),
                book.imported_at,
                last_read_at,
                book.story_start,
                book.story_end,
                book.encoding,
            )
            if previous:
                conn.execute(
                    "UPDATE books SET title = ?, author = ?, language = ?, format = ?, source_path = ?, "
                    "file_size = ?, page_count = ?, current_page = ?, pagination = ?, index_version = ?, "
                    "warnings = ?, imported_at = ?, last_read_at = ?, story_start = ?, story_end = ?, "
                    "encoding = ? WHERE id = ?",
                    (*columns, book.id),
                )
            else:
                conn.execute(
                    "INSERT INTO books (title, author, language, format, source_path, file_size, page_count, "
                    "current_page, pagination, index_version, warnings, imported_at, last_read_at, story_start, "
                    "story_end, encoding, id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (*columns, book.id),
                )
            # the chunks before their pages, whose words are then counted in one statement (a chunk's trigger
            # finds no page to add its words to)
            conn.executemany(
                "INSERT INTO chunks (id, book_id, chunk_index, start_page, end_page, continues, text) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (c.id, c.book_id, c.index, c.start_page, c.end_page, int(c.continues_paragraph), c.text)
                    for c in chunks
                ],
            )
            conn.executemany(
                "INSERT INTO pages (book_id, number, label, image_count, image_area, drawing_area, "
                "visual_importance) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        book.id,
                        p.number,
                        p.label,
                        p.visuals.image_count,
                        p.visuals.image_area,
                        p.visuals.drawing_area,
                        p.visuals.importance,
                    )
                    for p in pages
                ],
            )
            conn.execute(f"{COUNT_PAGE_WORDS} WHERE book_id = ?", (book.id,))
            conn.executemany(
                "INSERT INTO chapters (book_id, idx, title, start_page, end_page, level) VALUES (?, ?, ?, ?, ?, ?)",
                [(book.id, c.index, c.title, c.start_page, c.end_page, c.level) for c in chapters],
            )
            conn.executemany(
                "INSERT INTO page_enrichments (book_id, page, schema_version, content_hash, model, data, "
                "visual_importance, search_text, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(book.id, *row) for row in enrichments],
            )
            conn.executemany(
                "INSERT INTO page_texts (book_id, page, source, text) VALUES (?, ?, ?, ?)",
                [
                    (book.id, page, source, text)
                    for page, source, text in page_texts
                    if page <= book.page_count
                ],
            )
            write_concepts(conn, book.id, concepts, first_concept_id)
            if images:
                from reader.adapters.sqlite.image_repository import write_images  # lazy: start-up

                write_images(conn, book.id, images)

    def page_texts(self, book_id: str) -> dict[int, tuple[str, str]]:
        """Page -> (source, text) of every page whose text was recognised (OCR, a model's transcription)."""
        rows = self.conn.execute("SELECT page, source, text FROM page_texts WHERE book_id = ?", (book_id,))
        return {row[0]: (row[1], row[2]) for row in rows.fetchall()}

    def _clear_derived(self, book_id: str) -> None:
        """Delete what an import made of the book's file, inside the caller's transaction: every table
        hanging off the book's row by a foreign key except the reader's own (READER_TABLES), and its vectors."""
        for (table,) in self.conn.execute("SELECT table_name FROM embedding_spaces").fetchall():
            self.conn.execute(f'DELETE FROM "{table}" WHERE book_id = ?', (book_id,))
        for table in derived_tables(self.conn):
            self.conn.execute(f'DELETE FROM "{table}" WHERE book_id = ?', (book_id,))


READER_TABLES = frozenset({"conversations"})
"""Tables with a foreign key to books that hold the reader's own data: a re-import keeps their rows.
(Bookmarks, highlights, notes and the reading log have no foreign key to books at all.)"""


def derived_tables(conn: Any) -> list[str]:
    """The tables whose rows an import makes from the book's file: those with a foreign key to books,
    apart from READER_TABLES; `pages` first, so the chunks' delete trigger finds no page left to take
    their words from (0.04 s of removing a 1,000-page book)."""
    rows = conn.execute(
        "SELECT m.name FROM sqlite_master m, pragma_foreign_key_list(m.name) f "
        "WHERE m.type = 'table' AND f.\"table\" = 'books' ORDER BY m.name"
    ).fetchall()
    return sorted((row[0] for row in rows if row[0] not in READER_TABLES), key=lambda table: table != "pages")


def _warnings(column: str | None) -> tuple[str, ...]:
    """A book's stored warnings (a JSON list). Most books have none: then json is not even imported,
    which keeps it off the app's start-up path."""
    if not column or column == "[]":
        return ()
    import json

    return tuple(json.loads(column))


def _warnings_json(warnings: tuple[str, ...]) -> str:
    import json

    return json.dumps(list(warnings))
