"""The chat about a book: saves the question, runs a retrieval strategy, streams events, saves the answer."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from reader.app.chat.always_retrieve_strategy import AlwaysRetrieveStrategy
from reader.app.chat.history import earlier_turns
from reader.app.chat.knowledge_tools import BookKnowledge
from reader.app.chat.my_notes_tool import NotesUpTo
from reader.app.chat.offline_strategy import OfflinePassagesStrategy
from reader.app.chat.page_mentions import parse_citations, stated_pages
from reader.app.chat.tool_use_strategy import ToolUseRetrievalStrategy
from reader.app.chat.tools import BookTools
from reader.app.chat.turn import ChatStrategy, TurnContext
from reader.app.shield.cache import ShieldIndexes, ShieldSource
from reader.app.shield.spoiler_shield import ShieldVerdict, StreamShield, describe, verdict
from reader.domain.chat import (
    AnswerEvent,
    ChatEvent,
    ChatMessage,
    Conversation,
    ErrorEvent,
    ShieldEvent,
    TextDelta,
)
from reader.domain.chat_model import RetryPolicy, TurnCancelled
from reader.domain.errors import ReaderError
from reader.domain.models import Book
from reader.domain.ports import (
    BookRepository,
    BookSearcher,
    ChatModel,
    ChunkRepository,
    ConceptRepository,
    ConversationRepository,
    PageFiles,
)

OFFLINE_HINT = (
    "No model is configured: these are the passages that best match your question. "
    'To chat with a model, set [chat] model (e.g. "gpt-4o-mini") in {where}.'
)
TITLE_CHARS = 60


@dataclass(frozen=True)
class ChatSettings:
    """How the chat behaves (from [chat] in the config file)."""

    tool_calling: str = "auto"
    """"auto" (ask the model adapter), "on" (tool use) or "off" (always retrieve first)."""
    max_tool_calls: int = 8
    retry: RetryPolicy = RetryPolicy()
    config_path: str = "the config file"
    pdf_input: str = "auto"
    """"auto" (ask the model adapter), "on" or "off": whether figure pages go to the model as PDFs."""


def no_shield() -> None:
    """The shield's source when there is nothing to check (offline answers quote the pages read)."""
    return None


def reads_pdf(model: ChatModel | None, setting: str) -> bool:
    """Whether the model gets figure pages as PDF files: "on", or "auto" when the model says it reads them."""
    if model is None or setting == "off":
        return False
    return setting == "on" or model.supports_pdf_input()


def choose_strategy(model: ChatModel | None, settings: ChatSettings) -> ChatStrategy:
    """Offline passages without a model; tool use when the model calls tools; else always retrieve."""
    if model is None:
        return OfflinePassagesStrategy(OFFLINE_HINT.format(where=settings.config_path))
    if settings.tool_calling == "on" or (settings.tool_calling == "auto" and model.supports_tools()):
        return ToolUseRetrievalStrategy()
    return AlwaysRetrieveStrategy()


def conversation_title(question: str, taken: Iterable[str] = ()) -> str:
    """The question on one line, shortened, and numbered when another conversation of the book already has
    that title ("Who is Wickham? (2)"), so the list of conversations tells them apart."""
    text = " ".join(question.split())
    title = text if len(text) <= TITLE_CHARS else text[: TITLE_CHARS - 1].rstrip() + "…"
    used = set(taken)
    number = 2
    distinct = title
    while distinct in used:
        distinct = f"{title} ({number})"
        number += 1
    return distinct


class ChatWithBookUseCase:
    """Questions about one book, answered from pages up to the reader's position, kept per conversation."""

    def __init__(
        self,
        books: BookRepository,
        chunks: ChunkRepository,
        conversations: ConversationRepository,
        searcher: BookSearcher | None,
        model: ChatModel | None,
        settings: ChatSettings | None = None,
        page_files: PageFiles | None = None,
        knowledge: BookKnowledge | None = None,
        notes: NotesUpTo | None = None,
        shields: ShieldIndexes | None = None,
        concepts: ConceptRepository | None = None,
    ) -> None:
        self.books = books
        self.chunks = chunks
        self.store = conversations
        self.searcher = searcher
        self.model = model
        self.settings = settings or ChatSettings()
        self.strategy = choose_strategy(model, self.settings)
        self.page_files = page_files
        self.pdf_input = reads_pdf(model, self.settings.pdf_input)
        self.knowledge = knowledge
        self.notes = notes
        self.shields = shields or ShieldIndexes()
        """The spoiler shield's indexes (shared by the session, so a book is indexed once)."""
        self.concepts = concepts or (knowledge.xray.concepts if knowledge is not None else None)

    # --- conversations ---------------------------------------------------------------------------

    def conversations(self, book_id: str) -> list[Conversation]:
        """The book's conversations, newest first."""
        return self.store.list_for_book(book_id)

    def new_conversation(self, book_id: str) -> int:
        return self.store.create(book_id)

    def latest_conversation(self, book_id: str) -> int | None:
        latest = self.store.latest(book_id)
        return latest.id if latest else None

    def messages(self, conversation_id: int) -> list[ChatMessage]:
        return self.store.messages(conversation_id)

    def message(self, message_id: int) -> ChatMessage | None:
        return self.store.message(message_id)

    def reveal(self, message_id: int) -> ChatMessage | None:
        """Show a held-back answer whole from now on (the reader confirmed); the model keeps seeing
        the held-back version until the reader reaches the page it spoiled."""
        self.store.reveal(message_id)
        return self.store.message(message_id)

    def shield_source(self, book: Book, horizon: int | None = None) -> ShieldSource:
        """The spoiler shield's rules for `book` at `horizon` (default: the reader's page)."""
        page = book.current_page if horizon is None else horizon
        return self.shields.source(book, page, self.books, self.chunks, self.concepts)

    def warm_shield(self, book_id: str) -> None:
        """Start indexing the book for the spoiler shield (when it is opened)."""
        book = self.books.get(book_id)
        if book is not None:
            self.shields.warm(book, self.chunks)

    # --- asking ----------------------------------------------------------------------------------

    def ask(
        self,
        book_id: str,
        question: str,
        conversation_id: int | None = None,
        cancel: threading.Event | None = None,
        *,
        reveal: bool = False,
    ) -> Iterator[ChatEvent]:
        """Answer `question`, yielding events; ends with exactly one AnswerEvent or ErrorEvent.

        The spoiler shield stops the streamed text at the first sentence naming, citing or quoting
        something after the reader's page; the whole answer is stored with where it was held back.
        With `reveal` everything streams, and the answer is stored as revealed.
        """
        book = self.books.get(book_id)
        if book is None:
            yield ErrorEvent(f"No book with id {book_id} in the library.", conversation_id)
            return
        if not question.strip():
            yield ErrorEvent("Type a question first.", conversation_id)
            return
        conversation = self.store.get(conversation_id) if conversation_id is not None else None
        titled = conversation is not None and conversation.book_id == book_id and conversation.title
        taken = [] if titled else [c.title for c in self.store.list_for_book(book_id)]
        if conversation is None or conversation.book_id != book_id:
            conversation_id = self.store.create(book_id, conversation_title(question, taken))
        else:
            conversation_id = conversation.id
            if not conversation.title:
                self.store.set_title(conversation_id, conversation_title(question, taken))
        stored = self.store.messages(conversation_id)
        self.store.add_message(conversation_id, "user", question, horizon=book.current_page)

        pages = self.books.pages(book_id)
        chapters = self.books.chapters(book_id)
        tools = BookTools(
            book,
            self.books,
            self.chunks,
            self.searcher,
            stated_pages(question, pages, chapters, story=book.story_pages, current_page=book.current_page),
            pages,
            chapters,
            self.page_files,
            self.pdf_input,
            self.knowledge,
            notes=self.notes,
        )

        # without a model the answers quote the pages read (see below): no shield to build
        source = self.shield_source(book) if self.model is not None else None
        shield = StreamShield(source or no_shield, question, reveal=reveal)
        shield_page = book.current_page

        def record(role: str, content: str, **fields: Any) -> int:
            horizon = max(book.current_page, tools.current_page)
            if role == "assistant" and content and "held_at" not in fields:
                judged = verdict(shield.index, question, content)
                if judged.held:
                    fields |= {
                        "held_at": judged.held_at,
                        "spoiler_page": judged.spoiler_page,
                        "revealed": reveal,
                    }
            return self.store.add_message(conversation_id, role, content or "", horizon=horizon, **fields)

        context = TurnContext(
            book=book,
            question=question,
            tools=tools,
            model=self.model,
            history=earlier_turns(stored, book.current_page),
            record=record,
            cancel=cancel,
            max_tool_calls=self.settings.max_tool_calls,
            retry=self.settings.retry,
        )
        streamed: list[str] = []
        finished = False
        try:
            for event in self.strategy.run(context):
                if tools.current_page != shield_page:  # the reader said where they are: judge at that page
                    shield_page = tools.current_page
                    shield.use(source.at(shield_page) if source is not None else None)
                if isinstance(event, AnswerEvent):
                    # an offline answer quotes the pages up to the reader's and the X-Ray up to there: it
                    # cannot spoil, and need not wait for the book's index (1.7 s on War and Peace)
                    judged = ShieldVerdict(event.text) if event.offline else shield.verdict(event.text)
                    message_id = record(
                        "assistant",
                        event.text,
                        held_at=judged.held_at,
                        spoiler_page=judged.spoiler_page,
                        revealed=reveal and judged.held,
                    )
                    finished = True
                    if rest := shield.rest(judged):
                        yield TextDelta(rest)
                    if judged.held and shield.index is not None:
                        yield ShieldEvent(
                            tuple(describe(shield.index, judged.findings)), judged.spoiler_page, reveal
                        )
                    shown = event.text if reveal else judged.shown
                    citations = parse_citations(shown, pages, tools.current_page)
                    yield AnswerEvent(
                        shown,
                        citations,
                        conversation_id,
                        event.offline,
                        held=judged.held and not reveal,
                        message_id=message_id,
                    )
                    return
                if isinstance(event, TextDelta):
                    streamed.append(event.text)
                    released = shield.feed(event.text)
                    if released:
                        yield TextDelta(released)
                else:
                    yield event
                context.check_cancel()
            raise ReaderError("The answer ended without a result; try asking again.")
        except TurnCancelled as stop:
            finished = True
            self._keep_partial(record, streamed, "cancelled")
            yield ErrorEvent(str(stop), conversation_id)
        except ReaderError as error:
            finished = True
            self._keep_partial(record, streamed, "error")
            yield ErrorEvent(" ".join(str(error).split()), conversation_id)
        except Exception as error:  # noqa: BLE001 - a failed answer is a line in the chat, never a crash
            finished = True
            self._keep_partial(record, streamed, "error")
            yield ErrorEvent(
                f"The answer failed unexpectedly ({type(error).__name__}: {error}).", conversation_id
            )
        finally:
            if not finished:  # the caller stopped listening (cancelled): keep what streamed so far
                try:
                    self._keep_partial(record, streamed, "cancelled")
                except Exception:  # noqa: BLE001 - closed from another thread or at shutdown
                    pass

    @staticmethod
    def _keep_partial(record: Any, streamed: list[str], status: str) -> None:
        text = "".join(streamed).strip()
        if text:
            record("assistant", text, status=status)
