"""Choosing an extractor for a file: by its content first, its extension second."""

from __future__ import annotations

import zipfile
from pathlib import Path

from reader.adapters.extractors.common import check_file, read_head, shown
from reader.adapters.extractors.epub import EpubExtractor
from reader.adapters.extractors.pdf import PdfExtractor
from reader.adapters.extractors.text import MARKDOWN_SUFFIXES, TextExtractor
from reader.domain.errors import ExtractionError
from reader.domain.ports import BookExtractor

SUPPORTED_SUFFIXES: tuple[str, ...] = (".pdf", ".epub", ".txt", ".md", ".markdown")
"""File name suffixes a folder scan picks up (lower case)."""

TEXT_SUFFIXES = frozenset((".txt", *MARKDOWN_SUFFIXES))
EPUB_MIMETYPE = b"application/epub+zip"


def _zip_kind(path: Path) -> str:
    """'epub' for a zip that declares itself an EPUB (or has an EPUB container), else 'zip'."""
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            if "mimetype" in names:
                info = archive.getinfo("mimetype")
                if info.file_size <= 100 and archive.read("mimetype").strip() == EPUB_MIMETYPE:
                    return "epub"
            if "META-INF/container.xml" in names:
                return "epub"
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
    """'pdf', 'epub' or 'text' from magic bytes, then the extension; None for anything else."""
    check_file(path)
    head = read_head(path)
    suffix = path.suffix.lower()
    if b"%PDF-" in head:
        return "pdf"
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        if _zip_kind(path) == "epub" or suffix == ".epub":
            return "epub"
        if suffix in SUPPORTED_SUFFIXES:
            raise ExtractionError(f"{shown(path)} is a zip archive, not a PDF, EPUB or text book.")
        return None
    if head[60:68] in (b"BOOKMOBI", b"TEXtREAd"):
        raise ExtractionError(
            f"{shown(path)} is a Kindle/Mobipocket book; "
            "convert it to EPUB (e.g. with Calibre) and import that."
        )
    if suffix == ".pdf":
        return "pdf"
    if suffix == ".epub":
        return "epub"
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
    suffix = path.suffix.lower() or "no extension"
    raise ExtractionError(
        f"{shown(path)}: unsupported file type ({suffix}); reader imports PDF, EPUB, TXT and Markdown."
    )
