"""A PDF page's picture for OCR: the page's image straight out of the file with pypdf when the page
is one image and nothing else; otherwise (several images, vector drawings, drawn text, forms) the
page rendered with PDFium (pypdfium2)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from reader.adapters.extractors.common import one_line
from reader.domain.errors import ReaderError
from reader.domain.ocr import PageImage

RENDER_DPI = 300
"""The resolution a page is rendered at for OCR (an A4 page: 2480 x 3508 pixels)."""

RENDER_MAX_SIDE = 4000
"""The longest side of a rendered page in pixels: a large page is rendered below RENDER_DPI."""

PAINTING = {
    b"S", b"s", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*",  # paths stroked or filled
    b"sh",  # shadings
    b"Tj", b"TJ", b"'", b'"',  # text shown (a page without a text layer may still draw glyphs)
    b"INLINE IMAGE", b"BI",  # inline images
}  # fmt: skip
"""Content stream operators that put marks on the page other than an image XObject."""


def _resolve(value: Any) -> Any:
    return value.get_object() if hasattr(value, "get_object") else value


def only_image(page: Any) -> bool:
    """Whether the page's content is exactly one image XObject drawn once and nothing else."""
    from pypdf.generic import ContentStream

    contents = page.get_contents()
    if contents is None:
        return False
    resources = _resolve(page.get("/Resources")) or {}
    xobjects = _resolve(resources.get("/XObject")) or {}
    images = 0
    for operands, operator in ContentStream(contents, page.pdf).operations:
        if operator in PAINTING:
            return False
        if operator == b"Do":
            xobject = _resolve(xobjects.get(operands[0])) if operands else None
            if xobject is None or xobject.get("/Subtype") != "/Image":
                return False  # a form draws whatever it holds
            images += 1
    return images == 1


class PdfPageImages:
    """Takes a scanned page's image from the PDF when it is the page; renders the page otherwise."""

    def __init__(self, dpi: int = RENDER_DPI, max_side: int = RENDER_MAX_SIDE) -> None:
        self.dpi = dpi
        self.max_side = max_side
        self._path: str | None = None
        self._reader: Any = None
        self._pdfium_path: str | None = None
        self._pdfium: Any = None

    def _open(self, source_path: str) -> Any:
        from pypdf import PdfReader

        if self._path != source_path:
            path = Path(source_path)
            if not path.is_file():
                raise ReaderError(
                    f"{source_path}: the book's file is gone; import it again from where it is now."
                )
            try:
                self._reader = PdfReader(path)
            except Exception as error:  # pypdf raises many types for broken files
                raise ReaderError(f"{source_path}: cannot read this PDF ({one_line(error)}).") from None
            self._path = source_path
        return self._reader

    def _open_pdfium(self, source_path: str) -> Any:
        try:
            import pypdfium2
        except ImportError:
            raise ReaderError("Reading this page needs the PDF renderer pypdfium2; reinstall reader.") from None
        if self._pdfium_path != source_path:
            self.close()
            try:
                self._pdfium = pypdfium2.PdfDocument(source_path)
            except pypdfium2.PdfiumError as error:
                raise ReaderError(f"{source_path}: cannot render this PDF ({one_line(error)}).") from None
            self._pdfium_path = source_path
        return self._pdfium

    def close(self) -> None:
        """Close the document open for rendering, if any."""
        if self._pdfium is not None:
            self._pdfium.close()
        self._pdfium = self._pdfium_path = None

    def image(self, source_path: str, page: int) -> PageImage | None:
        try:
            pdf_page = self._open(source_path).pages[page - 1]
        except ReaderError:
            if not Path(source_path).is_file():
                raise
            return self.render(source_path, page)  # a damaged file pypdf cannot parse: PDFium read it at import
        except Exception:  # noqa: BLE001 - a page tree pypdf cannot walk: PDFium rendering reads it
            return self.render(source_path, page)
        try:
            images = list(pdf_page.images)
            if len(images) == 1 and only_image(pdf_page):
                return PageImage(images[0].data, "the page's only image")
            draws = bool(images) or not _blank(pdf_page)
        except Exception:  # an image or a content stream pypdf cannot decode: PDFium may
            draws = True
        if not draws:
            return None
        try:
            return self.render(source_path, page)
        except ReaderError:
            raise
        except Exception:  # a page PDFium cannot render: nothing to read on it
            return None

    def render(self, source_path: str, page: int) -> PageImage:
        """The page rendered in grey at `dpi` (less when its longest side would pass `max_side`), as PNG."""
        document = self._open_pdfium(source_path)
        pdf_page = document[page - 1]
        try:
            width, height = pdf_page.get_size()  # points
            scale = min(self.dpi / 72, self.max_side / max(width, height, 1))
            bitmap = pdf_page.render(scale=scale, grayscale=True)
            picture = bitmap.to_pil()
            buffer = io.BytesIO()
            picture.save(buffer, "PNG", compress_level=1)
        finally:
            pdf_page.close()
        return PageImage(buffer.getvalue(), f"the page rendered at {round(scale * 72)} dpi")


def _blank(page: Any) -> bool:
    """Whether the page's content paints nothing (no content, or only state changes and clips)."""
    from pypdf.generic import ContentStream

    contents = page.get_contents()
    if contents is None:
        return True
    return not any(
        operator in PAINTING or operator == b"Do"
        for _operands, operator in ContentStream(contents, page.pdf).operations
    )
