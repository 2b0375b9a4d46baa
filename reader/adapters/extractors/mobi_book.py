"""Kindle books (MOBI, AZW, AZW3): unpacked with the `mobi` package, then read as EPUB, HTML or PDF.

The unpacking happens in a temporary folder that is always removed. A DRM-protected book is refused
from its header before anything is unpacked.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import struct
import tempfile
from pathlib import Path
from typing import Any

from reader.adapters.extractors.common import check_file, check_size, clean_field, one_line, read_head, shown
from reader.adapters.extractors.epub import EpubExtractor
from reader.adapters.extractors.epub_container import parse_xml_leniently
from reader.adapters.extractors.html_book import MAX_HTML_BYTES, extract_markup
from reader.adapters.extractors.pagination import TARGET_PAGE_CHARS
from reader.adapters.extractors.pdf import PdfExtractor
from reader.adapters.extractors.xhtml import element_text, local_name
from reader.domain.errors import ExtractionError
from reader.domain.extracted import ExtractedBook
from reader.domain.ports import ProgressCallback

MOBI_SUFFIXES = (".mobi", ".azw", ".azw3", ".kf8", ".prc")
PDB_TYPES = (b"BOOKMOBI", b"TEXtREAd")
MAX_MOBI_BYTES = 256 * 1024 * 1024
_CRYPTO_OFFSET = 0x0C
"""Where record 0 (the PalmDOC header) keeps its encryption type: 0 none, 1 old Mobipocket, 2 Kindle."""


def is_mobi(head: bytes) -> bool:
    """Whether a file's first bytes are a Palm database of a Mobipocket or PalmDOC book."""
    return head[60:68] in PDB_TYPES


def encryption_type(data: bytes) -> int:
    """The encryption type in record 0 of a Palm database; ExtractionError when the header is cut short."""
    if len(data) < 86 or not is_mobi(data):
        raise ExtractionError("not a Mobipocket file")
    (records,) = struct.unpack_from(">H", data, 76)
    if records < 1:
        raise ExtractionError("the book has no records")
    (record0,) = struct.unpack_from(">I", data, 78)
    if record0 + _CRYPTO_OFFSET + 2 > len(data):
        raise ExtractionError("its first record lies past the end of the file")
    (crypto,) = struct.unpack_from(">H", data, record0 + _CRYPTO_OFFSET)
    return int(crypto)


def check_not_drm(path: Path) -> None:
    """ExtractionError (one line) for a DRM-protected or damaged Kindle header."""
    head = read_head(path, 4096)
    try:
        crypto = encryption_type(head)
    except ExtractionError as error:
        raise ExtractionError(f"{shown(path)} is not a readable Kindle book ({error}).") from None
    if crypto:
        raise ExtractionError(
            f"{shown(path)} is DRM-protected (Kindle encryption); reader cannot open it. "
            "Import a DRM-free copy instead."
        )


def unpack(path: Path, folder: Path) -> Path:
    """Unpack a Kindle book into `folder` quietly; the EPUB, HTML or PDF it became."""
    from loguru import logger
    from mobi.kindleunpack import unpackBook

    source = folder / "book.mobi"
    shutil.copyfile(path, source)
    logger.disable("mobi")
    chatter = io.StringIO()
    try:
        with contextlib.redirect_stdout(chatter), contextlib.redirect_stderr(chatter):
            unpackBook(str(source), str(folder / "out"), epubver="A")
    except Exception as error:  # the unpacker raises bare Exceptions and struct errors for bad files
        detail = one_line(error)[:200] or type(error).__name__
        if "encrypted" in detail.lower():
            raise ExtractionError(
                f"{shown(path)} is DRM-protected (Kindle encryption); reader cannot open it."
            ) from None
        raise ExtractionError(f"{shown(path)}: cannot unpack this Kindle book ({detail}).") from None
    for candidate in (
        folder / "out/mobi8/book.epub",
        folder / "out/mobi7/book.html",
        folder / "out/book.001.pdf",
    ):
        if candidate.is_file():
            return candidate
    raise ExtractionError(f"{shown(path)}: the Kindle book unpacked to nothing readable.")


def opf_metadata(opf: Path) -> tuple[str, str, str]:
    """(title, author, language) from the OPF the unpacker writes beside the HTML ('' when absent)."""
    root: Any = parse_xml_leniently(opf.read_bytes()) if opf.is_file() else None
    if root is None:
        return "", "", ""
    found: dict[str, str] = {}
    for element in root.iter():
        name = local_name(element)
        if name in ("title", "creator", "language") and name not in found:
            found[name] = clean_field(element_text(element))
    return found.get("title", ""), found.get("creator", ""), found.get("language", "")


class MobiExtractor:
    """Reads unencrypted MOBI, AZW and AZW3 books through their EPUB, HTML or PDF form."""

    def __init__(self, target_chars: int = TARGET_PAGE_CHARS, max_bytes: int = MAX_MOBI_BYTES) -> None:
        self.target_chars = target_chars
        self.max_bytes = max_bytes

    def extract(
        self, path: Path, password: str | None = None, progress: ProgressCallback | None = None
    ) -> ExtractedBook:
        """Check for DRM, unpack in a temporary folder, read the result, remove the folder."""
        size = check_file(path)
        check_size(path, size, self.max_bytes, "a Kindle book")
        check_not_drm(path)
        book_format = "azw3" if path.suffix.lower() in (".azw3", ".kf8") else "mobi"
        with tempfile.TemporaryDirectory(prefix="reader-mobi-") as folder:
            unpacked = unpack(path, Path(folder))
            if unpacked.suffix == ".epub":
                book = EpubExtractor(self.target_chars).extract(unpacked, progress=progress)
                book_format = "azw3"
            elif unpacked.suffix == ".pdf":
                book = PdfExtractor().extract(unpacked, progress=progress)
            else:
                if unpacked.stat().st_size > MAX_HTML_BYTES:
                    raise ExtractionError(
                        f"{shown(path)} unpacks to more text than reader accepts; refusing it."
                    )
                book = extract_markup(unpacked.read_bytes(), path, self.target_chars, book_format)
                title, author, language = opf_metadata(unpacked.parent / "content.opf")
                book.title = title or book.title
                book.author = author or book.author
                book.language = language or book.language
        book.format = book_format
        if book.title in ("Book", "book"):
            book.title = path.stem
        return book
