"""`reader enrich`: a model reads each page and returns one strict JSON object describing it.

Each page is sent on its own (its text, plus the page as a PDF when it has figures and the model
reads PDFs). The reply must be exactly one JSON object of the enrichment schema; anything else is an
error for that page, logged with the raw reply, and the run moves on: no retry, no repair. A page is
skipped when it is already enriched with the same schema version, text and model, so a run that is
interrupted (every page is committed as it is done) picks up where it stopped.

A PDF page with no text layer, sent to a model that reads PDFs, is attached with the next page (for a
sentence that runs over) and the model's `full_text` transcription becomes the page's text, marked
"model" and indexed like OCR text (chunks and full-text search at once, the concept map after the run);
it is still cited as that page.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from reader.app.pages.enrichment_schema import (
    ENRICHMENT_SCHEMA,
    VISUAL_TYPES,
    EnrichmentInvalid,
    parse_enrichment,
)
from reader.app.pages.figures import file_part
from reader.app.pages.page_text_index import PageTextIndex
from reader.domain.chat import PageAttachment
from reader.domain.chat_model import ChatModelError, ModelReply, RetryPolicy, TurnCancelled
from reader.domain.enrichment import (
    ENRICHMENT_SCHEMA_VERSION,
    EnrichmentFailure,
    EnrichmentStatus,
    StoredEnrichment,
    page_content_hash,
)
from reader.domain.errors import ReaderError
from reader.domain.models import MODEL_SOURCE, Book, Chunk, Page, join_chunks
from reader.domain.ports import BookRepository, ChatModel, ChunkRepository, EnrichmentRepository, PageFiles

SYSTEM_PROMPT = """You describe one page of a book as a single JSON object. Reply with the JSON object \
only: no code fence, no text before or after it.

The object has exactly these keys:
- "summary": what happens or is explained on this page, in one to three sentences.
- "sections": the headings or section titles printed on this page, in order (an empty list if none).
- "visuals": one entry per figure, diagram, chart, table, map, photo, illustration or equation on the \
page, each {{"type": one of {types}, "description": what it shows, "relevance": "essential" if the \
page cannot be understood without it, "supporting" if it illustrates the text, "decorative" \
otherwise}} (an empty list if none).
- "visual_importance": an integer from 1 to 5: how much of the page's meaning is in its visuals \
(1: prose only; 5: the page is mostly a figure its text does not replace).
- "full_text": only when the message asks for a transcription: this page's text, transcribed in full from the attached page (paragraphs separated by a blank line; no running headers or page numbers); otherwise an empty string.

Use only this page. Never mention or hint at anything that happens after it, even what you know \
about the book from elsewhere.

The JSON schema: {schema}"""

PageLine = Callable[["PageResult"], None]


@dataclass(frozen=True)
class PageResult:
    """What happened to one page: "enriched", "failed", "blank" or "skipped" (already done)."""

    number: int
    label: str
    status: str
    error: str = ""
    transcribed: bool = False
    """The page had no text layer and the model's transcription became its text."""


@dataclass
class EnrichOutcome:
    """A run over a range of pages: how many were enriched, already done, blank, or failed (with why)."""

    book: Book
    model: str
    start: int
    end: int
    enriched: int = 0
    skipped: int = 0
    blank: int = 0
    transcribed: int = 0
    """Pages whose text is now the model's transcription (they are counted as enriched too)."""
    failures: list[PageResult] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.end - self.start + 1


class EnrichPagesUseCase:
    """Enriches a book's pages with the configured chat model, one committed page at a time."""

    def __init__(
        self,
        books: BookRepository,
        chunks: ChunkRepository,
        store: EnrichmentRepository,
        model: ChatModel | None,
        *,
        page_files: PageFiles | None = None,
        pdf_input: bool = False,
        retry: RetryPolicy | None = None,
        config_hint: str = "the config file",
        page_texts: PageTextIndex | None = None,
    ) -> None:
        self.books = books
        self.chunks = chunks
        self.store = store
        self.model = model
        self.page_files = page_files
        self.pdf_input = pdf_input
        self.retry = retry or RetryPolicy()
        self.config_hint = config_hint
        self.page_texts = page_texts
        self.system = SYSTEM_PROMPT.format(
            types=" | ".join(f'"{t}"' for t in VISUAL_TYPES),
            schema=json.dumps(ENRICHMENT_SCHEMA, separators=(",", ":")),
        )

    def status(self, book_id: str) -> EnrichmentStatus:
        return self.store.status(book_id)

    def enrich_book(
        self,
        book_id: str,
        start: int = 1,
        end: int | None = None,
        *,
        progress: Callable[[int, int], None] | None = None,
        on_page: PageLine | None = None,
        cancel: threading.Event | None = None,
    ) -> EnrichOutcome:
        """Enrich pages start..end (default: all) that are not done yet.

        Raises:
            ReaderError: no chat model is configured, or the book does not exist.
            ChatModelError: the model cannot be reached or refuses every call (pages done so far stay).
            TurnCancelled: `cancel` was set (pages done so far stay).
        """
        model = self.model
        if model is None:
            raise ReaderError(
                f"Enriching pages needs a chat model; set [chat] model in {self.config_hint} "
                '(e.g. "gpt-4o-mini", or "openai/NAME" with api_base for a local server).'
            )
        book = self.books.get(book_id)
        if book is None:
            raise ReaderError(f"No book with id {book_id}; see `reader list`.")
        pages = self.books.pages(book_id)
        last = book.page_count if end is None else end
        start, last = max(1, start), min(last, book.page_count)
        outcome = EnrichOutcome(book, model.name, start, last)
        keys = self.store.keys(book_id)
        sources = self.page_texts.sources(book_id) if self.page_texts is not None else {}
        done = 0
        if progress:
            progress(0, outcome.total)
        try:
            for number in range(start, last + 1):
                if cancel is not None and cancel.is_set():
                    raise TurnCancelled()
                page = pages[number - 1] if number <= len(pages) else Page(number, str(number))
                result = self._page(book, page, keys.get(number), model, cancel, sources.get(number))
                if result.status == "enriched":
                    outcome.enriched += 1
                    outcome.transcribed += result.transcribed
                elif result.status == "skipped":
                    outcome.skipped += 1
                elif result.status == "blank":
                    outcome.blank += 1
                else:
                    outcome.failures.append(result)
                done += 1
                if on_page and result.status != "skipped":
                    on_page(result)
                if progress:
                    progress(done, outcome.total)
        finally:
            if outcome.transcribed and self.page_texts is not None:
                self.page_texts.rebuild_concepts(book)
        return outcome

    def _transcribes(self, book: Book, chunks: Sequence[Chunk], source: str | None) -> bool:
        """Whether the model is to transcribe the page: a PDF page with no text layer (no text, or the
        text of an earlier transcription; OCR text stays) and a model that reads PDFs."""
        return (
            self.pdf_input
            and self.page_files is not None
            and self.page_texts is not None
            and book.format == "pdf"
            and (not chunks or source == MODEL_SOURCE)
        )

    def _page(
        self,
        book: Book,
        page: Page,
        key: tuple[int, str, str] | None,
        model: ChatModel,
        cancel: threading.Event | None,
        source: str | None = None,
    ) -> PageResult:
        number = page.number
        chunks = [c for c in self.chunks.get_by_page_range(book.id, number, number) if c.start_page == number]
        content_hash = page_content_hash(chunks, number)
        if key == (ENRICHMENT_SCHEMA_VERSION, content_hash, model.name):
            return PageResult(number, page.label, "skipped")
        text = join_chunks(chunks)
        if not text.strip() and not page.visuals.has_visuals:
            return PageResult(number, page.label, "blank")
        messages = None
        if self._transcribes(book, chunks, source):
            messages = self._transcription_messages(book, page)
        transcribing = messages is not None
        if messages is None:
            messages = self._messages(book, page, text)
        raw = ""
        try:
            raw = self._call(model, messages, cancel)
            enrichment = parse_enrichment(raw)
        except ChatModelError as error:
            if error.kind != "malformed":
                raise
            return self._failed(book, page, model, str(error), raw)
        except EnrichmentInvalid as error:
            return self._failed(book, page, model, str(error), raw)
        transcribed = transcribing and bool(enrichment.full_text) and self.page_texts is not None
        if transcribed and self.page_texts is not None:
            self.page_texts.save(book.id, number, MODEL_SOURCE, enrichment.full_text)
            stored = self.chunks.get_by_page_range(book.id, number, number)
            content_hash = page_content_hash(stored, number)  # the page's text is now the transcription
        self.store.save(
            StoredEnrichment(book.id, number, ENRICHMENT_SCHEMA_VERSION, content_hash, model.name, enrichment)
        )
        return PageResult(number, page.label, "enriched", transcribed=transcribed)

    def _failed(self, book: Book, page: Page, model: ChatModel, error: str, raw: str) -> PageResult:
        """Log the failure with the raw reply (no retry, no repair) and go on with the next page."""
        self.store.add_failure(EnrichmentFailure(book.id, page.number, model.name, error, raw))
        return PageResult(page.number, page.label, "failed", error)

    def _messages(self, book: Book, page: Page, text: str) -> list[dict[str, Any]]:
        author = f" by {book.author}" if book.author else ""
        intro = (
            f'Book: "{book.title}"{author}. This is p. {page.label} (page {page.number} of {book.page_count}).\n\n'
            + (f"The page's text:\n<<<\n{text}\n>>>" if text.strip() else "The page has no text layer.")
        )
        messages: list[dict[str, Any]] = [{"role": "system", "content": self.system}]
        if (
            self.pdf_input
            and self.page_files is not None
            and book.format == "pdf"
            and page.visuals.has_visuals
        ):
            try:
                data = self.page_files.page_pdf(book, [page.number])
            except ReaderError:
                data = b""  # the text alone still gives a summary; the figures stay undescribed
            if data:
                part = file_part(PageAttachment(data, (page.number,), (page.label,)))
                note = "The page itself is attached as a PDF: describe its visuals from it."
                messages.append(
                    {"role": "user", "content": [{"type": "text", "text": f"{intro}\n\n{note}"}, part]}
                )
                return messages
        messages.append({"role": "user", "content": intro})
        return messages

    def _transcription_messages(self, book: Book, page: Page) -> list[dict[str, Any]] | None:
        """The page, with the next one for a sentence that runs over, attached for a transcription;
        None when the PDF cannot be cut (the page is then described without its text)."""
        assert self.page_files is not None
        numbers = [page.number] + ([page.number + 1] if page.number < book.page_count else [])
        try:
            data = self.page_files.page_pdf(book, numbers)
        except ReaderError:
            return None
        # cited as this page: the next one only completes its last sentence
        part = file_part(PageAttachment(data, tuple(numbers), (page.label,)))
        author = f" by {book.author}" if book.author else ""
        nxt = (
            " The next page follows it only so you can finish a sentence that runs over onto it: take "
            "nothing else from it, and describe only this page."
            if len(numbers) > 1
            else ""
        )
        intro = (
            f'Book: "{book.title}"{author}. This is p. {page.label} (page {page.number} of {book.page_count}).\n\n'
            "The page has no text layer. It is attached as a PDF: transcribe its text in full into "
            f'"full_text", and describe it and its visuals from it.{nxt}'
        )
        return [
            {"role": "system", "content": self.system},
            {"role": "user", "content": [{"type": "text", "text": intro}, part]},
        ]

    def _call(self, model: ChatModel, messages: list[dict[str, Any]], cancel: threading.Event | None) -> str:
        """The model's whole reply text; rate limits and server errors are retried with backoff."""
        attempt = 0
        while True:
            try:
                reply: ModelReply | None = None
                for piece in model.stream(messages, None, json_object=ENRICHMENT_SCHEMA):
                    if cancel is not None and cancel.is_set():
                        raise TurnCancelled()
                    if isinstance(piece, ModelReply):
                        reply = piece
                return reply.content if reply is not None else ""
            except ChatModelError as error:
                if not error.retryable or attempt >= self.retry.retries:
                    raise
                wait = self.retry.backoff * 2**attempt
                attempt += 1
                if (cancel or threading.Event()).wait(wait):
                    raise TurnCancelled() from None
