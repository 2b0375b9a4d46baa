"""Damaged PDFs: what pypdf cannot parse PDFium reads (text, labels, outline), with a warning; what
neither can open is refused in one line, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader.adapters.extractors.pdf import PdfExtractor
from reader.adapters.extractors.pdf_page_files import PypdfPageFiles
from reader.adapters.extractors.pdf_pdfium import read_pages_with_pdfium
from reader.adapters.ocr.pdf_page_images import PdfPageImages
from reader.cli.main import main
from reader.domain.errors import EncryptedBookError, ExtractionError
from reader.services import Services
from tests.fixtures_books import (
    add_page_labels,
    break_page_tree,
    encrypt_pdf,
    lose_startxref,
    mistype_page_tree,
    truncate,
    write_pdf,
)

SECTIONS = [(1, "Opening", 0), (3, "The Lamp", 0), (4, "A Storm", 1)]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_lost_startxref_is_repaired_with_text_labels_and_outline(tmp_path: Path) -> None:
    path = add_page_labels(write_pdf(tmp_path / "book.pdf", 5, title="Harbour", sections=SECTIONS), 2)
    lose_startxref(path)
    book = PdfExtractor().extract(path)
    assert len(book.pages) == 5 and book.title == "Harbour" and book.author == "Ann Author"
    assert "number4" in book.pages[3].text
    assert [p.label for p in book.pages] == ["i", "ii", "1", "2", "3"]
    assert [(c.title, c.start_page, c.level) for c in book.chapters] == [
        ("Opening", 1, 0),
        ("The Lamp", 3, 0),
        ("A Storm", 4, 1),
    ]
    assert book.warnings[0].startswith("The file is damaged (startxref not found); PDFium repaired it")


def test_a_mistyped_page_tree_is_repaired(tmp_path: Path) -> None:
    path = mistype_page_tree(write_pdf(tmp_path / "pages.pdf", 3, title="Pagez"))
    book = PdfExtractor().extract(path)
    assert [p.text.split(".")[0] for p in book.pages] == [
        "Page 1 tells of the keeper and the lamp number1",
        "Page 2 tells of the keeper and the lamp number2",
        "Page 3 tells of the keeper and the lamp number3",
    ]
    assert "repaired" in book.warnings[0]


@pytest.mark.parametrize("damage", [break_page_tree, lambda p: truncate(p, 0.6)], ids=["kids", "truncated"])
def test_a_pdf_neither_can_open_is_refused_in_one_line(tmp_path: Path, damage: object) -> None:
    path = damage(write_pdf(tmp_path / "gone.pdf", 3))  # type: ignore[operator]
    with pytest.raises(ExtractionError) as caught:
        PdfExtractor().extract(path)
    message = str(caught.value)
    assert "\n" not in message and "damaged or truncated" in message and "PDFium:" in message


def test_a_repaired_book_imports_searches_and_its_pages_can_be_cut_and_rendered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = lose_startxref(write_pdf(tmp_path / "book.pdf", 4, title="Harbour", sections=SECTIONS[:2]))
    code, out, err = run(capsys, "import", str(path))
    assert code == 0, err
    assert "Imported Harbour (4 pages)." in out and "warning: The file is damaged" in out
    run(capsys, "set-page", "Harbour", "4")
    code, out, _ = run(capsys, "search", "Harbour", "number3", "--json")
    assert [json.loads(line)["start_page"] for line in out.splitlines()][:1] == [3]
    code, out, _ = run(capsys, "toc", "Harbour", "--json")
    assert [json.loads(line)["title"] for line in out.splitlines()] == ["Opening", "The Lamp"]

    services = Services.open(None)
    try:
        book = services.find_book("Harbour")
        cut = PypdfPageFiles().page_pdf(book, [2])  # a model sees the page: PDFium cuts it out
        assert cut.startswith(b"%PDF-")
    finally:
        services.close()
    picture = PdfPageImages().image(str(path), 2)  # OCR renders the page with PDFium
    assert picture is not None and picture.how.startswith("the page rendered at")


def test_a_broken_pdf_import_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = break_page_tree(write_pdf(tmp_path / "broken.pdf", 3))
    code, _, err = run(capsys, "import", str(path))
    assert code == 1 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    code, out, _ = run(capsys, "list", "--json")
    assert out == ""


def test_pdfium_reads_the_pages_pypdf_could_not(tmp_path: Path) -> None:
    path = lose_startxref(write_pdf(tmp_path / "book.pdf", 4))
    found = read_pages_with_pdfium(path, None, [1, 3, 9])  # page 10 does not exist
    assert sorted(found) == [1, 3] and "number2" in found[1] and "number4" in found[3]
    assert read_pages_with_pdfium(break_page_tree(write_pdf(tmp_path / "gone.pdf", 2)), None, [0]) == {}


def test_a_damaged_encrypted_pdf_still_asks_for_its_password(tmp_path: Path) -> None:
    path = lose_startxref(encrypt_pdf(write_pdf(tmp_path / "locked.pdf", 2, title="Locked"), "s3cret"))
    with pytest.raises(EncryptedBookError, match="password-protected; run again with --password"):
        PdfExtractor().extract(path)
    with pytest.raises(EncryptedBookError, match="the password is wrong"):
        PdfExtractor().extract(path, password="nope")
    book = PdfExtractor().extract(path, password="s3cret")
    assert len(book.pages) == 2 and "number2" in book.pages[1].text and "repaired" in book.warnings[0]
