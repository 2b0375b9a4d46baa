"""Choosing an extractor for a file: by its content first, its extension second."""

from __future__ import annotations

import zipfile
from pathlib import Path

from reader.adapters.extractors.cbz import CBZ_SUFFIXES, CbzExtractor, is_comic_archive
from reader.adapters.extractors.common import check_file, read_head, shown
from reader.adapters.extractors.epub import EpubExtractor
from reader.adapters.extractors.fb2 import Fb2Extractor
from reader.adapters.extractors.html_book import HTML_SUFFIXES, HtmlExtractor
from reader.adapters.extractors.mobi_book import MOBI_SUFFIXES, MobiExtractor, is_mobi
from reader.adapters.extractors.pdf import PdfExtractor
from reader.adapters.extractors.text import MARKDOWN_SUFFIXES, TextExtractor
from reader.domain.errors import ExtractionError
from reader.domain.ports import BookExtractor

SUPPORTED_SUFFIXES: tuple[str, ...] = (
    ".pdf",
    ".epub",
    ".txt",
    ".md",
    ".markdown",
    *HTML_SUFFIXES,
    ".fb2",
    ".fb2.zip",
    *MOBI_SUFFIXES,
    *CBZ_SUFFIXES,
)
"""File name suffixes a folder scan picks up (lower case; matched at the end of the name)."""
FORMATS = "PDF, EPUB, MOBI/AZW3, FB2, HTML, TXT, Markdown and CBZ comics"

TEXT_SUFFIXES = frozenset((".txt", *MARKDOWN_SUFFIXES))
EPUB_MIMETYPE = b"application/epub+zip"


def _zip_kind(path: Path) -> str:
    """'epub' for a zip that declares itself an EPUB (or has an EPUB container), 'fb2' for a zip holding
    an .fb2 book, 'cbz' for a zip of page images (a comic), else 'zip'."""
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            if "mimetype" in names:
                info = archive.getinfo("mimetype")
                if info.file_size <= 100 and archive.read("mimetype").strip() == EPUB_MIMETYPE:
                    return "epub"
            if "META-INF/container.xml" in names:
                return "epub"
            if any(name.lower().endswith(".fb2") for name in names):
                return "fb2"
            if is_comic_archive(list(names)):
                return "cbz"
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        OSError,
        ValueError,
        EOFError,
        RuntimeError,
        NotImplementedError,
    ):
        pass
    return "zip"


def detect_format(path: Path) -> str | None:
    """'pdf', 'epub', 'fb2', 'cbz', 'mobi', 'html' or 'text' from magic bytes, then the extension; None for
    anything else."""
    check_file(path)
    head = read_head(path)
    suffix = path.suffix.lower()
    if b"%PDF-" in head:
        return "pdf"
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        kind = _zip_kind(path)
        if kind == "epub" or suffix == ".epub":
            return "epub"
        if kind == "fb2":
            return "fb2"
        if kind == "cbz" or suffix in CBZ_SUFFIXES:
            return "cbz"
        if suffix in SUPPORTED_SUFFIXES and suffix != ".zip":
            raise ExtractionError(f"{shown(path)} is a zip archive, not a PDF, EPUB, FB2, comic (CBZ) or text book.")
        return None
    if is_mobi(head):
        return "mobi"
    if b"<FictionBook" in head:
        return "fb2"
    if suffix == ".pdf":
        return "pdf"
    if suffix == ".epub":
        return "epub"
    if suffix == ".fb2":
        return "fb2"
    if suffix in HTML_SUFFIXES or head.lstrip()[:15].lower() in (b"<!doctype html>", b"<html>"):
        return "html"
    if suffix in TEXT_SUFFIXES:
        return "text"
    return None


def extractor_for(path: Path) -> BookExtractor:
    """The extractor for a file; ExtractionError for missing, empty or unsupported files."""
    kind = detect_format(path)
    if kind == "pdf":
        return PdfExtractor()
    if kind == "epub":
        return EpubExtractor()
    if kind == "text":
        return TextExtractor()
    if kind == "html":
        return HtmlExtractor()
    if kind == "fb2":
        return Fb2Extractor()
    if kind == "mobi":
        return MobiExtractor()
    if kind == "cbz":
        return CbzExtractor()
    suffix = path.suffix.lower() or "no extension"
    raise ExtractionError(f"{shown(path)}: unsupported file type ({suffix}); reader imports {FORMATS}.")
