"""Refining the X-Ray with the chat model, chapter by chapter, up to the reader's page.

Each call sees one chapter's names (met by the reader's page) and a few passages from that chapter's
pages read so far; the validated answer is cached per (book, chapter, model, prompt and index version,
request), so a second run costs no calls, and each chapter is stored as it is done, so an interrupted
run keeps what it finished. The model-free map itself is never changed (see `refined_map`).
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field

from reader.app.knowledge.refine_reply import RefinementInvalid, parse_refinement
from reader.app.knowledge.refine_request import (
    PROMPT_VERSION,
    SYSTEM_PROMPT,
    chapter_candidates,
    request_text,
)
from reader.app.knowledge.refine_sections import refine_sections
from reader.app.knowledge.summaries import Section
from reader.app.knowledge.xray import RefinementSource
from reader.domain.chat_model import ChatModelError, ModelReply
from reader.domain.concept_refinement import ChapterRefinement
from reader.domain.errors import ReaderError
from reader.domain.models import Book, Chunk, join_chunks
from reader.domain.ports import (
    BookRepository,
    ChatModel,
    ChunkRepository,
    ConceptRepository,
    ProgressCallback,
    RefinementRepository,
)

NO_MODEL = (
    "Refining the X-Ray needs a chat model: set [chat] model in {where} "
    '(e.g. "gpt-4o-mini", or "openai/NAME" with api_base for a local server).'
)


@dataclass
class RefineOutcome:
    """How a refinement run went: chapters asked, taken from the cache, failed, and why it stopped."""

    title: str
    model: str
    chapters: int
    refined: int = 0
    cached: int = 0
    empty: int = 0
    """Chapters with no names to refine."""
    notes: list[str] = field(default_factory=list)
    """One line per chapter the model's answer was unusable for, and one if the model failed."""
    cancelled: bool = False

    @property
    def done(self) -> int:
        return self.refined + self.cached + self.empty

    def summary(self) -> str:
        """One line for the reader."""
        stopped = " (cancelled: the chapters done are kept)" if self.cancelled else ""
        cached = f", {self.cached} from the cache" if self.cached else ""
        return (
            f"Refined the X-Ray of {self.title} with {self.model}: {self.refined + self.cached} of "
            f"{self.chapters} chapter{'s' * (self.chapters != 1)}{cached}{stopped}."
        )


def request_hash(system: str, user: str) -> str:
    return hashlib.sha256(f"{system}\n\n{user}".encode()).hexdigest()[:32]


class RefineConceptsUseCase:
    """Asks the chat model about each chapter's names up to the reader's page and caches the answers."""

    def __init__(
        self,
        books: BookRepository,
        chunks: ChunkRepository,
        concepts: ConceptRepository,
        store: RefinementRepository,
        model: ChatModel | None,
        config_hint: str = "the config file",
    ) -> None:
        self.books = books
        self.chunks = chunks
        self.concepts = concepts
        self.store = store
        self.model = model
        self.config_hint = config_hint

    def run(
        self,
        book_id: str,
        current_page: int,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> RefineOutcome:
        """Refine every chapter that starts by `current_page` (one in progress up to that page).

        Raises:
            ReaderError: no chat model is configured, or there is no such book.
        """
        model = self.model
        if model is None:
            raise ReaderError(NO_MODEL.format(where=self.config_hint))
        book = self.books.get(book_id)
        if book is None:
            raise ReaderError(f"No book with id {book_id} in the library.")
        horizon = min(current_page, book.story_last)
        sections = [
            s
            for s in refine_sections(
                self.books.chapters(book_id), book.page_count, book.story_start, book.story_last
            )
            if s.start_page <= horizon
        ]
        index_version = self.books.index_version(book_id) or 0
        outcome = RefineOutcome(book.title, model.name, len(sections))
        if progress:
            progress(0, len(sections))
        for done, section in enumerate(sections, start=1):
            if cancel is not None and cancel.is_set():
                outcome.cancelled = True
                break
            try:
                self._section(book, section, horizon, model, index_version, outcome, cancel)
            except _Cancelled:
                outcome.cancelled = True
                break
            except ChatModelError as error:
                if error.kind == "malformed":
                    outcome.notes.append(self._unusable(section, str(error)))
                else:
                    outcome.notes.append(
                        f"The model failed on {section.title} ({error}); it and the chapters after keep "
                        "the names as found."
                    )
                    break
            if progress:
                progress(done, len(sections))
        return outcome

    @staticmethod
    def _unusable(section: Section, why: str) -> str:
        return f"The model's answer for {section.title} was unusable ({why}); its names stay as found."

    def _section(
        self,
        book: Book,
        section: Section,
        horizon: int,
        model: ChatModel,
        index_version: int,
        outcome: RefineOutcome,
        cancel: threading.Event | None,
    ) -> None:
        end = min(section.end_page, horizon)
        counts = self.store.concept_counts(book.id, section.start_page, end)
        entries = self.concepts.visible(book.id, end) if counts else []
        candidates = chapter_candidates(entries, counts, self._page_texts(book.id, section.start_page, end))
        if not candidates:
            outcome.empty += 1
            return
        user = request_text(section.title, candidates)
        key = request_hash(SYSTEM_PROMPT, user)
        if self.store.get(book.id, section.scope, model.name, PROMPT_VERSION, index_version, key) is not None:
            outcome.cached += 1
            return
        raw = self._ask(model, user, cancel)
        try:
            groups, kinds = parse_refinement(raw, candidates)
        except RefinementInvalid as error:
            outcome.notes.append(self._unusable(section, str(error)))
            return
        refinement = ChapterRefinement(section.scope, section.start_page, end, groups, kinds)
        self.store.put(book.id, model.name, PROMPT_VERSION, index_version, key, refinement)
        outcome.refined += 1

    @staticmethod
    def _ask(model: ChatModel, user: str, cancel: threading.Event | None) -> str:
        messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]
        reply: ModelReply | None = None
        for piece in model.stream(messages, None, json_object=True):
            if cancel is not None and cancel.is_set():
                raise _Cancelled()
            if isinstance(piece, ModelReply):
                reply = piece
        return reply.content if reply is not None else ""

    def _page_texts(self, book_id: str, start: int, end: int) -> list[tuple[int, str]]:
        by_page: dict[int, list[Chunk]] = {}
        for chunk in self.chunks.get_by_page_range(book_id, start, end):
            if start <= chunk.start_page and chunk.end_page <= end:
                by_page.setdefault(chunk.start_page, []).append(chunk)
        return [(page, join_chunks(by_page[page])) for page in sorted(by_page)]


class _Cancelled(Exception):
    """The reader cancelled the run between two pieces of a reply."""


def stored_refinements(store: RefinementRepository, books: BookRepository, model: str) -> RefinementSource:
    """Where the X-Ray reads `model`'s refinements of a book up to a page (no model call is made)."""

    def source(book_id: str, page: int) -> list[ChapterRefinement]:
        return store.latest(book_id, model, PROMPT_VERSION, books.index_version(book_id) or 0, page)

    return source
