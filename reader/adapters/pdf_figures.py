"""A PDF book's figures, drawn from its file with PDFium (pypdfium2): the figures where they stand on a
page, and the whole page for pages whose meaning is in their figures."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reader.domain.errors import ReaderError

MIN_FIGURE_SHARE = 0.04
"""An image covering less of the page than this (a logo, an ornament) is not shown as a figure."""
MAX_FIGURES = 6
"""Figures taken from one page (a page of many small images is better seen whole, with `p`)."""
RENDER_DPI = 110
MAX_RENDER_SIDE = 1600


@dataclass(frozen=True)
class PdfFigure:
    """An image on a PDF page: its box as fractions of the page (left, top, right, bottom from the top
    left), its size in pixels at RENDER_DPI, and the share of the page's text that comes before it."""

    box: tuple[float, float, float, float]
    width: int
    height: int
    text_before: float


class PdfFigures:
    """Opens a book's file once and finds and renders its figures; one instance per thread."""

    def __init__(self) -> None:
        self._path: str | None = None
        self._document: Any = None
        self._lock = threading.Lock()

    def _open(self, source_path: str) -> Any:
        try:
            import pypdfium2
        except ImportError:
            raise ReaderError("Drawing PDF pages needs pypdfium2 (a dependency of reader): reinstall reader.") from None
        if self._path != source_path:
            self.close()
            if not Path(source_path).is_file():
                raise ReaderError(f"{source_path}: the book's file is gone; import it again from where it is now.")
            try:
                self._document = pypdfium2.PdfDocument(source_path)
            except pypdfium2.PdfiumError as error:
                raise ReaderError(f"{source_path}: cannot render this PDF ({error}).") from None
            self._path = source_path
        return self._document

    def close(self) -> None:
        """Close the open document, if any."""
        if self._document is not None:
            self._document.close()
        self._document = self._path = None

    def figures(self, source_path: str, page: int) -> list[PdfFigure]:
        """The images on page `page` (1-based) large enough to be figures, top to bottom."""
        import pypdfium2.raw as pdfium_c

        with self._lock:
            pdf_page = self._open(source_path)[page - 1]
            try:
                width, height = pdf_page.get_size()
                if width <= 0 or height <= 0:
                    return []
                boxes: list[tuple[float, float, float, float]] = []
                for obj in pdf_page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=2):
                    left, bottom, right, top = obj.get_bounds()
                    left, right = max(0.0, left), min(width, right)
                    bottom, top = max(0.0, bottom), min(height, top)
                    if right <= left or top <= bottom:
                        continue
                    if (right - left) * (top - bottom) / (width * height) >= MIN_FIGURE_SHARE:
                        boxes.append((left, bottom, right, top))
                boxes = sorted(boxes, key=lambda b: -b[3])[:MAX_FIGURES]
                if not boxes:
                    return []
                textpage = pdf_page.get_textpage()
                try:
                    total = max(1, textpage.count_chars())
                    found = []
                    for left, bottom, right, top in boxes:
                        above = len(textpage.get_text_bounded(0, top, width, height).strip())
                        scale = RENDER_DPI / 72
                        found.append(
                            PdfFigure(
                                (left / width, 1 - top / height, right / width, 1 - bottom / height),
                                max(1, round((right - left) * scale)),
                                max(1, round((top - bottom) * scale)),
                                min(1.0, above / total),
                            )
                        )
                    return found
                finally:
                    textpage.close()
            finally:
                pdf_page.close()

    def render(self, source_path: str, page: int, box: tuple[float, float, float, float] | None = None) -> Any:
        """Page `page` (or the part of it in `box`, fractions from the top left) as an RGB PIL image."""
        with self._lock:
            pdf_page = self._open(source_path)[page - 1]
            try:
                width, height = pdf_page.get_size()
                scale = min(RENDER_DPI / 72, MAX_RENDER_SIDE / max(width, height, 1))
                crop = (0.0, 0.0, 0.0, 0.0)
                if box is not None:
                    left, top, right, bottom = box
                    # PDFium crops (left, bottom, right, top): points taken off each edge
                    crop = (left * width, (1 - bottom) * height, (1 - right) * width, top * height)
                    longest = max((right - left) * width, (bottom - top) * height, 1)
                    scale = min(RENDER_DPI / 72, MAX_RENDER_SIDE / longest)
                bitmap = pdf_page.render(scale=scale, crop=crop)
                return bitmap.to_pil().convert("RGB")
            finally:
                pdf_page.close()
