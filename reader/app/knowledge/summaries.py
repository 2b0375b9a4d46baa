"""Chapter summaries and the story so far, never past the reader's page, cached in the library file.

The story so far follows the leaf chapters of the contents, grouped under their parts (see
`story_outline`), front and back matter left out. With no model each chapter's summary is
extractive: its most central sentences, each cited, more of them for a longer chapter. With a model
it is map-reduce: each piece of a chapter is summarised, the pieces combined into the chapter's
summary, each part's chapter summaries into a short summary of the part, and the parts (and any
chapters outside parts) into an overview. A chapter the reader is in the middle of is summarised
only up to their page. Summaries are cached by book, chapter, model, prompt version and a hash of the
exact text summarised, so a changed text or another model makes a new summary and a repeated request
costs nothing; a whole recap is also kept, keyed by the book's import and the reader's page, so
showing it again is one lookup.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from reader.app.knowledge.extractive_summary import central_sentences, sentence_count
from reader.app.knowledge.model_summary import (
    PART_PROMPT,
    RECAP_PROMPT,
    complete,
    keep_visible_citations,
    map_reduce,
)
from reader.app.knowledge.recap_cache import recap_from_json, recap_to_json
from reader.app.knowledge.recap_text import page_span, render_recap
from reader.app.knowledge.story_outline import Part, Section, StoryOutline, story_outline
from reader.app.pages.chapter_lookup import (
    asked_number,
    chapter_name,
    contents_index,
    find_chapter,
    no_chapter,
)
from reader.app.pages.page_lookup import page_label
from reader.app.shield.rules import ShieldIndex
from reader.app.shield.spoiler_shield import HELD_SUMMARY, verdict
from reader.domain.chat_model import ChatModelError
from reader.domain.errors import ReaderError
from reader.domain.knowledge import PartSummary, Recap, SectionSummary
from reader.domain.models import Book, Chunk, Page, join_chunks
from reader.domain.ports import (
    BookRepository,
    ChatModel,
    ChunkRepository,
    ProgressCallback,
    SummaryRepository,
)

EXTRACTIVE = "extractive"
EXTRACTIVE_VERSION = 2
"""Bump when extractive summaries change (2: sentences in proportion to the chapter's length)."""
PROMPT_VERSION = 1
"""Bump when the model prompts change: cached model summaries of the old prompts are then not reused."""
STORY_VERSION = 1
"""Bump when a whole recap is composed or stored differently: cached recaps are then made again."""
STORY_SCOPE = "story"
MODEL_MIN_CHARS = 200
"""Less text than this (a part's title page) is not sent to the model: it has no story to summarise."""


@dataclass(frozen=True)
class ChapterResult:
    """One chapter's summary and what the reader should know about how it was made."""

    summary: SectionSummary
    notes: tuple[str, ...] = ()
    name: str = ""
    """The chapter as the reader can tell it apart ("BOOK TEN: 1812 › CHAPTER III"); "" for its title."""

    def heading(self, pages: Sequence[Page]) -> str:
        s = self.summary
        span = page_span(lambda n: page_label(pages, n), s.start_page, s.end_page, s.partial)
        return f"{self.name or s.title} ({span})"


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


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

    def _outline(self, book: Book) -> StoryOutline:
        return story_outline(self.books.chapters(book.id), book.page_count, book.story_start, book.story_last)

    def sections(self, book_id: str, current_page: int) -> list[Section]:
        """The story's leaf chapters that start by `current_page` (front and back matter are none)."""
        book = self._book(book_id)
        return [s for s in self._outline(book).sections if s.start_page <= current_page]

    def find_section(self, book_id: str, query: str, current_page: int) -> tuple[Section, str]:
        """The section `query` names and a note on how it was chosen (`find_chapter`): "current", the
        chapter's own number ("3", "III", "Chapter 3"), "#N" for the N-th contents entry, or a title.
        A part named ("Book 2") is summarised whole.

        Raises:
            ReaderError: when nothing matches, the chapter is front or back matter, or it starts after
            `current_page`.
        """
        book = self._book(book_id)
        every = self._outline(book).sections
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
        if section is None:  # a part, summarised whole
            start = max(chapter.start_page, book.story_start)
            section = Section(0, chapter.title, start, min(chapter.end_page, book.story_last), chapter.index)
        note = f"{choice.note} (#N picks the N-th entry of the contents.)" if choice.note else ""
        return section, note

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
        enriched = self._all_enriched(book_id, min(section.end_page, current_page))
        summary = self._summarise(book_id, section, current_page, pages, work, enriched)
        summary = replace(summary, text=self._shielded(book_id, current_page, summary.text, summary.model))
        chapters = self.books.chapters(book_id)
        at = next((i for i, c in enumerate(chapters) if c.index == section.entry), None)
        name = chapter_name(chapters, at, reached=current_page) if at is not None else ""
        return ChapterResult(summary, (note, *work.notes) if note else tuple(work.notes), name)

    def _shielded(self, book_id: str, current_page: int, text: str, model: str) -> str:
        """A model's `text` up to its first sentence about something after `current_page`, and one line."""
        if self.shield is None or model == EXTRACTIVE or not text:
            return text
        book = self.books.get(book_id)
        judged = verdict(self.shield(book, current_page) if book is not None else None, "", text)
        return f"{judged.shown}\n\n({HELD_SUMMARY})".strip() if judged.held else text

    # --- the story so far ------------------------------------------------------------------------

    def story_so_far(
        self, book_id: str, current_page: int, progress: ProgressCallback | None = None
    ) -> Recap:
        """The recap of the story up to `current_page`: its chapters' summaries under their parts."""
        book = self._book(book_id)
        enriched = self._all_enriched(book_id, current_page)
        key = self._story_key(book, current_page, enriched)
        found = self.store.get(book_id, STORY_SCOPE, self.reuse_model or self.model_name, STORY_VERSION, key)
        recap = recap_from_json(found) if found is not None else None
        if recap is not None:
            if progress:
                progress(1, 1)
            return recap
        recap = self._compose(book, current_page, enriched, progress)
        if not recap.notes and self.reuse_model is None and recap.model == self.model_name:
            self.store.put(
                book_id, STORY_SCOPE, recap.model, STORY_VERSION, key, current_page, recap_to_json(recap)
            )
        return recap

    @staticmethod
    def _story_key(book: Book, current_page: int, enriched: Sequence[tuple[int, str]]) -> str:
        """What a whole recap depends on: the book's import (its file, pipeline and contents), the
        story's pages, the reader's page and the page enrichments so far."""
        return text_hash(
            f"{book.id}|{book.imported_at}|{book.page_count}|{book.story_start}|"
            f"{book.story_last}|{current_page}|" + "\n".join(f"{page}:{text}" for page, text in enriched)
        )

    def _compose(
        self,
        book: Book,
        current_page: int,
        enriched: Sequence[tuple[int, str]],
        progress: ProgressCallback | None,
    ) -> Recap:
        outline = self._outline(book)
        sections = [s for s in outline.sections if s.start_page <= current_page]
        entries = {entry for s in sections for entry in s.parts}
        parts = [p for p in outline.parts if p.entry in entries]
        pages = self.books.pages(book.id)
        calls = len(parts) + 1 if self.model is not None else 0
        work = _Work(len(sections) + calls, progress)
        if not sections:
            work.notes.append(self._before_story(book, pages))
        summaries = [
            replace(summary, text=self._shielded(book.id, current_page, summary.text, summary.model))
            for summary in (self._summarise(book.id, s, current_page, pages, work, enriched) for s in sections)
        ]
        model = summaries[0].model if summaries else self.model_name
        with_model = self.model is not None and model != EXTRACTIVE and bool(summaries)
        part_summaries = [self._plain_part(p, current_page, model) for p in parts]
        overview = ""
        if with_model:
            part_summaries = [
                replace(p, text=self._shielded(book.id, current_page, p.text, p.model))
                for p in self._part_summaries(book, parts, summaries, current_page, pages, work)
            ]
            overview = self._overview(book, summaries, part_summaries, current_page, pages, work)
            overview = self._shielded(book.id, current_page, overview, model)
        text = render_recap(overview, summaries, part_summaries, lambda n: page_label(pages, n))
        return Recap(
            current_page,
            text,
            tuple(summaries),
            model if with_model else EXTRACTIVE,
            tuple(work.notes),
            cached=all(s.cached for s in summaries) and all(p.cached for p in part_summaries if p.text),
            parts=tuple(part_summaries),
            overview=overview,
        )

    @staticmethod
    def _plain_part(part: Part, current_page: int, model: str) -> PartSummary:
        end = min(part.end_page, current_page)
        return PartSummary(
            part.entry, part.title, part.start_page, end, "", model, part.end_page > current_page
        )

    def _part_summaries(
        self,
        book: Book,
        parts: Sequence[Part],
        summaries: Sequence[SectionSummary],
        current_page: int,
        pages: Sequence[Page],
        work: _Work,
    ) -> list[PartSummary]:
        """Each part's short summary of its chapters' (and inner parts') summaries, innermost first."""
        assert self.model is not None
        made: dict[int, PartSummary] = {}
        for part in reversed(parts):
            plain = self._plain_part(part, current_page, self.model.name)
            items: list[tuple[int, str, str]] = [
                (s.start_page, s.title, s.text) for s in summaries if s.parts and s.parts[-1] == part.entry
            ]
            items += [
                (p.start_page, p.title, made[p.entry].text)
                for p in parts
                if p.parts and p.parts[-1] == part.entry and p.entry in made
            ]
            composed = "\n\n".join(f"{title}\n{text}" for _, title, text in sorted(items) if text)
            if not composed or work.notes:
                made[part.entry] = plain
                work.step()
                continue
            key = text_hash(composed)
            scope = f"part:{part.entry}"
            cached = self.store.get(book.id, scope, self.model.name, PROMPT_VERSION, key)
            text = cached or ""
            if cached is None:
                try:
                    text = complete(self.model, PART_PROMPT, composed)
                    text = keep_visible_citations(text, pages, plain.end_page, plain.start_page)
                    self.store.put(book.id, scope, self.model.name, PROMPT_VERSION, key, current_page, text)
                except ChatModelError as error:
                    work.notes.append(
                        f"The model could not summarise the parts ({error}); showing their chapters."
                    )
                    text = ""
            made[part.entry] = PartSummary(
                plain.entry,
                plain.title,
                plain.start_page,
                plain.end_page,
                text,
                plain.model,
                plain.partial,
                cached is not None,
            )
            work.step()
        return [made[p.entry] for p in parts]

    def _overview(
        self,
        book: Book,
        summaries: Sequence[SectionSummary],
        parts: Sequence[PartSummary],
        current_page: int,
        pages: Sequence[Page],
        work: _Work,
    ) -> str:
        """The model's story so far from the top-level parts' and chapters' summaries ("" if it fails)."""
        assert self.model is not None
        model = self.model.name
        by_entry = {p.entry: p for p in parts}
        items: list[tuple[str, str]] = []
        for s in summaries:
            if not s.parts:
                items.append((s.title, s.text))
            elif (top := by_entry.get(s.parts[0])) is not None and top.text:
                if not items or items[-1] != (top.title, top.text):
                    items.append((top.title, top.text))
            else:
                items.append((s.title, s.text))
        composed = "\n\n".join(f"{title}\n{text}" for title, text in items if text)
        key = text_hash(composed)
        cached = self.store.get(book.id, "recap", model, PROMPT_VERSION, key)
        if cached is not None:
            work.step()
            return cached
        try:
            text = complete(self.model, RECAP_PROMPT, composed)
            text = keep_visible_citations(text, pages, min(current_page, book.story_last), book.story_start)
        except ChatModelError as error:
            work.notes.append(
                f"The model could not write the recap ({error}); showing the chapter summaries."
            )
            return ""
        self.store.put(book.id, "recap", model, PROMPT_VERSION, key, current_page, text)
        work.step()
        return text

    # --- one section -----------------------------------------------------------------------------

    def _all_enriched(self, book_id: str, up_to_page: int) -> list[tuple[int, str]]:
        """The page summaries `reader enrich` made up to `up_to_page` (none without enrichment)."""
        if self.page_summaries is None:
            return []
        return [
            (page, self._shielded(book_id, up_to_page, text, "enrich"))
            for page, text in self.page_summaries(book_id, up_to_page)
        ]

    def _summarise(
        self,
        book_id: str,
        section: Section,
        current_page: int,
        pages: Sequence[Page],
        work: _Work,
        all_enriched: Sequence[tuple[int, str]],
    ) -> SectionSummary:
        end = min(section.end_page, current_page)
        by_page = self._page_texts(book_id, section.start_page, end)
        enriched = self._enriched(section.start_page, end, by_page, all_enriched)
        digest = text_hash(
            "\n\n".join(text for _, text in by_page) + "".join(f"\n\n[p{p}] {s}" for p, s in enriched)
        )
        partial = section.end_page > current_page

        def made(text: str, model: str, cached: bool = False) -> SectionSummary:
            return SectionSummary(
                section.index,
                section.title,
                section.start_page,
                end,
                text,
                model,
                partial,
                cached,
                section.parts,
            )

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
            return made(cached, model, True)
        text = ""
        if (
            model != EXTRACTIVE
            and self.model is not None
            and sum(len(t) for _, t in by_page) >= MODEL_MIN_CHARS
        ):
            try:
                text = map_reduce(self.model, by_page, pages, section.start_page, end)
            except ChatModelError as error:
                work.notes.append(f"The model failed ({error}); these summaries are extractive.")
                model, version = EXTRACTIVE, EXTRACTIVE_VERSION
                cached = self.store.get(book_id, section.scope, model, version, digest)
                if cached is not None:
                    work.step()
                    return made(cached, model, True)
        if not text and enriched:
            text = " ".join(f"{summary} [p. {page_label(pages, page)}]" for page, summary in enriched)
        if not text:
            text = self._extractive(by_page, pages)
        self.store.put(book_id, section.scope, model, version, digest, end, text)
        work.step()
        return made(text, model)

    @staticmethod
    def _enriched(
        start: int, end: int, by_page: Sequence[tuple[int, str]], all_enriched: Sequence[tuple[int, str]]
    ) -> list[tuple[int, str]]:
        """The enriched summaries of start..end when every page with text has one (else none)."""
        if not by_page or not all_enriched:
            return []
        found = [(page, text) for page, text in all_enriched if start <= page <= end]
        covered = {page for page, _ in found}
        return found if all(page in covered for page, _ in by_page) else []

    def _page_texts(self, book_id: str, start: int, end: int) -> list[tuple[int, str]]:
        by_page: dict[int, list[Chunk]] = {}
        for chunk in self.chunks.get_by_page_range(book_id, start, end):
            if chunk.end_page <= end and chunk.start_page >= start:
                by_page.setdefault(chunk.start_page, []).append(chunk)
        return [(page, join_chunks(by_page[page])) for page in sorted(by_page)]

    @staticmethod
    def _extractive(by_page: Sequence[tuple[int, str]], pages: Sequence[Page]) -> str:
        chars = sum(len(text) for _, text in by_page)
        chosen = central_sentences(by_page, sentence_count(chars))
        return " ".join(f"{sentence} [p. {page_label(pages, page)}]" for page, sentence in chosen)
