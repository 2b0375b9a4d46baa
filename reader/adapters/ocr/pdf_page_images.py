"""A PDF page's picture straight out of the file with pypdf: the page's image, not a rendering."""

from __future__ import annotations

from pathlib import Path

from reader.adapters.extractors.common import one_line
from reader.domain.errors import ReaderError
from reader.domain.ocr import PageImage


class PdfPageImages:
    """Takes a scanned page's image from the PDF (its only image, else its largest)."""

    def __init__(self) -> None:
        self._path: str | None = None
        self._reader: object | None = None

    def _open(self, source_path: str) -> object:
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
        assert self._reader is not None
        return self._reader

    def image(self, source_path: str, page: int) -> PageImage | None:
        reader = self._open(source_path)
        try:
            images = list(reader.pages[page - 1].images)  # type: ignore[attr-defined]
        except Exception:  # an image pypdf cannot decode: nothing to read on this page
            return None
        if not images:
            return None
        if len(images) == 1:
            return PageImage(images[0].data, "the page's only image")
        sized = [(img.image.width * img.image.height if img.image else 0, img) for img in images]
        largest = max(sized, key=lambda pair: pair[0])[1]
        return PageImage(largest.data, f"its largest of {len(images)} images")
