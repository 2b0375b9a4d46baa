"""The library file is never lost: `reader backup` while an import writes, `reader check` and its
`--repair` (the reader's own data untouched), and the copy made before a schema migration."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import sqlean

from reader.adapters.sqlite.backup import MIGRATION_BACKUPS_KEPT, backup_before_migration
from reader.adapters.sqlite.connection import open_connection
from reader.adapters.sqlite.migrations import SCHEMA_VERSION, migrate
from reader.cli.main import main
from reader.services import Services
from tests.fixtures_books import write_pdf

READER_TABLES = ("books", "bookmarks", "annotations", "conversations", "messages", "reading_log", "settings")
PROJECT = Path(__file__).resolve().parents[1]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write_long_book(path: Path, title: str, chapters: int = 30) -> Path:
    """A plain-text novel of `chapters` chapters of about three pages each."""
    body = "\n\n".join(
        f"CHAPTER {n}\n\n"
        + "\n\n".join(
            f"The keeper of {title} walked the shore in part {n}.{k} and counted {n * k} gulls over the water."
            * 4
            for k in range(12)
        )
        for n in range(1, chapters + 1)
    )
    path.write_text(f"{title}\n\n{body}\n", encoding="utf-8")
    return path


def dump(conn: object, tables: tuple[str, ...] = READER_TABLES) -> dict[str, list[tuple[object, ...]]]:
    return {table: conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall() for table in tables}  # type: ignore[attr-defined]


def test_backup_during_a_running_import_is_a_sound_copy(tmp_path: Path, isolated_env: Path) -> None:
    books = [write_long_book(tmp_path / f"book{n}.txt", f"Harbour {n}", chapters=25) for n in range(6)]
    library = Path(os.environ["READER_DB"])
    Services.open(None).close()  # the library exists before the import starts
    env = dict(os.environ, PYTHONPATH=str(PROJECT))
    importer = subprocess.Popen(
        [sys.executable, "-m", "reader.cli.main", "import", *map(str, books)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    copies: list[Path] = []
    try:
        while importer.poll() is None or not copies:
            services = Services.open(None)
            try:
                copies.append(services.backup(tmp_path / f"copy{len(copies)}.db").path)
            finally:
                services.close()
            time.sleep(0.05)
    finally:
        out, err = importer.communicate(timeout=120)
    assert importer.returncode == 0, err.decode()
    assert b"locked" not in err
    for copy in copies:
        conn = sqlean.connect(str(copy))
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        for book_id, page_count in conn.execute("SELECT id, page_count FROM books").fetchall():
            pages = conn.execute("SELECT count(*) FROM pages WHERE book_id = ?", (book_id,)).fetchone()[0]
            assert pages == page_count  # every book in the copy is whole
        conn.close()
    final = open_connection(copies[-1])
    assert final.execute("SELECT count(*) FROM books").fetchone()[0] <= 6
    final.close()
    assert library.exists() and not list(tmp_path.glob(".*.partial"))


def test_backup_command_default_place_and_refusals(
    tmp_path: Path, isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "import", str(write_pdf(tmp_path / "a.pdf", 2, title="Alpha")))
    code, out, _ = run(capsys, "backup", "--json")
    copy = Path(json.loads(out)["path"])
    assert code == 0 and copy.parent == Path(os.environ["READER_DB"]).parent / "backups" and copy.is_file()
    code, out, _ = run(capsys, "backup", str(tmp_path))  # a folder: a dated file in it
    assert code == 0 and out.startswith(f"Copied the library to {tmp_path}/")
    code, _, err = run(capsys, "backup", os.environ["READER_DB"])
    assert code == 1 and "is the library file itself" in err and len(err.splitlines()) == 1
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    code, _, err = run(capsys, "backup", str(blocker / "copy.db"))
    assert (
        code == 1
        and err.startswith(f"reader: Cannot create the folder {blocker}")
        and len(err.splitlines()) == 1
    )
    assert not list(tmp_path.rglob("*.partial"))


def test_check_finds_what_is_out_of_step_and_repair_never_touches_the_readers_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "import", str(write_pdf(tmp_path / "a.pdf", 4, title="Alpha")))
    run(capsys, "import", str(write_pdf(tmp_path / "b.pdf", 3, title="Beta")))
    code, out, _ = run(capsys, "check")
    assert code == 0 and "The library is sound" in out and "2 books" in out

    services = Services.open(None)
    try:
        alpha, beta = services.find_book("Alpha"), services.find_book("Beta")
        services.books.set_current_page(alpha.id, 3)
        text = services.pages.page_text(alpha, 2).text
        services.annotations.highlight(alpha.id, 2, text, 0, 6, note="a note")
        services.bookmarks.toggle(alpha.id, 2)
        conn = services.db.conn
        conn.execute("INSERT INTO conversations (book_id, title) VALUES (?, 'Talk')", (alpha.id,))
        conn.execute("INSERT INTO messages (conversation_id, role, content) VALUES (1, 'user', 'hi')")
        conn.execute(
            "INSERT INTO annotations (book_id, page, start, end, quote) VALUES ('gone', 1, 0, 1, 'x')"
        )
        space = services.vectors.space("test-model", 4)
        chunks = conn.execute("SELECT rowid, id, book_id, start_page, end_page FROM chunks").fetchall()
        from reader.domain.search import EmbeddingVector

        for book in (alpha, beta):
            mine = [c for c in chunks if c[2] == book.id]
            services.vectors.add(
                space, book.id, [EmbeddingVector(c[1], [0.1, 0.2, 0.3, 0.4], c[3], c[4]) for c in mine]
            )
            services.vectors.mark_embedded(book.id, space)
        before = dump(conn)
        # Damage what is derived: a ghost in the full-text index, a page of no book, a vector of no
        # chunk, a vector lost from a book marked embedded.
        conn.execute("INSERT INTO chunks_fts(rowid, text) VALUES (999999, 'ghost words')")
        conn.execute("PRAGMA foreign_keys = OFF")
        conn.execute("INSERT INTO pages (book_id, number, label) VALUES ('nobook', 1, '1')")
        conn.execute("PRAGMA foreign_keys = ON")
        table = space.table
        conn.execute(
            f'INSERT INTO "{table}" (rowid, book_id, start_page, end_page, chunk_id, embedding) '
            "VALUES (888888, ?, 1, 1, 'no-such-chunk', ?)",
            (alpha.id, b"\x00" * 16),
        )
        lost = next(c[0] for c in chunks if c[2] == beta.id)
        conn.execute(f'DELETE FROM "{table}" WHERE rowid = ?', (lost,))
    finally:
        services.close()

    code, out, err = run(capsys, "check")
    assert code == 1
    problems = err.splitlines()
    assert any("full-text index of the text is out of step" in p for p in problems)
    assert any("1 row of pages point to no books" in p for p in problems)
    assert any("1 vector in embeddings_test_model_4 belong" in p for p in problems)
    assert any(p.startswith("problem: Beta lacks 1 vector") for p in problems)
    assert "note: 1 highlight or note belong to no book" in out

    code, out, err = run(capsys, "check", "--repair")
    assert code == 0, err
    assert out.count("repaired: ") == 4 and "your own data was not touched" in out
    code, out, _ = run(capsys, "check", "--json")
    report = json.loads(out)
    assert report["ok"] and report["findings"] == [] and len(report["kept"]) == 1

    services = Services.open(None)
    try:
        conn = services.db.conn
        assert dump(conn) == before  # positions, marks, notes, conversations: as they were
        code, out, _ = run(capsys, "search", "Alpha", "keeper", "--json")
        assert code == 0 and "ghost" not in out
        assert services.vectors.book_vectors(beta.id)[0].complete is False  # `reader embed` fills it in
    finally:
        services.close()


def old_library(path: Path, version: int) -> Path:
    old = sqlean.connect(str(path), isolation_level=None)
    migrate(old, target=version)
    old.execute(
        "INSERT INTO books (id, title, format, source_path, page_count, index_version, imported_at) "
        "VALUES (?, 'Old', 'txt', '/x', 1, 1, '2026-01-01')",
        ("ab" * 32,),
    )
    old.close()
    return path


def test_a_schema_migration_first_copies_the_library_and_keeps_the_last_few(tmp_path: Path) -> None:
    path = old_library(tmp_path / "library.db", SCHEMA_VERSION - 1)
    conn = open_connection(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()
    copies = list((tmp_path / "backups").glob("library-before-schema-*.db"))
    assert len(copies) == 1 and f"before-schema-{SCHEMA_VERSION - 1}-" in copies[0].name
    copy = sqlean.connect(str(copies[0]))
    assert copy.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION - 1
    assert copy.execute("SELECT title FROM books").fetchall() == [("Old",)]
    copy.close()

    open_connection(path).close()  # up to date: no copy
    assert len(list((tmp_path / "backups").glob("*.db"))) == 1
    for n in range(MIGRATION_BACKUPS_KEPT + 1):  # older copies go, the last few stay
        older = tmp_path / "backups" / f"library-before-schema-1-2020-01-0{n + 1}-000000.db"
        older.write_bytes(b"")
        os.utime(older, (1_600_000_000 + n, 1_600_000_000 + n))
    backup_before_migration(path, SCHEMA_VERSION)
    assert len(list((tmp_path / "backups").glob("library-before-schema-*.db"))) == MIGRATION_BACKUPS_KEPT


def test_a_migration_without_room_for_its_copy_changes_nothing(tmp_path: Path) -> None:
    path = old_library(tmp_path / "library.db", SCHEMA_VERSION - 1)
    (tmp_path / "backups").write_text("a file where the folder should be")
    from reader.domain.errors import ReaderError

    with pytest.raises(ReaderError, match="could not be made first") as caught:
        open_connection(path)
    assert "\n" not in str(caught.value)
    conn = sqlean.connect(str(path))
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION - 1
    conn.close()


def test_a_damaged_file_is_reported_with_the_copy_to_restore(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for n in range(3):
        run(capsys, "import", str(write_long_book(tmp_path / f"b{n}.txt", f"Harbour {n}", chapters=6)))
    code, out, _ = run(capsys, "backup", "--json")
    copy = json.loads(out)["path"]
    library = Path(os.environ["READER_DB"])
    conn = sqlean.connect(str(library))
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    leaf = conn.execute(
        "SELECT pageno FROM dbstat WHERE name = 'chunks_by_page' AND pagetype = 'leaf'"
    ).fetchone()[0]
    conn.close()
    with library.open("r+b") as handle:  # scribble over one page of an index
        handle.seek((leaf - 1) * page_size + 8)
        handle.write(b"\xff" * 64)
    code, out, err = run(capsys, "check")
    assert code == 1 and "Traceback" not in err
    lines = err.splitlines()
    assert lines[0].startswith("problem: SQLite's integrity check failed")
    assert lines[-1].endswith(f"(the newest copy is {copy}: close reader and put it in place of {library}).")
