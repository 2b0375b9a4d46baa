"""The library file: migrations, atomic writes, page-range lookup."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader.adapters.sqlite.book_repository import SqliteBookRepository
from reader.adapters.sqlite.chunk_repository import SqliteChunkRepository
from reader.adapters.sqlite.connection import open_connection
from reader.adapters.sqlite.migrations import MIGRATIONS, SCHEMA_VERSION, migrate
from reader.app.pages.chunking import make_chunks, split_page
from reader.domain.models import Book, Chapter, Page, PageVisuals, join_chunks


def make_book(book_id: str = "ab" * 32, pages: int = 3) -> Book:
    return Book(
        id=book_id,
        title="Test Book",
        author="A. Writer",
        language="en",
        format="txt",
        source_path="/tmp/x.txt",
        page_count=pages,
        current_page=1,
        pagination="synthetic",
        imported_at="2026-01-01T00:00:00Z",
    )


def store_book(conn, book: Book, texts: list[str]) -> None:
    repo = SqliteBookRepository(conn)
    pages = [Page(i, str(i)) for i in range(1, len(texts) + 1)]
    chapters = [Chapter(0, "One", 1, len(texts))]
    repo.replace(book, 10, 1, pages, chapters, make_chunks(book.id, texts))


def test_fresh_file_has_current_schema_and_pragmas(tmp_path: Path) -> None:
    conn = open_connection(tmp_path / "lib.db")
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert conn.execute("SELECT vec_version()").fetchone()[0].startswith("v0.1")


def test_migration_from_previous_schema_keeps_books(tmp_path: Path) -> None:
    import sqlean

    path = tmp_path / "old.db"
    old = sqlean.connect(str(path), isolation_level=None)
    migrate(old, target=SCHEMA_VERSION - 1)
    assert old.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION - 1
    old.execute(
        "INSERT INTO books (id, title, format, source_path, page_count, index_version, imported_at) "
        "VALUES (?, 'Old', 'txt', '/x', 1, 1, '2026-01-01')",
        ("ab" * 32,),
    )
    old.execute(
        "INSERT INTO chunks (id, book_id, chunk_index, start_page, end_page, text) "
        "VALUES ('c0', ?, 0, 1, 1, 'old words')",
        ("ab" * 32,),
    )
    old.close()

    conn = open_connection(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert SqliteBookRepository(conn).get("ab" * 32) is not None
    conn.execute("INSERT INTO conversations (book_id, title) VALUES (?, 'x')", ("ab" * 32,))
    assert len(MIGRATIONS) == SCHEMA_VERSION
    assert conn.execute("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'words'").fetchone()[0] == 1


def test_newer_schema_is_refused_with_one_line(tmp_path: Path) -> None:
    from reader.domain.errors import ReaderError

    conn = open_connection(tmp_path / "lib.db")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    with pytest.raises(ReaderError, match="upgrade reader"):
        migrate(conn)


def test_get_by_page_range_returns_overlapping_chunks_in_order(tmp_path: Path) -> None:
    conn = open_connection(tmp_path / "lib.db")
    book = make_book(pages=4)
    store_book(conn, book, ["page one text", "page two text", "page three text", "page four"])
    chunks = SqliteChunkRepository(conn).get_by_page_range(book.id, 2, 3)
    assert [c.start_page for c in chunks] == [2, 3]
    assert join_chunks(chunks) == "page two text\n\npage three text"
    assert SqliteChunkRepository(conn).get_by_page_range(book.id, 5, 9) == []


def test_fts_index_follows_chunks_and_removal_cascades(tmp_path: Path) -> None:
    conn = open_connection(tmp_path / "lib.db")
    book = make_book()
    store_book(conn, book, ["the lighthouse keeper", "a gull on the rock", "the sealed letter"])
    hits = conn.execute("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'lighthouse'").fetchone()[0]
    assert hits == 1
    assert SqliteBookRepository(conn).remove(book.id)
    assert conn.execute("SELECT count(*) FROM chunks").fetchone()[0] == 0
    assert conn.execute("SELECT count(*) FROM pages").fetchone()[0] == 0
    hits = conn.execute("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'lighthouse'").fetchone()[0]
    assert hits == 0


def test_replace_is_all_or_nothing(tmp_path: Path) -> None:
    conn = open_connection(tmp_path / "lib.db")
    repo = SqliteBookRepository(conn)
    book = make_book()
    chunks = make_chunks(book.id, ["one", "two", "three"])
    duplicate = chunks + [chunks[0]]  # the unique chunk id makes the last insert fail
    with pytest.raises(Exception, match="UNIQUE"):
        repo.replace(book, 1, 1, [Page(1, "1"), Page(2, "2"), Page(3, "3")], [], duplicate)
    assert repo.get(book.id) is None
    assert conn.execute("SELECT count(*) FROM pages").fetchone()[0] == 0


def test_replace_keeps_reading_position(tmp_path: Path) -> None:
    conn = open_connection(tmp_path / "lib.db")
    repo = SqliteBookRepository(conn)
    book = make_book()
    store_book(conn, book, ["a", "b", "c"])
    repo.set_current_page(book.id, 3)
    store_book(conn, book, ["a", "b", "c"])
    stored = repo.get(book.id)
    assert stored is not None and stored.current_page == 3 and stored.last_read_at


def test_split_page_round_trips_text() -> None:
    long_paragraph = " ".join(f"Sentence number {i} is here." for i in range(200))
    text = "Short opening.\n\n" + long_paragraph + "\n\nClosing words."
    pieces = split_page(text, target=300)
    assert len(pieces) > 3
    assert all(len(p.text) <= 2 * 300 for p in pieces)
    chunks = make_chunks("f" * 64, [text])
    assert join_chunks(chunks) == text


def test_split_keeps_closing_quotes() -> None:
    paragraph = " ".join(f'"Stop number {i}!" she said. (It was late.) Then more.' for i in range(60))
    chunks = make_chunks("e" * 64, [paragraph])
    assert len(chunks) > 1
    assert join_chunks(chunks) == paragraph


def test_pages_read_back_are_the_pages_stored_with_every_field(tmp_path: Path) -> None:
    from dataclasses import fields

    conn = open_connection(tmp_path / "lib.db")
    book = make_book()
    figure = PageVisuals(image_count=2, image_area=0.5, drawing_area=0.25, importance=4)
    pages = [Page(1, "i"), Page(2, "ii", figure), Page(3, "1")]
    repo = SqliteBookRepository(conn)
    repo.replace(book, 10, 1, pages, [Chapter(0, "One", 1, 3)], make_chunks(book.id, ["One.", "Two.", "Three."]))
    conn.execute("INSERT INTO page_texts (book_id, page, source, text) VALUES (?, 3, 'ocr', 'Three.')", (book.id,))
    read = repo.pages(book.id)
    assert read == [pages[0], pages[1], Page(3, "1", text_source="ocr")]
    assert read[1].visual_importance == 4 and read[1].has_figures
    assert all(set(vars(page)) == {f.name for f in fields(Page)} for page in read)  # a field added is read too
    with pytest.raises(AttributeError):
        read[0].label = "changed"  # type: ignore[misc]  # still frozen


def test_a_book_read_back_is_the_book_stored_with_every_field(tmp_path: Path) -> None:
    from dataclasses import fields, replace

    conn = open_connection(tmp_path / "lib.db")
    book = replace(make_book(), warnings=("odd encoding",), story_start=2, story_end=3, encoding="cp1252")
    store_book(conn, book, ["One.", "Two.", "Three."])
    repo = SqliteBookRepository(conn)
    repo.set_current_page(book.id, 2)
    (listed,) = repo.list()
    assert listed.last_read_at is not None
    assert listed == repo.get(book.id) == replace(book, current_page=2, last_read_at=listed.last_read_at)
    assert set(vars(listed)) == {f.name for f in fields(Book)}  # a field added to Book is read too
    with pytest.raises(AttributeError):
        listed.title = "changed"  # type: ignore[misc]  # still frozen
