"""PDF books with pypdf: physical pages, printed labels, chapters (outline, else printed), metadata."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, BinaryIO

from pypdf import PasswordType, PdfReader

from reader.adapters.extractors.common import (
    check_file,
    clean_field,
    one_line,
    plural,
    read_head,
    shown,
    title_from_filename,
)
from reader.adapters.extractors.pdf_pages import (
    PageFontSizes,
    PageMeasures,
    PageTexts,
    RawPdf,
    extract_in_process,
    extract_in_workers,
    quiet_pypdf,
    usable_cpus,
)
from reader.adapters.extractors.pdf_pdfium import (
    PdfiumNeedsPassword,
    PdfiumUnreadable,
    read_pages_with_pdfium,
    read_with_pdfium,
)
from reader.adapters.extractors.pdf_structure import find_structure
from reader.adapters.extractors.pdf_visuals import Measured
from reader.adapters.extractors.text_cleanup import normalize_text
from reader.domain.errors import EncryptedBookError, ExtractionError
from reader.domain.extracted import ExtractedBook, ExtractedChapter, ExtractedPage
from reader.domain.models import NO_VISUALS, PageVisuals
from reader.domain.ports import ProgressCallback
from reader.domain.visuals import score_visual_importance

MAX_OUTLINE_DEPTH = 16


class DamagedPdfError(ExtractionError):
    """pypdf cannot open this PDF or read its pages (PDFium may still); `reason` says why, on one line."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(
            f"{shown(path)}: cannot read this PDF ({reason}); the file may be damaged or truncated."
        )
        self.path = path
        self.reason = reason


class PdfExtractor:
    """Reads PDFs; above `parallel_threshold` pages the text is extracted in `workers` processes.

    With `measure_visuals` (the default) each page's images and drawings are measured in the same
    pass as its text, and scored into a visual_importance.
    """

    def __init__(self, parallel_threshold: int = 64, workers: int = 2, measure_visuals: bool = True) -> None:
        self.parallel_threshold = parallel_threshold
        self.workers = workers
        self.measure_visuals = measure_visuals

    def extract(
        self, path: Path, password: str | None = None, progress: ProgressCallback | None = None
    ) -> ExtractedBook:
        """Read every page's text, labels, outline and metadata; PDFium reads a file pypdf cannot."""
        check_file(path)
        if b"%PDF-" not in read_head(path):
            raise ExtractionError(f"{shown(path)} is not a PDF file (no %PDF header).")
        try:
            raw = self._read_pypdf(path, password, progress)
        except DamagedPdfError as damage:
            raw = read_repaired(path, password, progress, damage)
        structure = find_structure(
            raw.texts,
            raw.labels,
            declared_labels=raw.declared_labels,
            outline=raw.chapters,
            title=raw.title,
            fonts=raw.fonts,
        )
        labels, chapters = structure.labels, structure.chapters
        texts = [
            None if text is None else normalize_text("\n".join(lines))
            for text, lines in zip(raw.texts, structure.lines, strict=True)
        ]
        measures = raw.measures
        pages = [
            ExtractedPage(label, text or "", page_visuals(measures[i] if measures else None, text or ""))
            for i, (label, text) in enumerate(zip(labels, texts, strict=True))
        ]
        warnings = [raw.repaired] if raw.repaired else []
        warnings += page_warnings([None if text is None else text.strip() for text in raw.texts], labels)
        if raw.skipped_entries:
            entries = plural(raw.skipped_entries, "outline entry", "outline entries")
            warnings.append(f"Left out {entries} pointing to no page of this file.")
        return ExtractedBook(
            title=raw.title or title_from_filename(path),
            author=raw.author,
            language=raw.language,
            format="pdf",
            pages=pages,
            chapters=chapters,
            warnings=warnings,
            pagination="physical",
        )

    def _read_pypdf(self, path: Path, password: str | None, progress: ProgressCallback | None) -> RawPdf:
        """The file as pypdf reads it; DamagedPdfError when it cannot open it or read any page."""
        with quiet_pypdf(), _open(path) as handle:
            reader, used_password = open_reader(path, handle, password)
            count = page_count(path, reader)
            measures: PageMeasures | None = [None] * count if self.measure_visuals else None
            fonts: PageFontSizes = [None] * count
            texts = self._texts(path, reader, used_password, count, progress, measures, fonts)
            if all(text is None for text in texts):
                raise _damaged(path, "no page could be read")
            repaired = ""
            unread = [index for index, text in enumerate(texts) if text is None]
            if unread:  # pages pypdf cannot read: PDFium may
                for index, text in read_pages_with_pdfium(path, used_password, unread).items():
                    texts[index] = text
                if mended := sum(1 for index in unread if texts[index] is not None):
                    repaired = f"{plural(mended, 'page', 'pages')} pypdf could not read {'was' if mended == 1 else 'were'} read with PDFium."
            chapters, skipped = outline_chapters(reader, count)
            title, author, language = metadata(reader)
            return RawPdf(
                texts,
                page_labels(reader, count),
                declares_labels(reader),
                chapters,
                skipped,
                title,
                author,
                language,
                measures,
                fonts,
                repaired,
            )

    def _texts(
        self,
        path: Path,
        reader: PdfReader,
        password: str | None,
        count: int,
        progress: ProgressCallback | None,
        measures: PageMeasures | None = None,
        fonts: PageFontSizes | None = None,
    ) -> PageTexts:
        texts: PageTexts = [None] * count
        done = [False] * count
        finished = 0

        def report(pages: int) -> None:
            nonlocal finished
            finished += pages
            if progress:
                progress(finished, count)

        if progress:
            progress(0, count)
        workers = min(self.workers, usable_cpus())
        if workers >= 2 and count > self.parallel_threshold:
            # Pages a failed worker did not deliver are read below, in this process.
            extract_in_workers(path.resolve(), password, count, workers, texts, done, report, measures, fonts)
        missing = [i for i in range(count) if not done[i]]
        extract_in_process(reader, missing, texts, report, measures, fonts)
        return texts


def page_visuals(measured: Measured | None, text: str) -> PageVisuals:
    """A page's visual measurements with the visual_importance they and its amount of text give."""
    if measured is None:
        return NO_VISUALS
    importance = score_visual_importance(measured.figure_area, len(text), measured.image_area)
    return PageVisuals(measured.image_count, measured.image_area, measured.drawing_area, importance)


@contextmanager
def _open(path: Path) -> Iterator[BinaryIO]:
    """The PDF file opened for reading, with OSError turned into ExtractionError."""
    try:
        handle = path.open("rb")
    except OSError as error:
        reason = one_line(error.strerror or error)
        raise ExtractionError(f"{shown(path)}: cannot read the file ({reason}).") from None
    with handle:
        yield handle


def _damaged(path: Path, error: BaseException | str) -> DamagedPdfError:
    return DamagedPdfError(path, one_line(error).rstrip(".") or type(error).__name__)


def read_repaired(
    path: Path, password: str | None, progress: ProgressCallback | None, damage: DamagedPdfError
) -> RawPdf:
    """The damaged file read by PDFium, with a warning that says so; when PDFium cannot read it either,
    ExtractionError with pypdf's reason and PDFium's in one line."""
    try:
        read = read_with_pdfium(path, password, progress)
    except PdfiumNeedsPassword:
        if password:
            raise EncryptedBookError(
                f"{shown(path)}: the password is wrong; check it and run again with --password."
            ) from None
        raise EncryptedBookError(f"{shown(path)} is password-protected; run again with --password.") from None
    except PdfiumUnreadable as error:
        raise DamagedPdfError(path, f"{damage.reason}; {error}") from None
    repaired = (
        f"The file is damaged ({damage.reason}); PDFium repaired it on reading: its text, page labels and "
        "outline are read, the figures on its pages were not measured."
    )
    if unread := [index + 1 for index, text in enumerate(read.texts) if text is None]:
        pages = ", ".join(str(n) for n in unread[:5]) + (", ..." if len(unread) > 5 else "")
        repaired += f" {plural(len(unread), 'page', 'pages')} could not be repaired (pages {pages})."
    return replace(read, repaired=repaired)


def open_reader(path: Path, handle: BinaryIO, password: str | None) -> tuple[PdfReader, str | None]:
    """A pypdf reader, decrypted with the empty password or `password`; returns the password that worked."""
    try:
        reader = PdfReader(handle)
        if not reader.is_encrypted:
            return reader, None
        if reader.decrypt("") != PasswordType.NOT_DECRYPTED:
            return reader, ""
        if not password:
            raise EncryptedBookError(f"{shown(path)} is password-protected; run again with --password.")
        if reader.decrypt(password) == PasswordType.NOT_DECRYPTED:
            raise EncryptedBookError(
                f"{shown(path)}: the password is wrong; check it and run again with --password."
            )
        return reader, password
    except ExtractionError:
        raise
    except NotImplementedError as error:
        raise ExtractionError(
            f"{shown(path)} uses an encryption reader cannot open ({one_line(error)})."
        ) from None
    except Exception as error:  # pypdf raises many types for broken files
        if type(error).__name__ == "DependencyError":
            raise ExtractionError(
                f"{shown(path)} is AES-encrypted and needs the `cryptography` package; "
                "install it and run again."
            ) from None
        raise _damaged(path, error) from None


def page_count(path: Path, reader: PdfReader) -> int:
    """The number of pages; ExtractionError when the page tree is unreadable or empty."""
    try:
        count = len(reader.pages)
    except Exception as error:
        raise _damaged(path, error) from None
    if count == 0:
        raise DamagedPdfError(path, "its page tree holds no pages")
    return count


def page_labels(reader: PdfReader, count: int) -> list[str]:
    """Printed page labels (/PageLabels), falling back to 1..N for any missing or broken label."""
    try:
        labels = [clean_field(label) for label in reader.page_labels]
    except Exception:  # a broken /PageLabels tree: plain numbers
        labels = []
    if len(labels) != count:
        labels = []
    return [labels[i] if labels and labels[i] else str(i + 1) for i in range(count)]


def declares_labels(reader: PdfReader) -> bool:
    """Whether the PDF has a /PageLabels tree (else its labels are plain page numbers)."""
    try:
        return "/PageLabels" in reader.root_object
    except Exception:  # a broken catalog: no labels of its own
        return False


def outline_chapters(reader: PdfReader, count: int) -> tuple[list[ExtractedChapter], int]:
    """Chapters from the outline (nesting gives the level), and how many entries did not resolve."""
    chapters: list[ExtractedChapter] = []
    skipped = 0
    try:
        outline = reader.outline
    except Exception:  # a broken outline: no chapters
        return [], 0

    def walk(items: list[Any], level: int) -> None:
        nonlocal skipped
        for item in items:
            if isinstance(item, list):
                if level + 1 < MAX_OUTLINE_DEPTH:
                    walk(item, level + 1)
                continue
            title = clean_field(getattr(item, "title", ""))
            try:
                number = reader.get_destination_page_number(item)
            except Exception:
                number = None
            if number is None or not 0 <= number < count or not title:
                skipped += 1
                continue
            chapters.append(ExtractedChapter(title, number + 1, level))

    walk(list(outline or []), 0)
    return chapters, skipped


def metadata(reader: PdfReader) -> tuple[str, str, str]:
    """(title, author, language) from the document info and the catalog's /Lang; '' when absent."""
    title = author = language = ""
    try:
        info = reader.metadata
        if info is not None:
            title, author = clean_field(info.title), clean_field(info.author)
    except Exception:  # unreadable info dictionary: fall back to the file name
        pass
    try:
        lang = reader.root_object.get("/Lang")
        language = clean_field(lang.get_object() if lang is not None else None)
    except Exception:
        pass
    return title, author, language


def page_warnings(texts: PageTexts, labels: list[str]) -> list[str]:
    """Warnings about pages without a text layer and pages that could not be read."""
    warnings: list[str] = []
    total = len(texts)
    broken = [labels[i] for i, text in enumerate(texts) if text is None]
    blank = sum(1 for text in texts if text == "")
    if blank:
        warnings.append(
            f"{blank} of {total} pages have no text layer (scanned images?); they will be blank until read "
            "by OCR: `reader ocr BOOK` (needs pip install 'reader[ocr]')."
        )
    if broken:
        shown_labels = ", ".join(broken[:5]) + (", ..." if len(broken) > 5 else "")
        warnings.append(
            f"{len(broken)} of {total} pages could not be read and will be blank (pages {shown_labels})."
        )
    return warnings
