"""Storing a page's text that did not come from its text layer (OCR, a model's transcription) and
re-indexing it: the page's chunks and full-text search at once, the concept map after a run."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from reader.app.pages.chunking import split_page
from reader.domain.knowledge import ExtractedConcept
from reader.domain.models import Book, Chunk, join_chunks
from reader.domain.ocr import PageTextStore
from reader.domain.ports import BookRepository, ChunkRepository


class PageTextIndex:
    """One path for every source of page text: `save` a page, then `rebuild_concepts` once."""

    def __init__(
        self,
        books: BookRepository,
        chunks: ChunkRepository,
        store: PageTextStore,
        build_concept_map: Callable[[Sequence[str], Mapping[int, Sequence[str]]], list[ExtractedConcept]],
    ) -> None:
        self.books = books
        self.chunks = chunks
        self.store = store
        self.build_concept_map = build_concept_map
        """The knowledge feature's concept-map builder (pages sit below knowledge, so it is given)."""

    def sources(self, book_id: str) -> dict[int, str]:
        """Page number -> source ("ocr", "model") of every page whose text was stored here."""
        return dict(self.store.recognized(book_id))

    def save(self, book_id: str, number: int, source: str, text: str) -> None:
        """Store `text` as page `number`'s text marked with `source`, its chunks replaced, committed."""
        pieces = [(piece.text, piece.continues) for piece in split_page(text)]
        self.store.save_page_text(book_id, number, source, text, pieces)

    def rebuild_concepts(self, book: Book) -> None:
        """The concept map again from the story's pages, now with the stored text."""
        chunks = self.chunks.get_by_page_range(book.id, 1, book.page_count)
        by_page: dict[int, list[Chunk]] = {}
        for chunk in chunks:
            by_page.setdefault(chunk.start_page, []).append(chunk)
        story = set(book.story_pages)
        texts = [join_chunks(by_page.get(n, [])) if n in story else "" for n in range(1, book.page_count + 1)]
        headings: dict[int, list[str]] = {}
        for chapter in self.books.chapters(book.id):
            headings.setdefault(chapter.start_page, []).append(chapter.title)
        self.store.replace_concepts(book.id, self.build_concept_map(texts, headings))
