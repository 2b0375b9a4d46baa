"""Choosing an extractor by content first and extension second."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from reader.adapters.extractors.epub import EpubExtractor
from reader.adapters.extractors.pdf import PdfExtractor
from reader.adapters.extractors.registry import SUPPORTED_SUFFIXES, extractor_for
from reader.adapters.extractors.text import TextExtractor
from reader.domain.errors import ExtractionError
from tests.fixtures_books import write_ebooklib_epub, write_pdf


def error_of(path: Path) -> str:
    with pytest.raises(ExtractionError) as caught:
        extractor_for(path)
    message = str(caught.value)
    assert "\n" not in message and str(path) in message
    return message


def test_supported_suffixes() -> None:
    assert set(SUPPORTED_SUFFIXES) == {
        ".pdf", ".epub", ".txt", ".md", ".markdown", ".html", ".htm", ".xhtml", ".fb2", ".fb2.zip",
        ".mobi", ".azw", ".azw3", ".kf8", ".prc", ".cbz",
    }  # fmt: skip


def test_choice_by_extension_and_content(tmp_path: Path) -> None:
    pdf = write_pdf(tmp_path / "book.pdf", 1)
    epub = write_ebooklib_epub(tmp_path / "book.epub", [("One", "<h1>One</h1><p>Text.</p>")])
    text = tmp_path / "notes.MD"
    text.write_text("# Notes\n\nText.\n")
    assert isinstance(extractor_for(pdf), PdfExtractor)
    assert isinstance(extractor_for(epub), EpubExtractor)
    assert isinstance(extractor_for(text), TextExtractor)
    misnamed_pdf = tmp_path / "really_a_pdf.epub"
    misnamed_pdf.write_bytes(pdf.read_bytes())
    misnamed_epub = tmp_path / "really_an_epub.pdf"
    misnamed_epub.write_bytes(epub.read_bytes())
    unnamed_pdf = tmp_path / "download"
    unnamed_pdf.write_bytes(pdf.read_bytes())
    assert isinstance(extractor_for(misnamed_pdf), PdfExtractor)
    assert isinstance(extractor_for(misnamed_epub), EpubExtractor)
    assert isinstance(extractor_for(unnamed_pdf), PdfExtractor)
    book = extractor_for(misnamed_epub).extract(misnamed_epub)
    assert book.format == "epub" and book.pages[-1].text == "One\n\nText."


def test_unsupported_types(tmp_path: Path) -> None:
    docx = tmp_path / "letter.docx"
    with zipfile.ZipFile(docx, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("word/document.xml", "<document/>")
    assert error_of(docx).endswith(
        "unsupported file type (.docx); reader imports PDF, EPUB, MOBI/AZW3, FB2, HTML, TXT, Markdown and CBZ comics."
    )
    other = tmp_path / "README"
    other.write_text("hello")
    assert "unsupported file type (no extension)" in error_of(other)
    zipped = tmp_path / "archive.pdf"
    with zipfile.ZipFile(zipped, "w") as archive:
        archive.writestr("a.txt", "x")
    assert "is a zip archive, not a PDF, EPUB, FB2, comic (CBZ) or text book" in error_of(zipped)


def test_missing_empty_and_folder(tmp_path: Path) -> None:
    assert "no such file" in error_of(tmp_path / "nothing.pdf")
    empty = tmp_path / "empty.epub"
    empty.touch()
    assert error_of(empty) == f"{empty} is empty (0 bytes)."
    assert "is a folder" in error_of(tmp_path)
