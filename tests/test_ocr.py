"""Scanned PDFs read by real local OCR (RapidOCR): stored as the page's text, marked, indexed, resumable."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

import pytest

from reader.adapters.ocr.pdf_page_images import PdfPageImages
from reader.adapters.ocr.rapid_ocr import RapidOcrRecognizer, lines_to_text
from reader.adapters.sqlite.connection import open_connection
from reader.cli.main import main
from reader.domain.errors import ReaderError
from reader.services import Services
from tests.fixtures_formats import SCANNED_PAGES, write_scanned_book

PAGES = SCANNED_PAGES


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err




def test_the_page_image_comes_straight_out_of_the_pdf(tmp_path: Path) -> None:
    path = write_scanned_book(tmp_path)
    images = PdfPageImages()
    picture = images.image(str(path), 2)
    assert picture is not None and picture.how == "the page's only image"
    text = RapidOcrRecognizer().recognize(picture.data)
    assert text == "The lighthouse keeper told Margaret about seventeen gulls at dawn."
    drawn = images.image(str(path), 1)  # drawn text, not an image: the page is rendered
    assert drawn is not None and drawn.how == "the page rendered at 300 dpi"
    assert RapidOcrRecognizer().recognize(drawn.data) == "Preface by the editor of this volume."


def write_two_image_pdf(path: Path) -> Path:
    """Page 1 has a text layer; page 2 is one picture of two lines cut in halves, placed as two images."""
    import io

    from fpdf import FPDF
    from PIL import Image, ImageDraw, ImageFont

    picture = Image.new("L", (1240, 1754), 255)
    draw = ImageDraw.Draw(picture)
    font = ImageFont.load_default(size=36)
    draw.text((100, 300), "The lighthouse keeper told Margaret", fill=0, font=font)
    draw.text((100, 1300), "about seventeen cormorants at dawn.", fill=0, font=font)
    pdf = FPDF()
    pdf.set_title("Halved Scan")
    pdf.set_font("Helvetica", size=12)
    pdf.add_page()
    pdf.cell(0, 8, "Preface by the editor of this volume.")
    pdf.add_page()
    for top, half in enumerate((picture.crop((0, 0, 1240, 877)), picture.crop((0, 877, 1240, 1754)))):
        buffer = io.BytesIO()
        half.save(buffer, "PNG")
        pdf.image(buffer, x=0, y=top * pdf.h / 2, w=pdf.w, h=pdf.h / 2)
    pdf.output(str(path))
    return path


def test_a_page_of_two_images_is_rendered_and_search_finds_both_halves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_two_image_pdf(tmp_path / "halved.pdf")
    picture = PdfPageImages().image(str(path), 2)
    assert picture is not None and picture.how == "the page rendered at 300 dpi"

    code, out, err = run(capsys, "import", "--ocr", str(path))
    assert code == 0, err
    run(capsys, "set-page", "Halved Scan", "2")
    code, out, _ = run(capsys, "search", "Halved Scan", "cormorants", "--json")  # the bottom image
    hits = [json.loads(line) for line in out.splitlines()]
    assert hits and hits[0]["start_page"] == 2
    assert hits[0]["text"] == "The lighthouse keeper told Margaret\n\nabout seventeen cormorants at dawn."
    code, out, _ = run(capsys, "search", "Halved Scan", "lighthouse", "--json")  # the top image
    assert [json.loads(line)["start_page"] for line in out.splitlines()] == [2]


def test_ocr_reads_scanned_pages_and_search_finds_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_scanned_book(tmp_path)
    code, out, _ = run(capsys, "import", str(path))
    assert code == 0 and "3 of 4 pages have no text layer" in out and "reader ocr BOOK" in out
    run(capsys, "set-page", "Gull Rock", "4")
    code, out, _ = run(capsys, "search", "Gull Rock", "lighthouse")
    assert "No passages" in out or "lighthouse" not in out.lower()

    code, out, err = run(capsys, "ocr", "Gull Rock", "--pages", "2-3")
    assert code == 0, err
    assert out.strip() == "Gull Rock Scan: read 2 of 2 pages without a text layer by OCR."
    code, out, _ = run(capsys, "search", "Gull Rock", "lighthouse", "--json")
    hits = [json.loads(line) for line in out.splitlines()]
    assert hits and "seventeen gulls" in hits[0]["text"]
    code, out, _ = run(capsys, "search-page", "Gull Rock", "3", "--json")
    assert json.loads(out)["text"] == "Then Margaret rowed the skiff toward the harbour lantern."

    code, out, _ = run(capsys, "ocr", "Gull Rock", "--json")  # resumable: 2 and 3 are done
    lines = [json.loads(line) for line in out.splitlines()]
    assert [(line["page"], line["status"]) for line in lines[:-1]] == [(4, "read")]
    assert lines[-1] | {} == lines[-1] and lines[-1]["read"] == 1 and lines[-1]["already_done"] == 2
    code, out, _ = run(capsys, "ocr", "Gull Rock")
    assert "read 0 of 3 pages" in out and "3 already done" in out
    code, out, _ = run(capsys, "search", "Gull Rock", "foghorn", "--json")
    assert "stormy evening" in out

    services = Services.open(None)
    try:
        book = services.find_book("Gull Rock")
        marked = services.db.conn.execute(
            "SELECT page, source FROM page_texts WHERE book_id = ? ORDER BY page", (book.id,)
        ).fetchall()
        assert [tuple(row) for row in marked] == [(2, "ocr"), (3, "ocr"), (4, "ocr")]
        names = {row[0] for row in services.db.conn.execute(
            "SELECT name FROM concepts WHERE book_id = ?", (book.id,)
        ).fetchall()}  # fmt: skip
        assert "Margaret" in names  # the concept map was rebuilt with the recognised text
        indexes = [row[0] for row in services.db.conn.execute(
            "SELECT start_page FROM chunks WHERE book_id = ? ORDER BY chunk_index", (book.id,)
        ).fetchall()]  # fmt: skip
        assert indexes == [1, 2, 3, 4]
    finally:
        services.close()


def test_import_with_ocr_and_an_interrupted_run_keeps_its_pages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_scanned_book(tmp_path)
    code, out, err = run(capsys, "import", "--ocr", str(path))
    assert code == 0, err
    assert "read 3 of 3 pages without a text layer by OCR" in out

    # a run stopped after its first page keeps that page, indexed; the next run reads the rest
    # (the book removed and imported again: a re-import alone keeps the OCR text)
    run(capsys, "remove", "Gull Rock", "--yes")
    run(capsys, "import", str(path))
    services = Services.open(None)
    try:
        book = services.find_book("Gull Rock")
        cancel = threading.Event()
        outcome = services.ocr.ocr_book(book.id, on_page=lambda page: cancel.set(), cancel=cancel)
        assert outcome.read == 1 and outcome.candidates == 3
        first = outcome.pages[0].number
        assert services.chunks.get_by_page_range(book.id, first, first)
        again = services.ocr.ocr_book(book.id)
        assert (again.read, again.skipped) == (2, 1)
    finally:
        services.close()


def test_without_the_extra_one_line_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "rapidocr_onnxruntime", None)  # as if the extra were not installed
    with pytest.raises(ReaderError) as caught:
        RapidOcrRecognizer().recognize(b"")
    assert str(caught.value) == (
        "Reading pages without text (scans, comics) needs local OCR: install the OCR extra: pip install 'reader[ocr]'."
    )


def test_lines_become_paragraphs_in_reading_order() -> None:
    def box(left: float, top: float, text: str) -> tuple[list[list[float]], str]:
        return [[left, top], [left + 100, top], [left + 100, top + 30], [left, top + 30]], text

    boxes = [box(300, 102, "world"), box(10, 100, "Hello"), box(10, 140, "again"), box(10, 300, "Later.")]
    assert lines_to_text(boxes) == "Hello world again\n\nLater."


def test_upgrade_from_schema_9_adds_page_texts(tmp_path: Path) -> None:
    import sqlean

    from reader.adapters.sqlite.migrations import migrate

    path = tmp_path / "old.db"
    old = sqlean.connect(str(path), isolation_level=None)
    migrate(old, target=9)
    old.execute(
        "INSERT INTO books (id, title, format, source_path, page_count, index_version, imported_at) "
        "VALUES (?, 'Old', 'pdf', '/x', 1, 1, '2026-01-01')",
        ("ab" * 32,),
    )
    old.close()
    conn = open_connection(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] >= 10
    conn.execute(
        "INSERT INTO page_texts (book_id, page, source, text) VALUES (?, 1, 'ocr', 'x')", ("ab" * 32,)
    )
    assert conn.execute("SELECT title FROM books").fetchone()[0] == "Old"
    conn.execute("DELETE FROM books")
    assert conn.execute("SELECT count(*) FROM page_texts").fetchone()[0] == 0
