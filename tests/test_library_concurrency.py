"""Several programs on one library: writes wait their turn and go through; a full disk or a read-only
library during an import or a note is one clear line, with nothing half-written and nothing lost."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from reader.cli.main import main
from reader.domain.errors import StorageError
from reader.services import Services
from tests.fixtures_books import write_pdf
from tests.test_library_file import dump, write_long_book

PROJECT = Path(__file__).resolve().parents[1]

HIGHLIGHTER = textwrap.dedent(
    """
    import sys
    from reader.services import Services

    services = Services.open(None)
    book = services.find_book("Alpha")
    text = services.pages.page_text(book, 1).text
    for n in range(int(sys.argv[1])):
        services.annotations.highlight(book.id, 1, text, n % 10, n % 10 + 5, note=f"{sys.argv[2]} {n}")
        services.books.set_current_page(book.id, 1 + n % book.page_count)
    services.close()
    """
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_two_programs_write_highlights_while_a_third_imports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "import", str(write_pdf(tmp_path / "alpha.pdf", 3, title="Alpha")))
    books = [write_long_book(tmp_path / f"long{n}.txt", f"Harbour {n}", chapters=25) for n in range(4)]
    env = dict(os.environ, PYTHONPATH=str(PROJECT))
    importer = subprocess.Popen(
        [sys.executable, "-m", "reader.cli.main", "import", *map(str, books)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", HIGHLIGHTER, "60", name],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for name in ("left", "right")
    ]
    results = [process.communicate(timeout=120) for process in (importer, *writers)]
    for process, (_out, err) in zip((importer, *writers), results, strict=True):
        assert process.returncode == 0, err.decode()
        assert b"locked" not in err and b"Traceback" not in err
    assert results[0][0].decode().count("] Imported ") == 4

    services = Services.open(None)
    try:
        conn = services.db.conn
        notes = [row[0] for row in conn.execute("SELECT note FROM annotations ORDER BY id").fetchall()]
        assert sorted(notes) == sorted([f"left {n}" for n in range(60)] + [f"right {n}" for n in range(60)])
        assert len(services.books.list()) == 5
    finally:
        services.close()
    code, out, err = run(capsys, "check")
    assert code == 0, err


def test_a_full_disk_mid_import_fails_in_one_line_and_keeps_everything_else(tmp_path: Path) -> None:
    services = Services.open(None)
    try:
        outcome = services.importer.import_file(write_pdf(tmp_path / "alpha.pdf", 3, title="Alpha"))
        alpha = outcome.book
        assert alpha is not None
        services.annotations.highlight(alpha.id, 1, services.pages.page_text(alpha, 1).text, 0, 4, "mine")
        services.books.set_current_page(alpha.id, 2)
        conn = services.db.conn
        before = dump(conn)
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages + 8}")  # room for a little, not for a book
        big = write_long_book(tmp_path / "big.txt", "Big Harbour", chapters=40)
        outcome = services.importer.import_file(big)
        assert outcome.status == "failed" and outcome.stops
        assert "\n" not in outcome.message
        assert (
            "disk holding the library is full" in outcome.message
            and "nothing of this change" in outcome.message
        )
        assert [b.title for b in services.books.list()] == ["Alpha"]  # nothing of the book was kept
        assert dump(conn) == before
        conn.execute(f"PRAGMA max_page_count = {conn.execute('PRAGMA page_count').fetchone()[0]}")
        with pytest.raises(StorageError, match="is full") as caught:  # a note with no room at all
            text = services.pages.page_text(alpha, 2).text
            for n in range(200):
                services.annotations.highlight(alpha.id, 2, text, 0, 4, "a long note " * 50 + str(n))
        assert caught.value.kind == "full"
        conn.execute("PRAGMA max_page_count = 1073741823")
        assert services.check_library().ok
    finally:
        services.close()


def test_a_read_only_library_refuses_an_import_and_a_note_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    services = Services.open(None)
    try:
        alpha = services.importer.import_file(write_pdf(tmp_path / "alpha.pdf", 3, title="Alpha")).book
        assert alpha is not None
        conn = services.db.conn
        conn.execute("PRAGMA query_only = 1")  # what a read-only file or mount does to writes
        outcome = services.importer.import_file(write_pdf(tmp_path / "beta.pdf", 2, title="Beta"))
        assert outcome.status == "failed" and "library file is read-only" in outcome.message
        with pytest.raises(StorageError, match="read-only") as caught:
            services.annotations.highlight(alpha.id, 1, services.pages.page_text(alpha, 1).text, 0, 4)
        assert "\n" not in str(caught.value) and "locked" not in str(caught.value)
        conn.execute("PRAGMA query_only = 0")
        assert [b.title for b in services.books.list()] == ["Alpha"]
    finally:
        services.close()


def test_a_folder_import_onto_a_full_disk_stops_at_the_first_book(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "shelf"
    folder.mkdir()
    for n in range(3):
        write_long_book(folder / f"book{n}.txt", f"Shelf {n}", chapters=20)
    run(capsys, "import", str(write_pdf(tmp_path / "alpha.pdf", 2, title="Alpha")))
    from reader.adapters.sqlite import connection

    opened = connection.open_connection

    def small_disk(path: Path | str, **kwargs: object) -> object:
        conn = opened(path, **kwargs)  # type: ignore[arg-type]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages + 4}")
        return conn

    monkeypatch.setattr(connection, "open_connection", small_disk)
    code, out, err = run(capsys, "import", str(folder))
    assert code == 1 and out == ""
    lines = err.splitlines()
    assert len(lines) == 2 and "disk holding the library is full" in lines[0]
    assert lines[1] == "Stopped before the other 2 files."
