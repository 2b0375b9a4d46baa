"""A damaged PDF read with PDFium (pypdfium2), which rebuilds what pypdf cannot parse: a missing
startxref, a broken cross-reference table, a page tree of the wrong type. Text, page count, labels,
outline and metadata; no visual measurements."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from reader.adapters.extractors.common import clean_field, one_line
from reader.adapters.extractors.pdf_pages import PageTexts, RawPdf
from reader.domain.extracted import ExtractedChapter
from reader.domain.ports import ProgressCallback

MAX_OUTLINE_DEPTH = 16


class PdfiumUnreadable(Exception):
    """PDFium cannot open the file or read any of its pages either; the message is one line."""


class PdfiumNeedsPassword(PdfiumUnreadable):
    """The file is encrypted and the password given (if any) does not open it."""


def read_with_pdfium(
    path: Path, password: str | None, progress: ProgressCallback | None = None
) -> RawPdf:
    """Every page's text, the labels, outline and metadata, as PDFium reads them.

    Raises:
        PdfiumUnreadable: PDFium is missing, cannot open the file, or can read none of its pages.
    """
    try:
        import pypdfium2
    except ImportError:  # a core dependency; only a broken install lacks it
        raise PdfiumUnreadable("PDFium (pypdfium2) is not installed") from None
    try:
        document = pypdfium2.PdfDocument(path, password=password or None)
    except pypdfium2.PdfiumError as error:
        if getattr(error, "err_code", None) == pypdfium2.raw.FPDF_ERR_PASSWORD:
            raise PdfiumNeedsPassword(f"PDFium: {_reason(error)}") from None
        raise PdfiumUnreadable(f"PDFium: {_reason(error)}") from None
    try:
        count = len(document)
        texts: PageTexts = [None] * count
        if progress:
            progress(0, count)
        for index in range(count):
            texts[index] = _page_text(document, index)
            if progress:
                progress(index + 1, count)
        if not any(text is not None for text in texts):
            raise PdfiumUnreadable("PDFium: no page could be loaded")
        raw_labels = [_label(document, index) for index in range(count)]
        chapters, skipped = _outline(document, count)
        metadata = _metadata(document)
    finally:
        document.close()
    declared = any(raw_labels)
    labels = [label or str(index + 1) for index, label in enumerate(raw_labels)]
    return RawPdf(
        texts,
        labels,
        declared,
        chapters,
        skipped,
        clean_field(metadata.get("Title")),
        clean_field(metadata.get("Author")),
        fonts=[None] * len(texts),
    )


def read_pages_with_pdfium(path: Path, password: str | None, indexes: list[int]) -> dict[int, str]:
    """The text of the given 0-based pages as PDFium reads them (the pages it can load); {} when it
    cannot open the file."""
    try:
        import pypdfium2

        document = pypdfium2.PdfDocument(path, password=password or None)
    except Exception:  # noqa: BLE001 - no PDFium, or it cannot open the file: nothing more to read
        return {}
    try:
        count = len(document)
        found = {index: _page_text(document, index) for index in indexes if 0 <= index < count}
    finally:
        document.close()
    return {index: text for index, text in found.items() if text is not None}


def _reason(error: BaseException) -> str:
    """PDFium's reason ("Failed to load document (PDFium: Data format error)." -> "data format error")."""
    text = one_line(error)
    found = re.search(r"\(PDFium: ([^)]*)\)", text)
    return (found.group(1).lower() if found else text.rstrip(".")) or type(error).__name__


def _page_text(document: Any, index: int) -> str | None:
    """One page's text with "\n" line ends ('' without a text layer, None when the page cannot load)."""
    try:
        page = document[index]
    except Exception:  # noqa: BLE001 - a page PDFium cannot load stays blank
        return None
    try:
        textpage = page.get_textpage()
        try:
            text = textpage.get_text_range()
        finally:
            textpage.close()
    except Exception:  # noqa: BLE001 - a page whose text cannot be read stays blank
        return None
    finally:
        page.close()
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _label(document: Any, index: int) -> str:
    try:
        return clean_field(document.get_page_label(index))
    except Exception:  # noqa: BLE001 - a broken label: the page number
        return ""


def _outline(document: Any, count: int) -> tuple[list[ExtractedChapter], int]:
    """Outline entries on a page of the file (level from nesting), and how many point nowhere."""
    chapters: list[ExtractedChapter] = []
    skipped = 0
    try:
        for mark in document.get_toc(max_depth=MAX_OUTLINE_DEPTH):
            title = clean_field(mark.get_title())
            dest = mark.get_dest()
            index = dest.get_index() if dest is not None else None
            if index is None or not 0 <= index < count or not title:
                skipped += 1
                continue
            chapters.append(ExtractedChapter(title, index + 1, mark.level))
    except Exception:  # noqa: BLE001 - a broken outline: the chapters read so far
        pass
    return chapters, skipped


def _metadata(document: Any) -> dict[str, str]:
    try:
        return dict(document.get_metadata_dict(skip_empty=True))
    except Exception:  # noqa: BLE001 - an unreadable info dictionary: the file name gives the title
        return {}
