"""What searches of a book keep between them: its chapter list, and its concept map read at any page.

Every search of War and Peace read its 383 chapters (1.6 ms) and the concepts met by the reader's page
(6-10 ms for each new page) from the library. Here both are read once and kept, shared by every
thread: a book's chapters under its id and import time (a new import is a new key), its concept map
also under `ConceptRepository.revision` (OCR rewrites the map without a new import). The concepts
met by a page are then read from the whole map in memory (`ConceptHistory.at`), only those whose
names hold a word the question names.
"""

from __future__ import annotations

import bisect
import itertools
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TypeVar

from reader.app.search.question_scope import chapter_index
from reader.domain.knowledge import ConceptEntry, ConceptHistory
from reader.domain.models import Book, Chapter
from reader.domain.ports import BookRepository, ConceptRepository

BOOKS_KEPT = 4

K = TypeVar("K")
V = TypeVar("V")


@dataclass(frozen=True)
class BookChapters:
    """A book's chapters and which chapter each page is in."""

    chapters: tuple[Chapter, ...]
    chapter_of: Callable[[int], int]


class ConceptMap:
    """A book's whole concept map in memory, read at any page."""

    def __init__(self, histories: Sequence[ConceptHistory]) -> None:
        self.histories = tuple(histories)
        texts = ["\n".join([h.name, *(name for _, name in h.aliases)]).lower() for h in self.histories]
        self._names = "\0".join(texts)
        """Every concept's names, lowercased, one concept after another (`_starts`)."""
        self._starts = list(itertools.accumulate((len(t) + 1 for t in texts[:-1]), initial=0))

    def naming(self, words: Collection[str]) -> list[ConceptHistory]:
        """The concepts, in id order, any of whose names (at any page) holds one of the lowercase `words`."""
        found: set[int] = set()
        for word in words:
            at = self._names.find(word)
            while at >= 0:
                found.add(bisect.bisect_right(self._starts, at) - 1)
                at = self._names.find(word, at + 1)
        return [self.histories[i] for i in sorted(found)]

    def visible(self, page: int, words: Collection[str] | None = None) -> list[ConceptEntry]:
        """The concepts met by `page` as `ConceptRepository.visible` gives them, most mentioned first;
        only those a name of which holds one of `words` unless None."""
        chosen = self.histories if words is None else self.naming(words)
        entries = [entry for history in chosen if (entry := history.at(page)) is not None]
        entries.sort(key=lambda e: (-e.mentions, e.first_page, e.name))
        return entries


class _Kept(OrderedDict[K, V]):
    """At most `size` items, the least recently used dropped first."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def find(self, key: K) -> V | None:
        value = self.get(key)
        if value is not None:
            self.move_to_end(key)
        return value

    def keep(self, key: K, value: V) -> V:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)
        return value


class SearchMemory:
    """Chapters and concept maps of the last few books searched, for every thread."""

    def __init__(self, books_kept: int = BOOKS_KEPT) -> None:
        self._lock = threading.Lock()
        self._chapters: _Kept[tuple[str, str], BookChapters] = _Kept(books_kept)
        self._maps: _Kept[tuple[str, str, tuple[int, ...]], ConceptMap | None] = _Kept(books_kept)
        """None: the map was asked for once (a one-off search reads the page's concepts with one query)."""

    def chapters(self, book: Book, books: BookRepository) -> BookChapters:
        """The book's chapters, read from `books` once per import."""
        key = (book.id, book.imported_at)
        with self._lock:
            found = self._chapters.find(key)
        if found is not None:
            return found
        chapters = tuple(books.chapters(book.id))
        made = BookChapters(chapters, chapter_index(chapters))
        with self._lock:
            return self._chapters.keep(key, made)

    def concepts_at(
        self, book: Book, page: int, concepts: ConceptRepository, words: Collection[str] | None = None
    ) -> Sequence[ConceptEntry]:
        """The concepts met by `page` as `concepts.visible` gives them (in its order), at least those a name
        of which holds one of the lowercase `words` (all when None). The first time a map is asked for,
        the page's concepts are read with one query; the second time, the whole map is read and kept."""
        key = (book.id, book.imported_at, concepts.revision(book.id))
        with self._lock:
            asked = key in self._maps
            held = self._maps.find(key)
        if held is None and not asked:
            with self._lock:
                self._maps.keep(key, None)
            return concepts.visible(book.id, page)
        if held is None:
            held = ConceptMap(concepts.histories(book.id))
            with self._lock:
                self._maps.keep(key, held)
        return held.visible(page, words)
