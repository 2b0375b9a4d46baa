"""A page's picture for OCR from wherever the book keeps it: the library for books whose pages are
pictures (comics, fixed-layout EPUBs), the book's file for PDFs."""

from __future__ import annotations

from reader.adapters.ocr.pdf_page_images import PdfPageImages
from reader.domain.models import Book
from reader.domain.ocr import PageImage
from reader.domain.ports import PagePictures

UNREADABLE_TYPES = frozenset(("image/svg+xml",))
"""Pictures the recognizer cannot decode (drawings as markup: their text is read at import)."""


class BookPageImages:
    """Stored page pictures first; a PDF's pages from its file."""

    def __init__(self, pictures: PagePictures, pdf: PdfPageImages | None = None) -> None:
        self.pictures = pictures
        self.pdf = pdf or PdfPageImages()

    def readable(self, book: Book) -> bool:
        return book.format == "pdf" or bool(self.pictures.pages_with_pictures(book.id))

    def image(self, book: Book, page: int) -> PageImage | None:
        picture = self.pictures.picture(book.id, page)
        if picture is not None:
            if picture.media_type in UNREADABLE_TYPES:
                return None
            return PageImage(picture.data, "the page's picture")
        if book.format == "pdf":
            return self.pdf.image(book.source_path, page)
        return None
