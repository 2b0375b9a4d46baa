"""Bookmarks, highlights and notes: storage, undo, and anchors found again after the pages change."""

from __future__ import annotations

from pathlib import Path

from reader.adapters.sqlite.book_repository import SqliteBookRepository
from reader.adapters.sqlite.connection import open_connection
from reader.adapters.sqlite.migrations import BOOKMARK_ANCHORS_FROM, SCHEMA_VERSION, migrate
from reader.app.notes.anchoring import BookText, find_anchor, make_anchor
from reader.app.notes.undo import UndoStack
from reader.app.pages.chunking import make_chunks
from reader.domain.models import Page
from reader.services import Services
from tests.support.schema_history import roll_back
from tests.tui_helpers import write_book


def imported(tmp_path: Path) -> tuple[Services, str, Path]:
    services = Services.open()
    path = write_book(tmp_path, chapters=3)
    outcome = services.importer.import_file(path)
    assert outcome.ok and outcome.book is not None
    return services, outcome.book.id, path


def page_text(services: Services, book_id: str, page: int) -> str:
    return services.pages.range_text(book_id, page, page)


def test_schema_upgrade_from_the_previous_version_adds_marks_and_keeps_books(tmp_path: Path) -> None:
    import sqlean

    path = tmp_path / "old.db"
    old = sqlean.connect(str(path), isolation_level=None)
    migrate(old, target=SCHEMA_VERSION - 1)
    old.execute(
        "INSERT INTO books (id, title, format, source_path, page_count, index_version, imported_at) "
        "VALUES ('b1', 'Old', 'txt', '/x', 3, 1, '2026-01-01')"
    )
    old.close()
    conn = open_connection(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert SqliteBookRepository(conn).get("b1") is not None
    conn.execute("INSERT INTO bookmarks (book_id, page) VALUES ('b1', 2)")
    conn.execute("INSERT INTO annotations (book_id, page, start, end, quote) VALUES ('b1', 1, 0, 3, 'Old')")
    conn.execute("INSERT INTO reading_log (book_id, day, seconds) VALUES ('b1', '2026-01-02', 60)")
    assert conn.execute("SELECT count(*) FROM bookmarks").fetchone()[0] == 1


def test_bookmark_toggles_names_and_undoes_its_removal(tmp_path: Path) -> None:
    services, book_id, _ = imported(tmp_path)
    bookmarks = services.bookmarks
    added = bookmarks.toggle(book_id, 3).added
    assert added is not None and added.page == 3
    bookmarks.name(book_id, 5, "the storm")
    assert [(b.page, b.name) for b in bookmarks.list(book_id)] == [(3, ""), (5, "the storm")]
    removed = bookmarks.toggle(book_id, 5).removed
    assert removed is not None and [b.page for b in bookmarks.list(book_id)] == [3]
    undo = UndoStack()
    undo.push("bookmark", lambda: bookmarks.restore(removed))
    assert undo.undo() == "bookmark"
    assert [(b.page, b.name) for b in bookmarks.list(book_id)] == [(3, ""), (5, "the storm")]
    assert undo.undo() is None


def test_highlight_and_note_are_stored_listed_and_restored_after_removal(tmp_path: Path) -> None:
    services, book_id, _ = imported(tmp_path)
    notes = services.annotations
    text = page_text(services, book_id, 2)
    start = text.index("grey tide")
    highlight = notes.highlight(book_id, 2, text, start - 1, start + len("grey tide"))
    assert highlight.quote == "grey tide" and highlight.kind == "highlight"
    assert highlight.anchor.prefix == text[start - 40 : start]
    note = notes.highlight(book_id, 1, page_text(services, book_id, 1), 0, 9, note="Opening line")
    assert note.kind == "note"
    assert [a.page for a in notes.list(book_id)] == [1, 2]
    assert [a.page for a in notes.list(book_id, up_to_page=1)] == [1]
    assert [a.id for a in notes.on_page(book_id, 2)] == [highlight.id]
    removed = notes.remove(highlight.id)
    assert removed is not None and notes.on_page(book_id, 2) == []
    notes.restore(removed)
    assert notes.on_page(book_id, 2) == [highlight]
    assert notes.set_note(highlight.id, " kept ") is not None
    assert notes.annotations.get(highlight.id).note == "kept"  # type: ignore[union-attr]


def test_reindex_keeps_marks_and_finds_moved_anchors_again(tmp_path: Path) -> None:
    services, book_id, path = imported(tmp_path)
    text = page_text(services, book_id, 4)
    quote_at = text.index("Paragraph")
    highlight = services.annotations.highlight(book_id, 4, text, quote_at, quote_at + 40, note="mine")
    services.bookmarks.toggle(book_id, 4)
    # as if an older reader had paginated the book differently: the anchor points elsewhere
    services.db.conn.execute(
        "UPDATE annotations SET page = 2, start = 5, end = 45 WHERE id = ?", (highlight.id,)
    )
    outcome = services.importer.import_file(path, force=True)
    assert outcome.status == "reindexed"
    assert "1 highlight re-anchored" in outcome.message
    found = services.annotations.annotations.get(highlight.id)
    assert found is not None and found.anchor == highlight.anchor and found.note == "mine"
    assert [b.page for b in services.bookmarks.list(book_id)] == [4]
    # an unchanged re-import keeps everything where it is
    again = services.importer.import_file(path, force=True)
    assert "re-anchored" not in again.message
    assert services.annotations.annotations.get(highlight.id) == found


def test_anchor_follows_its_text_when_pages_shift(tmp_path: Path) -> None:
    services, book_id, _ = imported(tmp_path)
    book = services.books.get(book_id)
    assert book is not None
    texts = [page_text(services, book_id, n) for n in range(1, book.page_count + 1)]
    target = texts[3]
    start = target.index("Paragraph")
    highlight = services.annotations.highlight(book_id, 4, target, start, start + 60)
    # a new pipeline splits the first page in two: every later page moves one on
    half = len(texts[0]) // 2
    shifted = [texts[0][:half], texts[0][half:], *texts[1:]]
    repo = SqliteBookRepository(services.db.conn)
    pages = [Page(i, str(i)) for i in range(1, len(shifted) + 1)]
    repo.replace(
        book.__class__(**{**book.__dict__, "page_count": len(shifted)}),
        1,
        9,
        pages,
        [],
        make_chunks(book_id, shifted),
    )
    report = services.annotations.reanchor(book_id, old_page_count=book.page_count)
    assert report.moved == 1 and report.orphaned == 0
    moved = services.annotations.annotations.get(highlight.id)
    assert moved is not None and moved.page == 5 and not moved.orphaned
    assert page_text(services, book_id, 5)[moved.anchor.start : moved.anchor.end] == highlight.quote


def test_an_anchor_no_longer_found_is_kept_as_orphaned_and_found_again_later(tmp_path: Path) -> None:
    services, book_id, path = imported(tmp_path)
    text = page_text(services, book_id, 2)
    highlight = services.annotations.highlight(book_id, 2, text, 0, 30, note="gone?")
    services.db.conn.execute(
        "UPDATE annotations SET quote = 'words this book never had at all', start = 0, end = 10 WHERE id = ?",
        (highlight.id,),
    )
    outcome = services.importer.import_file(path, force=True)
    assert "1 no longer found" in outcome.message
    orphan = services.annotations.annotations.get(highlight.id)
    assert orphan is not None and orphan.orphaned and orphan.note == "gone?"
    assert orphan in services.annotations.list(book_id)
    assert services.annotations.on_page(book_id, 2) == []
    # the quote put back (as a later pipeline might restore the text): found again, no longer orphaned
    services.db.conn.execute("UPDATE annotations SET quote = ? WHERE id = ?", (highlight.quote, highlight.id))
    report = services.annotations.reanchor(book_id)
    assert report.found_again == 1
    assert not services.annotations.annotations.get(highlight.id).orphaned  # type: ignore[union-attr]


def test_same_quote_twice_is_told_apart_by_its_context() -> None:
    pages = ["The bell rang. Then the fog came.", "Later the bell rang. Then silence fell over the rock."]
    anchor = make_anchor(2, pages[1], pages[1].index("the bell"), pages[1].index("the bell") + 13)
    found = find_anchor(anchor, BookText(pages), near=1)
    assert found is not None and found.page == 2 and found.start == pages[1].index("the bell")


def test_a_slightly_changed_quote_is_found_fuzzily_nearby() -> None:
    old = "The keeper climbed the stair each night and trimmed the wick."
    anchor = make_anchor(1, old, 0, len(old))
    new = ["Front page.", "The keeper climbed the stairs each night and trimmed the wick. More."]
    found = find_anchor(anchor, BookText(new), near=1)
    assert found is not None and found.page == 2 and new[1][found.start : found.end].startswith("The keeper")


def test_removing_a_book_removes_its_marks_but_a_reindex_does_not(tmp_path: Path) -> None:
    services, book_id, _ = imported(tmp_path)
    services.bookmarks.toggle(book_id, 1)
    services.annotations.highlight(book_id, 1, page_text(services, book_id, 1), 0, 9)
    assert services.books.remove(book_id)
    conn = services.db.conn
    for table in ("bookmarks", "annotations", "reading_log"):
        assert conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == 0


def shift_pages(services: Services, book_id: str, texts: list[str]) -> int:
    """Store the book again with its first page split in two (every later page moves one on)."""
    book = services.books.get(book_id)
    assert book is not None
    half = len(texts[0]) // 2
    shifted = [texts[0][:half], texts[0][half:], *texts[1:]]
    pages = [Page(i, str(i)) for i in range(1, len(shifted) + 1)]
    SqliteBookRepository(services.db.conn).replace(
        book.__class__(**{**book.__dict__, "page_count": len(shifted)}),
        1,
        9,
        pages,
        [],
        make_chunks(book_id, shifted),
    )
    return book.page_count


def test_a_bookmark_moves_with_its_page_text_and_is_orphaned_when_it_is_gone(tmp_path: Path) -> None:
    services, book_id, _ = imported(tmp_path)
    book = services.books.get(book_id)
    assert book is not None
    texts = [page_text(services, book_id, n) for n in range(1, book.page_count + 1)]
    marked = services.bookmarks.name(book_id, 4, "the tide")
    assert marked.anchor and " ".join(texts[3].split()).startswith(marked.anchor)
    lost = services.bookmarks.name(book_id, 6, "lost")
    services.db.conn.execute("UPDATE bookmarks SET anchor = 'words this book never had' WHERE id = ?", (lost.id,))
    report = services.annotations.reanchor(book_id, old_page_count=shift_pages(services, book_id, texts))
    assert report.bookmarks.moved == 1 and report.bookmarks.orphaned == 1
    assert "1 bookmark moved with their text" in report.message and "1 bookmark no longer found" in report.message
    by_name = {b.name: b for b in services.bookmarks.list(book_id)}
    assert by_name["the tide"].page == 5 and not by_name["the tide"].orphaned
    assert by_name["the tide"].id == marked.id and by_name["the tide"].anchor == marked.anchor
    assert by_name["lost"].page == 6 and by_name["lost"].orphaned  # kept where it was, never dropped
    # its text back (as a later pipeline might restore it): found again
    services.db.conn.execute("UPDATE bookmarks SET anchor = ? WHERE id = ?", (marked.anchor, lost.id))
    again = services.annotations.reanchor(book_id)
    assert again.bookmarks.found_again == 1 and again.bookmarks.merged == 1
    (merged,) = services.bookmarks.list(book_id)
    assert merged.page == 5 and merged.name == "the tide · lost" and not merged.orphaned


def test_a_bookmark_on_a_page_without_text_keeps_its_page_number(tmp_path: Path) -> None:
    services, book_id, path = imported(tmp_path)
    services.bookmarks.toggle(book_id, 3)
    services.db.conn.execute("UPDATE bookmarks SET anchor = '' WHERE book_id = ?", (book_id,))
    outcome = services.importer.import_file(path, force=True)
    assert outcome.status == "reindexed" and "bookmark" not in outcome.message
    assert [(b.page, b.orphaned) for b in services.bookmarks.list(book_id)] == [(3, False)]


def test_the_upgrade_gives_existing_bookmarks_the_start_of_their_page_text(tmp_path: Path) -> None:
    import sqlean

    services, book_id, _ = imported(tmp_path)
    db_path = services.db.path
    services.db.close()
    old = sqlean.connect(str(db_path), isolation_level=None)
    roll_back(old, BOOKMARK_ANCHORS_FROM)
    old.execute("INSERT INTO bookmarks (book_id, page, name) VALUES (?, 2, 'old')", (book_id,))
    old.close()
    upgraded = Services.open(db_path)
    (bookmark,) = upgraded.bookmarks.list(book_id)
    assert bookmark.name == "old" and not bookmark.orphaned
    assert bookmark.anchor and " ".join(page_text(upgraded, book_id, 2).split()).startswith(
        " ".join(bookmark.anchor.split())
    )
