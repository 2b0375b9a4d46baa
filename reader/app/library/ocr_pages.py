"""`reader ocr`: read the pages that have no text layer by OCR, one committed page at a time.

A page is a candidate when it has no text (no chunks) and no recognised text yet, so a run that is
interrupted keeps its pages and the next one picks up where it stopped. Every page's text is indexed
as it is stored (chunks and full-text search); the concept map is rebuilt once at the end of a run,
also an interrupted one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from reader.app.knowledge.concept_map import build_concept_map
from reader.app.pages.page_text_index import PageTextIndex
from reader.domain.errors import ReaderError
from reader.domain.models import OCR_SOURCE, Book
from reader.domain.ocr import PageImages, PageTextStore, TextRecognizer
from reader.domain.ports import BookRepository, ChunkRepository


@dataclass(frozen=True)
class OcrPage:
    """What happened to one page: "read", "empty" (no text found), "no image" or "skipped" (done)."""

    number: int
    label: str
    status: str
    chars: int = 0


@dataclass
class OcrOutcome:
    """A run over a range of pages."""

    book: Book
    start: int
    end: int
    candidates: int = 0
    """Pages in the range with no text layer (those read by OCR before included)."""
    read: int = 0
    empty: int = 0
    no_image: int = 0
    skipped: int = 0
    pages: list[OcrPage] = field(default_factory=list)


class OcrPagesUseCase:
    """Reads the pages that have no text (a scanned PDF's, a comic's), with a local recognizer."""

    def __init__(
        self,
        books: BookRepository,
        chunks: ChunkRepository,
        store: PageTextStore,
        images: PageImages,
        recognizer: TextRecognizer,
    ) -> None:
        self.books = books
        self.chunks = chunks
        self.store = store
        self.images = images
        self.recognizer = recognizer
        self.index = PageTextIndex(books, chunks, store, build_concept_map)

    def can_read(self, book: Book) -> bool:
        """Whether the book has page pictures OCR can read (a PDF, or a book whose pages are pictures)."""
        return self.images.readable(book)

    def blank_pages(self, book: Book, start: int, end: int) -> list[int]:
        """Pages in start..end with no text at all (no chunks)."""
        with_text = {c.start_page for c in self.chunks.get_by_page_range(book.id, start, end)}
        return [n for n in range(start, end + 1) if n not in with_text]

    def ocr_book(
        self,
        book_id: str,
        start: int = 1,
        end: int | None = None,
        *,
        progress: Callable[[int, int], None] | None = None,
        on_page: Callable[[OcrPage], None] | None = None,
        cancel: threading.Event | None = None,
    ) -> OcrOutcome:
        """OCR the blank pages in start..end (default: all) that are not done yet.

        Raises:
            ReaderError: the book does not exist, has no page pictures (not a PDF nor a book of
            pictures), or the recognizer is not installed.
        """
        book = self.books.get(book_id)
        if book is None:
            raise ReaderError("No such book.")
        if not self.images.readable(book):
            raise ReaderError(
                f"{book.title} has no page pictures; OCR reads scanned PDFs and books whose pages are pictures "
                "(comics, fixed-layout EPUBs)."
            )
        last = min(end or book.page_count, book.page_count)
        labels = {p.number: p.label for p in self.books.pages(book_id)}
        done = self.store.recognized(book_id)
        recognized = {n for n in done if start <= n <= last}
        candidates = sorted(set(self.blank_pages(book, start, last)) | recognized)
        outcome = OcrOutcome(book, start, last, candidates=len(candidates), skipped=len(recognized))
        todo = [n for n in candidates if n not in done]
        if progress:
            progress(0, len(todo))
        try:
            for index, number in enumerate(todo, start=1):
                if cancel is not None and cancel.is_set():
                    break
                result = self._read_page(book, number, labels.get(number, str(number)))
                outcome.pages.append(result)
                counter = result.status.replace(" ", "_")
                setattr(outcome, counter, getattr(outcome, counter) + 1)
                if on_page:
                    on_page(result)
                if progress:
                    progress(index, len(todo))
        finally:
            if outcome.read:
                self.rebuild_concepts(book)
        return outcome

    def _read_page(self, book: Book, number: int, label: str) -> OcrPage:
        image = self.images.image(book, number)
        if image is None:
            return OcrPage(number, label, "no image")
        text = self.recognizer.recognize(image.data)
        self.index.save(book.id, number, OCR_SOURCE, text)
        return OcrPage(number, label, "read" if text else "empty", len(text))

    def rebuild_concepts(self, book: Book) -> None:
        """The concept map again from the story's pages, now with the recognised text."""
        self.index.rebuild_concepts(book)
