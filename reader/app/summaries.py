"""Chapter summaries and the story so far, never past the reader's page, cached in the library file.

With no model a summary is extractive: the chapter's most central sentences, each cited. With a
model it is map-reduce: each part of the chapter is summarised, then the parts are combined. A
chapter the reader is in the middle of is summarised only up to their page. Summaries are cached
by book, chapter, model, prompt version and a hash of the exact text summarised, so a changed
text or another model makes a new summary and a repeated request costs nothing.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from reader.app.chapter_lookup import asked_number, contents_index, find_chapter, no_chapter
from reader.app.chunking import join_chunks
from reader.app.extractive_summary import central_sentences, sentence_count
from reader.app.page_lookup import page_label
from reader.app.shield_rules import ShieldIndex
from reader.app.spoiler_shield import HELD_SUMMARY, verdict
from reader.domain.chat_model import ChatModelError, ModelReply
from reader.domain.errors import ReaderError
from reader.domain.knowledge import Recap, SectionSummary
from reader.domain.models import Book, Chapter, Chunk, Page
from reader.domain.ports import (
    BookRepository,
    ChatModel,
    ChunkRepository,
    ProgressCallback,
    SummaryRepository,
)

EXTRACTIVE = "extractive"
EXTRACTIVE_VERSION = 1
PROMPT_VERSION = 1
"""Bump when the model prompts change: cached model summaries of the old prompts are then not reused."""

MAP_CHARS = 8_000
"""Text sent to the model in one map call."""
SECTION_PAGES = 10
"""Pages per section of a book without a table of contents."""
OPENING = "Opening pages"
"""The section of the story's pages before its first chapter."""

_CITATION = re.compile(r"\s*\[(pp?)\.\s*([^\[\]]{1,40}?)\]")

_RULES = (
    "Use only the text given: add nothing you may know about this book from anywhere else, and say "
    "nothing about what happens after it. Cite the pages like [p. 12], using the page markers in the text."
)
MAP_PROMPT = (
    "Summarise this part of a book in 2 to 4 sentences: who does what, and what is found out. " + _RULES
)
REDUCE_PROMPT = (
    "These are summaries of consecutive parts of one chapter. Combine them into one summary of 3 to 6 "
    "sentences, in order, keeping their page citations. " + _RULES
)
RECAP_PROMPT = (
    "These are summaries of the chapters a reader has read so far. Write 'the story so far' for them in "
    "one to three short paragraphs, keeping the page citations. " + _RULES
)


@dataclass(frozen=True)
class Section:
    """A chapter (or a run of pages in a book without one) that summaries are made of."""

    index: int
    title: str
    start_page: int
    end_page: int
    entry: int | None = None
    """The contents entry (Chapter.index) it is; None for the opening pages and page runs."""
    nested: bool = False
    """A chapter inside a part (`index` is its entry), summarised alone when asked for by name."""

    @property
    def scope(self) -> str:
        return f"entry:{self.index}" if self.nested else f"chapter:{self.index}"


@dataclass(frozen=True)
class ChapterResult:
    """One chapter's summary and what the reader should know about how it was made."""

    summary: SectionSummary
    notes: tuple[str, ...] = ()

    def heading(self, pages: Sequence[Page]) -> str:
        s = self.summary
        upto = " so far" if s.partial else ""
        span = f"p. {page_label(pages, s.start_page)}"
        if s.end_page != s.start_page:
            span = f"p{span}-{page_label(pages, s.end_page)}"
        return f"{s.title} ({span}{upto})"


def sections_of(
    chapters: Sequence[Chapter], page_count: int, first: int = 1, last: int | None = None
) -> list[Section]:
    """The top-level chapters within the story's pages `first`..`last` (default: every page), clamped to
    them, with the story's pages before the first chapter as an opening section; or 10-page runs.

    A chapter wholly in front or back matter (a contents entry, a licence) is no section; the story's
    pages of an entry that starts in the front matter are the opening section."""
    last = page_count if last is None else min(last, page_count)
    if chapters:
        level = min(c.level for c in chapters)
        top = [c for c in chapters if c.level == level and c.start_page <= last and c.end_page >= first]
        found: list[Section] = []
        if top and top[0].start_page > first:
            found.append(Section(0, OPENING, first, top[0].start_page - 1))
        for chapter in top:
            start, end = max(first, chapter.start_page), min(last, chapter.end_page)
            if chapter.start_page < first:  # an entry of the front matter (contents) reaching into the story
                found.append(Section(len(found), OPENING, start, end))
            else:
                found.append(Section(len(found), chapter.title, start, end, chapter.index))
        if found:
            return found
    return [
        Section(
            i,
            f"Pages {start}-{min(last, start + SECTION_PAGES - 1)}",
            start,
            min(last, start + SECTION_PAGES - 1),
        )
        for i, start in enumerate(range(first, last + 1, SECTION_PAGES))
    ]


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def complete(model: ChatModel, system: str, user: str) -> str:
    """One model call without tools: the whole reply's text.

    Raises:
        ChatModelError: when the call fails or the reply is empty.
    """
    reply: ModelReply | None = None
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    for piece in model.stream(messages, None):
        if isinstance(piece, ModelReply):
            reply = piece
    if reply is None or not reply.content.strip():
        raise ChatModelError("The model gave no summary.", "malformed")
    return reply.content.strip()


def keep_visible_citations(text: str, pages: Sequence[Page], horizon: int, first: int = 1) -> str:
    """`text` without citations of pages after `horizon` or before `first` (a model may invent them)."""
    numbers = {p.label: p.number for p in pages}

    def check(match: re.Match[str]) -> str:
        cited = re.split(r"\s*[-–,]\s*", match.group(2).strip(), maxsplit=1)[0]
        number = numbers.get(cited, int(cited) if cited.isdigit() else None)
        return match.group() if number is not None and first <= number <= horizon else ""

    return _CITATION.sub(check, text)


@dataclass
class _Work:
    """Progress over the sections of one request."""

    total: int
    progress: ProgressCallback | None
    done: int = 0
    notes: list[str] = field(default_factory=list)

    def step(self) -> None:
        self.done += 1
        if self.progress:
            self.progress(self.done, self.total)


class SummariesUseCase:
    """Summaries of chapters up to the reader's page and the recap composed from them."""

    def __init__(
        self,
        books: BookRepository,
        chunks: ChunkRepository,
        store: SummaryRepository,
        model: ChatModel | None = None,
        page_summaries: Callable[[str, int], Sequence[tuple[int, str]]] | None = None,
        reuse_model: str | None = None,
        shield: Callable[[Book, int], ShieldIndex | None] | None = None,
    ) -> None:
        self.books = books
        self.chunks = chunks
        self.store = store
        self.model = model
        self.page_summaries = page_summaries
        """(book_id, up_to_page) -> the (page, summary) pairs `reader enrich` made; offline summaries use them."""
        self.shield = shield
        """(book, page) -> the spoiler shield's rules there: a model's summary stops before a sentence
        naming, citing or quoting something later (the model may know the book from elsewhere)."""
        self.reuse_model = reuse_model if model is None else None
        """Without a model: a model whose cached summaries are used where they exist (the chat's
        tools do not call the model inside a tool call; `reader recap` fills that cache)."""

    @property
    def model_name(self) -> str:
        return self.model.name if self.model is not None else EXTRACTIVE

    def _book(self, book_id: str) -> Book:
        book = self.books.get(book_id)
        if book is None:
            raise ReaderError(f"No book with id {book_id} in the library.")
        return book

    def _every_section(self, book: Book) -> list[Section]:
        return sections_of(self.books.chapters(book.id), book.page_count, book.story_start, book.story_last)

    def sections(self, book_id: str, current_page: int) -> list[Section]:
        """The sections of the story that start by `current_page` (front and back matter are none)."""
        book = self._book(book_id)
        return [s for s in self._every_section(book) if s.start_page <= current_page]

    def find_section(self, book_id: str, query: str, current_page: int) -> tuple[Section, str]:
        """The section `query` names and a note on how it was chosen (`find_chapter`): "current", the
        chapter's own number ("3", "III", "Chapter 3"), "#N" for the N-th contents entry, or a title.

        Raises:
            ReaderError: when nothing matches, the chapter is front or back matter, or it starts after
            `current_page`.
        """
        book = self._book(book_id)
        every = self._every_section(book)
        visible = [s for s in every if s.start_page <= current_page]
        wanted = query.strip().lower()
        if wanted in ("", "current", "this", "this chapter", "chapter", "current chapter"):
            if not visible:
                raise ReaderError(self._before_story(book, self.books.pages(book_id)))
            return visible[-1], ""
        chapters = self.books.chapters(book_id)
        choice = find_chapter(query, chapters, current_page, titles_until=current_page)
        if choice is None:
            if asked_number(query) is None and contents_index(query) is None:
                raise ReaderError(f"No chapter up to the reader's position matches '{query}'.")
            raise ReaderError(no_chapter(query, chapters))
        chapter = choice.chapter
        if chapter.start_page > current_page:  # named by number: its title may be a spoiler
            asked = asked_number(query)
            named = (
                f"{asked[0].capitalize()} {asked[1]}" if asked else f"Entry {query.strip()} of the contents"
            )
            raise ReaderError(f"{named} starts after the reader's position; it cannot be summarised yet.")
        if (matter := book.matter_at(chapter.start_page)) and book.matter_at(chapter.end_page) == matter:
            raise ReaderError(f"{chapter.title} is {matter} matter, not the story; it has no summary.")
        section = next((s for s in every if s.entry == chapter.index), None)
        if section is None:  # a chapter inside a part
            start = max(chapter.start_page, book.story_start)
            section = Section(
                chapter.index, chapter.title, start, min(chapter.end_page, book.story_last), nested=True
            )
        return section, choice.note

    @staticmethod
    def _before_story(book: Book, pages: Sequence[Page]) -> str:
        return (
            f"The reader is still in the front matter; the story starts on p. "
            f"{page_label(pages, book.story_start)}, so there is nothing to summarise yet."
        )

    def chapter_summary(
        self, book_id: str, query: str, current_page: int, progress: ProgressCallback | None = None
    ) -> ChapterResult:
        """One chapter's summary up to `current_page`."""
        section, note = self.find_section(book_id, query, current_page)
        pages = self.books.pages(book_id)
        work = _Work(1, progress)
        summary = self._summarise(book_id, section, current_page, pages, work)
        summary = replace(summary, text=self._shielded(book_id, current_page, summary.text, summary.model))
        return ChapterResult(summary, (note, *work.notes) if note else tuple(work.notes))

    def _shielded(self, book_id: str, current_page: int, text: str, model: str) -> str:
        """A model's `text` up to its first sentence about something after `current_page`, and one line."""
        if self.shield is None or model == EXTRACTIVE or not text:
            return text
        book = self.books.get(book_id)
        judged = verdict(self.shield(book, current_page) if book is not None else None, "", text)
        return f"{judged.shown}\n\n({HELD_SUMMARY})".strip() if judged.held else text

    def story_so_far(
        self, book_id: str, current_page: int, progress: ProgressCallback | None = None
    ) -> Recap:
        """The recap of the story up to `current_page`, composed from its chapter summaries."""
        book = self._book(book_id)
        sections = [s for s in self._every_section(book) if s.start_page <= current_page]
        pages = self.books.pages(book_id)
        work = _Work(len(sections) + (1 if self.model is not None else 0), progress)
        if not sections:
            work.notes.append(self._before_story(book, pages))
        summaries = [self._summarise(book_id, s, current_page, pages, work) for s in sections]
        summaries = [
            replace(s, text=self._shielded(book_id, current_page, s.text, s.model)) for s in summaries
        ]
        composed = "\n\n".join(f"{s.title}\n{s.text}" for s in summaries if s.text)
        model = summaries[0].model if summaries else self.model_name
        if self.model is None or model == EXTRACTIVE or not summaries:
            return Recap(
                current_page,
                composed,
                tuple(summaries),
                EXTRACTIVE,
                tuple(work.notes),
                cached=all(s.cached for s in summaries),
            )
        key = text_hash("\n".join(f"{s.index}:{s.end_page}:{text_hash(s.text)}" for s in summaries))
        cached = self.store.get(book_id, "recap", model, PROMPT_VERSION, key)
        if cached is not None:
            work.step()
            cached = self._shielded(book_id, current_page, cached, model)
            return Recap(current_page, cached, tuple(summaries), model, tuple(work.notes), cached=True)
        try:
            horizon = min(current_page, book.story_last)
            text = complete(self.model, RECAP_PROMPT, composed)
            text = keep_visible_citations(text, pages, horizon, book.story_start)
        except ChatModelError as error:
            work.notes.append(
                f"The model could not write the recap ({error}); showing the chapter summaries."
            )
            return Recap(current_page, composed, tuple(summaries), model, tuple(work.notes))
        self.store.put(book_id, "recap", model, PROMPT_VERSION, key, current_page, text)
        work.step()
        text = self._shielded(book_id, current_page, text, model)
        return Recap(current_page, text, tuple(summaries), model, tuple(work.notes))

    # --- one section -----------------------------------------------------------------------------

    def _summarise(
        self, book_id: str, section: Section, current_page: int, pages: Sequence[Page], work: _Work
    ) -> SectionSummary:
        end = min(section.end_page, current_page)
        by_page = self._page_texts(book_id, section.start_page, end)
        enriched = self._enriched(book_id, section.start_page, end, by_page)
        digest = text_hash(
            "\n\n".join(text for _, text in by_page) + "".join(f"\n\n[p{p}] {s}" for p, s in enriched)
        )
        partial = section.end_page > current_page
        model = self.model_name if not work.notes else EXTRACTIVE
        version = PROMPT_VERSION if model != EXTRACTIVE else EXTRACTIVE_VERSION
        cached = None
        if self.reuse_model and model == EXTRACTIVE:  # the model's summary, when there is one, first
            cached = self.store.get(book_id, section.scope, self.reuse_model, PROMPT_VERSION, digest)
            model = self.reuse_model if cached is not None else model
        if cached is None:
            cached = self.store.get(book_id, section.scope, model, version, digest)
        if cached is not None:
            work.step()
            return SectionSummary(
                section.index, section.title, section.start_page, end, cached, model, partial, True
            )
        text = ""
        if model != EXTRACTIVE and self.model is not None:
            try:
                text = self._map_reduce(self.model, by_page, pages, section.start_page, end)
            except ChatModelError as error:
                work.notes.append(f"The model failed ({error}); these summaries are extractive.")
                model, version = EXTRACTIVE, EXTRACTIVE_VERSION
                cached = self.store.get(book_id, section.scope, model, version, digest)
                if cached is not None:
                    work.step()
                    return SectionSummary(
                        section.index, section.title, section.start_page, end, cached, model, partial, True
                    )
        if not text and enriched:
            text = " ".join(f"{summary} [p. {page_label(pages, page)}]" for page, summary in enriched)
        if not text:
            text = self._extractive(by_page, pages, end - section.start_page + 1)
        self.store.put(book_id, section.scope, model, version, digest, end, text)
        work.step()
        return SectionSummary(section.index, section.title, section.start_page, end, text, model, partial)

    def _enriched(
        self, book_id: str, start: int, end: int, by_page: Sequence[tuple[int, str]]
    ) -> list[tuple[int, str]]:
        """The enriched summaries of start..end when every page with text has one (else none)."""
        if self.page_summaries is None or not by_page:
            return []
        found = [
            (page, self._shielded(book_id, end, text, "enrich"))
            for page, text in self.page_summaries(book_id, end)
            if start <= page <= end
        ]
        covered = {page for page, _ in found}
        return found if all(page in covered for page, _ in by_page) else []

    def _page_texts(self, book_id: str, start: int, end: int) -> list[tuple[int, str]]:
        by_page: dict[int, list[Chunk]] = {}
        for chunk in self.chunks.get_by_page_range(book_id, start, end):
            if chunk.end_page <= end:
                by_page.setdefault(chunk.start_page, []).append(chunk)
        return [(page, join_chunks(by_page[page])) for page in sorted(by_page)]

    @staticmethod
    def _extractive(by_page: Sequence[tuple[int, str]], pages: Sequence[Page], page_count: int) -> str:
        chosen = central_sentences(by_page, sentence_count(page_count))
        return " ".join(f"{sentence} [p. {page_label(pages, page)}]" for page, sentence in chosen)

    @staticmethod
    def _map_reduce(
        model: ChatModel, by_page: Sequence[tuple[int, str]], pages: Sequence[Page], first: int, last: int
    ) -> str:
        """The model's summary of the pages in `by_page`, citing only pages `first`..`last`."""
        parts: list[str] = []
        current = ""
        for page, text in by_page:
            marked = f"[p. {page_label(pages, page)}]\n{text}\n\n"
            if current and len(current) + len(marked) > MAP_CHARS:
                parts.append(current)
                current = ""
            current += marked
        if current:
            parts.append(current)
        partials = [complete(model, MAP_PROMPT, part) for part in parts]
        summary = partials[0] if len(partials) == 1 else complete(model, REDUCE_PROMPT, "\n\n".join(partials))
        return keep_visible_citations(summary, pages, last, first)
