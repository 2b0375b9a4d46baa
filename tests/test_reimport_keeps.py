"""A re-import (`reader import --force`) or `reader reindex` after the pipeline's version moved on remakes
what was read from the file and keeps everything of the reader's own: position, bookmarks, highlights,
notes, conversations, the reading log, and page text read by OCR (no second `reader ocr`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from reader.adapters.sqlite.book_repository import READER_TABLES, derived_tables
from reader.adapters.sqlite.migrations import INDEX_VERSION
from reader.cli.main import main
from reader.domain.models import Book
from reader.services import Services
from tests.fixtures_formats import SCANNED_PAGES, write_scanned_book

PAGES = SCANNED_PAGES


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def readers_own(services: Services, book: Book) -> dict[str, Any]:
    """Everything of the reader's own about `book`, as comparable values."""
    conn = services.db.conn
    conversations = services.chat.conversations(book.id)
    return {
        "position": services.books.get(book.id).current_page,  # type: ignore[union-attr]
        "bookmarks": [(b.page, b.name) for b in services.bookmarks.list(book.id)],
        "marks": [(a.page, a.quote, a.note, a.orphaned) for a in services.annotations.list(book.id)],
        "conversations": [
            (c.title, [(m.role, m.content) for m in services.chat.messages(c.id)]) for c in conversations
        ],
        "log": [tuple(r) for r in conn.execute("SELECT * FROM reading_log WHERE book_id = ?", (book.id,))],
        "recognised": services.books.page_texts(book.id),
    }


def read_a_scanned_book(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], *, ocr: bool = True
) -> tuple[Path, dict[str, Any]]:
    """Import a scanned PDF, OCR it (or store what OCR and a model would read: the same path, without
    the recognizer's seconds), and read it: a position, marks, a conversation, reading time."""
    path = write_scanned_book(tmp_path)
    assert run(capsys, "import", str(path))[0] == 0
    if ocr:
        code, out, err = run(capsys, "ocr", "Gull Rock")
        assert code == 0 and "read 3 of 3 pages" in out, err
    else:
        services = Services.open(None)
        try:
            book_id = services.find_book("gull").id
            for number, source in ((2, "ocr"), (3, "ocr"), (4, "model")):
                services.page_text_index.save(book_id, number, source, " ".join(PAGES[number - 1]))
            services.page_text_index.rebuild_concepts(services.find_book("gull"))
        finally:
            services.close()
    assert run(capsys, "set-page", "Gull Rock", "3")[0] == 0
    services = Services.open(None)
    try:
        book = services.find_book("gull")
        services.bookmarks.name(book.id, 2, "the gulls")
        page = services.pages.page_text(book, 3).text
        start = page.index("rowed")
        services.annotations.highlight(book.id, 3, page, start, start + len("rowed the skiff"), "she rows")
        services.reading_time.add(book.id, words=120, seconds=60.0, pages=2)
        code, out, err = run(capsys, "ask", "Gull Rock", "Who rowed the skiff?")
        assert code == 0 and "skiff" in out, err
        before = readers_own(services, book)
    finally:
        services.close()
    assert before["conversations"] and before["marks"] and before["bookmarks"] and before["log"]
    assert sorted(before["recognised"]) == [2, 3, 4]
    return path, before


def after_reimport(capsys: pytest.CaptureFixture[str], before: dict[str, Any]) -> None:
    services = Services.open(None)
    try:
        book = services.find_book("gull")
        assert readers_own(services, book) == before
    finally:
        services.close()
    code, out, _ = run(capsys, "search", "Gull Rock", "skiff", "--json")
    assert "Then Margaret rowed the skiff" in out  # the OCR text is searchable at once
    code, out, _ = run(capsys, "search-page", "Gull Rock", "3", "--json")
    assert json.loads(out)["text"] == "Then Margaret rowed the skiff toward the harbour lantern."
    assert json.loads(out)["text_source"] == "ocr"
    code, out, _ = run(capsys, "ocr", "Gull Rock")
    assert "read 0 of 3 pages" in out and "3 already done" in out  # nothing to read again
    code, out, _ = run(capsys, "search-page", "Gull Rock", "4", "--json")
    assert "stormy evening" in json.loads(out)["text"]


def test_a_forced_reimport_keeps_ocr_text_and_all_reader_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, before = read_a_scanned_book(tmp_path, capsys)
    code, out, err = run(capsys, "import", "--force", str(path))
    assert code == 0 and "Reindexed Gull Rock Scan" in out, err
    after_reimport(capsys, before)


def test_reindex_brings_books_of_an_older_pipeline_up_to_date_keeping_reader_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, before = read_a_scanned_book(tmp_path, capsys, ocr=False)
    assert before["recognised"][4][0] == "model"
    services = Services.open(None)
    try:  # as if the book had been imported before an extractor changed (INDEX_VERSION was bumped)
        services.db.conn.execute("UPDATE books SET index_version = ?", (INDEX_VERSION - 1,))
        services.db.conn.execute("DELETE FROM chapters")  # what the older extractor found
    finally:
        services.close()
    code, out, _ = run(capsys, "list")
    assert "reader reindex" in out  # the library says some books are out of date
    code, out, err = run(capsys, "reindex")
    assert code == 0 and "Reindexed Gull Rock Scan" in out, err
    code, out, _ = run(capsys, "reindex")
    assert "nothing to do" in out
    services = Services.open(None)
    try:
        assert services.books.index_version(services.find_book("gull").id) == INDEX_VERSION
    finally:
        services.close()
    after_reimport(capsys, before)


def test_a_page_that_now_has_a_text_layer_takes_it_over_old_ocr_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_scanned_book(tmp_path)
    assert run(capsys, "import", str(path))[0] == 0
    services = Services.open(None)
    try:
        book = services.find_book("gull")
        services.page_text_index.save(book.id, 1, "ocr", "Text read from the picture of page one.")
        services.page_text_index.save(book.id, 2, "ocr", "The keeper told Margaret of the gulls.")
    finally:
        services.close()
    assert run(capsys, "import", "--force", str(path))[0] == 0
    services = Services.open(None)
    try:
        book = services.find_book("gull")
        assert services.books.page_texts(book.id) == {2: ("ocr", "The keeper told Margaret of the gulls.")}
        assert "Preface by the editor" in services.pages.page_text(book, 1).text  # its text layer
    finally:
        services.close()


def test_every_table_hanging_off_a_book_is_either_remade_by_an_import_or_the_readers_own() -> None:
    services = Services.open(None)
    try:
        derived = set(derived_tables(services.db.conn))
    finally:
        services.close()
    assert {"pages", "chapters", "chunks", "page_texts", "summaries"} <= derived
    assert not derived & READER_TABLES and "conversations" in READER_TABLES
