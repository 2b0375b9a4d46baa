"""The library commands end to end on a temporary database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write_novel(folder: Path, name: str = "harbour.md", title: str = "The Harbour") -> Path:
    chapters = []
    for number in range(1, 4):
        paragraphs = [
            f"Paragraph {i} of chapter {number} tells of the harbour, the boats and the grey tide."
            + " More words follow here to fill the page." * 8
            for i in range(12)
        ]
        chapters.append(f"# Chapter {number}: Part {number}\n\n" + "\n\n".join(paragraphs))
    path = folder / name
    path.write_text(
        f"---\ntitle: {title}\nauthor: Ann Writer\n---\n\n" + "\n\n".join(chapters), encoding="utf-8"
    )
    return path


def test_import_list_info_toc_page_and_remove(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = write_novel(tmp_path)
    code, out, _ = run(capsys, "import", str(book))
    assert code == 0 and "Imported The Harbour" in out

    code, out, _ = run(capsys, "import", str(book))
    assert code == 0 and "already in the library, unchanged" in out

    code, out, _ = run(capsys, "list", "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 1 and rows[0]["title"] == "The Harbour" and rows[0]["author"] == "Ann Writer"
    pages = rows[0]["pages"]
    assert pages >= 6

    code, out, _ = run(capsys, "info", "harbor", "--json")  # fuzzy title
    info = json.loads(out)
    assert info["chapters"] == 3 and info["current_page"] == 1

    code, out, _ = run(capsys, "toc", rows[0]["id"][:6], "--json")
    toc = [json.loads(line) for line in out.splitlines()]
    assert [c["title"] for c in toc] == ["Chapter 1: Part 1", "Chapter 2: Part 2", "Chapter 3: Part 3"]
    assert toc[1]["start_page"] == toc[0]["end_page"] + 1

    code, out, _ = run(capsys, "search-page", "The Harbour", str(toc[1]["start_label"]), "--json")
    page = json.loads(out)
    assert page["chapter"] == "Chapter 2: Part 2" and "chapter 2" in page["text"]

    code, out, _ = run(capsys, "set-page", "The Harbour", "50%")
    assert code == 0 and "reading position set" in out
    code, out, _ = run(capsys, "info", "The Harbour", "--json")
    assert json.loads(out)["current_page"] == round(pages / 2)

    code, _, err = run(capsys, "search-page", "The Harbour", str(pages + 1))
    assert code == 1 and "out of range" in err and len(err.strip().splitlines()) == 1

    code, out, _ = run(capsys, "remove", "The Harbour", "--yes")
    assert code == 0
    code, out, _ = run(capsys, "list", "--json")
    assert out == ""


def test_ambiguous_and_unknown_books(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "import", str(write_novel(tmp_path, "a.md", "The Harbour North")))
    run(capsys, "import", str(write_novel(tmp_path, "b.md", "The Harbour South")))
    code, _, err = run(capsys, "info", "Harbour")
    assert code == 1 and "matches several books" in err and "North" in err and "South" in err
    code, _, err = run(capsys, "info", "Zebra Crossing Manual")
    assert code == 1 and "No book matches" in err


def test_folder_import_reports_each_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "books"
    (folder / "nested").mkdir(parents=True)
    write_novel(folder, "one.md", "One")
    write_novel(folder / "nested", "two.md", "Two")
    (folder / "empty.txt").write_bytes(b"")
    (folder / "notes.docx").write_bytes(b"ignored: unsupported suffix")
    code, out, err = run(capsys, "import", str(folder), "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1  # one file failed
    assert sorted(r["status"] for r in rows) == ["failed", "imported", "imported"]
    failed = next(r for r in rows if r["status"] == "failed")
    assert "empty" in failed["message"] and "\n" not in failed["message"]


def test_bad_paths_give_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "import", str(tmp_path / "missing.pdf"))
    assert code == 1 and "no such file" in err.lower() and "Traceback" not in err
    code, _, err = run(capsys, "info", "anything")
    assert code == 1 and "library is empty" in err


def test_demo_prints_the_sample_book(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "--print")
    assert code == 0 and "The Keeper of Gull Rock" in out and "Chapter 1" in out
    code, out, _ = run(capsys, "demo", "--print")
    assert code == 0  # a second run is a no-op import
    code, out, _ = run(capsys, "list", "--json")
    assert len(out.splitlines()) == 1


def test_interrupted_import_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from reader.adapters.sqlite.book_repository import SqliteBookRepository
    from reader.services import Services

    services = Services.open()
    book = write_novel(tmp_path)
    calls = {"n": 0}
    original_replace = SqliteBookRepository.replace

    def interrupted_replace(self, book, *args):  # type: ignore[no-untyped-def]
        conn = self.conn

        class Wrapper:
            def __getattr__(self, name):  # type: ignore[no-untyped-def]
                return getattr(conn, name)

            def executemany(self, sql, rows):  # type: ignore[no-untyped-def]
                calls["n"] += 1
                if sql.startswith("INSERT INTO chapters"):
                    raise KeyboardInterrupt  # Ctrl-C halfway through the write (chunks and pages written)
                return conn.executemany(sql, rows)

        self.conn = Wrapper()
        try:
            return original_replace(self, book, *args)
        finally:
            self.conn = conn

    monkeypatch.setattr(SqliteBookRepository, "replace", interrupted_replace)
    with pytest.raises(KeyboardInterrupt):
        services.importer.import_file(book)
    monkeypatch.undo()
    assert calls["n"] >= 2
    conn = services.db.conn
    for table in ("books", "pages", "chapters", "chunks"):
        assert conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == 0, table
    assert services.importer.import_file(book).status == "imported"


def test_reindex_rebuilds_outdated_books_and_keeps_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from reader.services import Services

    book = write_novel(tmp_path)
    run(capsys, "import", str(book))
    run(capsys, "set-page", "The Harbour", "3")
    code, out, _ = run(capsys, "reindex")
    assert code == 0 and "nothing to do" in out

    services = Services.open()
    services.db.conn.execute("UPDATE books SET index_version = 0")
    services.db.conn.execute("DELETE FROM chunks")  # what an old pipeline might have left
    services.close()
    code, out, _ = run(capsys, "reindex")
    assert code == 0 and "Reindexed The Harbour" in out
    code, out, _ = run(capsys, "info", "The Harbour", "--json")
    info = json.loads(out)
    assert info["current_page"] == 3 and info["chunks"] > 0


def test_unexpected_extractor_failure_is_one_line_and_keeps_going(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from reader.adapters.extractors.text import TextExtractor

    original = TextExtractor.extract

    def flaky(self, path, password=None, progress=None):  # type: ignore[no-untyped-def]
        if path.name == "bad.md":
            raise ValueError("parser state\nexploded")
        return original(self, path, password=password, progress=progress)

    monkeypatch.setattr(TextExtractor, "extract", flaky)
    write_novel(tmp_path, "bad.md", "Bad")
    write_novel(tmp_path, "good.md", "Good")
    code, out, err = run(capsys, "import", str(tmp_path))
    assert code == 1
    assert "Imported Good" in out
    assert "bad.md: could not be read as a book (parser state exploded)" in err and "Traceback" not in err


def test_remove_says_that_the_books_bookmarks_highlights_and_notes_go_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from reader.services import Services

    run(capsys, "import", str(write_novel(tmp_path)))
    services = Services.open()
    (book,) = services.books.list()
    text = services.pages.range_text(book.id, 1, 1)
    services.bookmarks.toggle(book.id, 1)
    services.bookmarks.toggle(book.id, 2)
    services.annotations.highlight(book.id, 1, text, 0, 9)
    services.annotations.highlight(book.id, 1, text, 10, 20, note="mine")
    code, _, err = run(capsys, "remove", "The Harbour")  # stdin is no terminal here
    assert code == 1 and "2 bookmarks, 1 highlight and 1 note" in err and "--yes" in err
    assert services.books.get(book.id) is not None
    code, out, _ = run(capsys, "remove", "The Harbour", "--yes")
    assert code == 0 and "with its conversations and its 2 bookmarks, 1 highlight and 1 note" in out
    assert services.annotations.counts(book.id).phrase == ""
