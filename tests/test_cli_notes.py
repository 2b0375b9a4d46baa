"""`reader bookmarks` and `reader notes`: listings, JSON and the Markdown export of a generated book."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader.cli.main import main
from reader.services import Services
from tests.fixtures_books import add_page_labels, write_pdf


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def labelled_book(tmp_path: Path) -> tuple[Services, str]:
    """A PDF with two roman-numbered pages, then chapters One (pages 1-2) and Two (3-4)."""
    path = write_pdf(
        tmp_path / "labelled.pdf",
        pages=6,
        title="The Labelled Book",
        sections=[(1, "Preface", 0), (3, "Chapter One", 0), (5, "Chapter Two", 0)],
    )
    add_page_labels(path, roman_pages=2)
    services = Services.open()
    outcome = services.importer.import_file(path)
    assert outcome.ok and outcome.book is not None
    return services, outcome.book.id


def highlight(services: Services, book_id: str, page: int, words: str, note: str = "") -> None:
    text = services.pages.range_text(book_id, page, page)
    start = text.index(words)
    services.annotations.highlight(book_id, page, text, start, start + len(words), note)


def test_notes_export_markdown_with_book_chapters_quotes_notes_and_labels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    services, book_id = labelled_book(tmp_path)
    highlight(services, book_id, 3, "Page 3 tells of the keeper")
    highlight(services, book_id, 5, "the lamp number5", note="The lamp again.")
    highlight(services, book_id, 6, "A second paragraph")
    services.db.conn.execute("UPDATE annotations SET orphaned = 1 WHERE page = 6")
    code, out, _ = run(capsys, "notes", "Labelled", "--export", "md")
    assert code == 0
    assert out.startswith("# The Labelled Book\n\n*Ann Author*\n")
    one, two = out.index("## Chapter One"), out.index("## Chapter Two")
    orphaned = out.index("## Orphaned (no longer found in the book)")
    assert one < out.index("> Page 3 tells of the keeper") < out.index("— p. 1") < two
    assert (
        two < out.index("> the lamp number5") < out.index("The lamp again.") < out.index("— p. 3") < orphaned
    )
    assert out.index("> A second paragraph") > orphaned and "— was on p. 4" in out
    target = tmp_path / "notes.md"
    code, out, _ = run(capsys, "notes", "Labelled", "--export", "md", "-o", str(target))
    assert code == 0 and "Wrote 3 highlights" in out
    assert target.read_text(encoding="utf-8").count("## ") == 3


def test_notes_list_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    services, book_id = labelled_book(tmp_path)
    code, out, _ = run(capsys, "notes", "Labelled")
    assert code == 0 and "no highlights or notes yet" in out
    highlight(services, book_id, 5, "the lamp number5", note="The lamp again.")
    code, out, _ = run(capsys, "notes", "Labelled")
    assert "p. 3  [Chapter Two]  “the lamp number5”" in out and "    The lamp again." in out
    code, out, _ = run(capsys, "notes", "Labelled", "--json")
    [record] = [json.loads(line) for line in out.splitlines()]
    assert record["label"] == "3" and record["chapter"] == "Chapter Two" and record["kind"] == "note"
    assert record["quote"] == "the lamp number5" and record["orphaned"] is False


def test_bookmarks_list_with_labels_chapters_and_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    services, book_id = labelled_book(tmp_path)
    code, out, _ = run(capsys, "bookmarks", "Labelled")
    assert code == 0 and "no bookmarks yet" in out
    services.bookmarks.toggle(book_id, 2)
    services.bookmarks.name(book_id, 4, "the keeper's lamp")
    code, out, _ = run(capsys, "bookmarks", "Labelled")
    assert out.splitlines() == ["p. ii  (Preface)", "p. 2  the keeper's lamp  (Chapter One)"]
    code, out, _ = run(capsys, "bookmarks", "Labelled", "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert [(r["label"], r["name"], r["chapter"]) for r in records] == [
        ("ii", "", "Preface"),
        ("2", "the keeper's lamp", "Chapter One"),
    ]
    assert [r["orphaned"] for r in records] == [False, False]
    services.db.conn.execute("UPDATE bookmarks SET orphaned = 1 WHERE page = 4")
    code, out, _ = run(capsys, "bookmarks", "Labelled")
    assert out.splitlines()[1].endswith("[orphaned: its text was not found after a reindex]")
