"""Reading pages that have no text layer: the ports the OCR use case needs. Pure Python."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from reader.domain.knowledge import ExtractedConcept
    from reader.domain.models import Book

OCR_EXTRA_HINT = "install the OCR extra: pip install 'reader[ocr]'"


@dataclass(frozen=True)
class PageImage:
    """A page's picture as image file bytes (PNG, JPEG, ...), and how it was found."""

    data: bytes
    how: str
    """"the page's only image" (taken out of the file), or "the page rendered at N dpi"."""


class PageImages(Protocol):
    """Pictures of a book's pages: a PDF's from its file, a picture book's from the library."""

    def readable(self, book: Book) -> bool:
        """Whether the book's pages have pictures to read (a PDF, or a book whose pages are pictures)."""
        ...

    def image(self, book: Book, page: int) -> PageImage | None:
        """The picture of 1-based `page`, or None when the page has no image to read.

        Raises:
            ReaderError: the book's file is missing or unreadable.
        """
        ...


class TextRecognizer(Protocol):
    """Reads the text in a picture of a page."""

    name: str

    def recognize(self, image: bytes) -> str:
        """The page's text: lines joined with spaces, paragraphs with blank lines ("" when none).

        Raises:
            ReaderError: the recognizer is not installed (the message says how to get it).
        """
        ...


class PageTextStore(Protocol):
    """Recognised text of pages, written with the page's chunks so search sees it at once."""

    def recognized(self, book_id: str) -> Mapping[int, str]:
        """Page number -> source ("ocr", "model") of every page with recognised text."""
        ...

    def save_page_text(
        self, book_id: str, page: int, source: str, text: str, pieces: Sequence[tuple[str, bool]]
    ) -> None:
        """Store a page's text and replace its chunks with `pieces` ((text, continues paragraph)), in
        one committed transaction; the vectors of the replaced chunks go with them."""
        ...

    def replace_concepts(self, book_id: str, concepts: Sequence[ExtractedConcept]) -> None:
        """Replace the book's concept map."""
        ...
