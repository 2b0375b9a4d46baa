"""PDF books with pypdf: physical pages, printed labels, chapters (outline, else printed), metadata."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
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
    extract_in_process,
    extract_in_workers,
    quiet_pypdf,
    usable_cpus,
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
        """Read every page's text, labels, outline and metadata."""
        check_file(path)
        if b"%PDF-" not in read_head(path):
            raise ExtractionError(f"{shown(path)} is not a PDF file (no %PDF header).")
        with quiet_pypdf(), _open(path) as handle:
            reader, used_password = open_reader(path, handle, password)
            count = page_count(path, reader)
            measures: PageMeasures | None = [None] * count if self.measure_visuals else None
            fonts: PageFontSizes = [None] * count
            raw = self._texts(path, reader, used_password, count, progress, measures, fonts)
            labels = page_labels(reader, count)
            chapters, skipped = outline_chapters(reader, count)
            title, author, language = metadata(reader)
            structure = find_structure(
                raw,
                labels,
                declared_labels=declares_labels(reader),
                outline=chapters,
                title=title,
                fonts=fonts,
            )
        labels, chapters = structure.labels, structure.chapters
        texts = [
            None if text is None else normalize_text("\n".join(lines))
            for text, lines in zip(raw, structure.lines, strict=True)
        ]
        pages = [
            ExtractedPage(label, text or "", page_visuals(measures[i] if measures else None, text or ""))
            for i, (label, text) in enumerate(zip(labels, texts, strict=True))
        ]
        warnings = page_warnings([None if text is None else text.strip() for text in raw], labels)
        if skipped:
            entries = plural(skipped, "outline entry", "outline entries")
            warnings.append(f"Left out {entries} pointing to no page of this file.")
        return ExtractedBook(
            title=title or title_from_filename(path),
            author=author,
            language=language,
            format="pdf",
            pages=pages,
            chapters=chapters,
            warnings=warnings,
            pagination="physical",
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


def _damaged(path: Path, error: BaseException) -> ExtractionError:
    reason = one_line(error) or type(error).__name__
    return ExtractionError(
        f"{shown(path)}: cannot read this PDF ({reason}); the file may be damaged or truncated."
    )


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
        raise ExtractionError(f"{shown(path)} has no pages.")
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
