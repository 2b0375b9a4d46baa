"""Chat value objects: tools, tool results and the events a chat turn emits."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from reader.domain.search import SearchResult


@dataclass(frozen=True)
class ToolDefinition:
    """A tool the model may call: its name, description and JSON-schema parameters."""

    name: str
    description: str
    parameters: dict[str, Any]

    def to_openai(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }


@dataclass(frozen=True)
class PageAttachment:
    """Pages of the book's PDF sent to the model as a file, so it sees their figures."""

    data: bytes
    """A PDF holding just these pages."""
    pages: tuple[int, ...]
    labels: tuple[str, ...]
    """The printed labels of `pages`, as the model should cite them."""
    media_type: str = "application/pdf"

    @property
    def filename(self) -> str:
        safe = ("".join(ch if ch.isalnum() else "_" for ch in label) for label in self.labels)
        return "page-" + "-".join(safe) + ".pdf"

    @property
    def citation(self) -> str:
        return f"p. {self.labels[0]}" if len(self.labels) == 1 else f"pp. {self.labels[0]}-{self.labels[-1]}"


@dataclass(frozen=True)
class ToolResult:
    """What a tool handler returns: the text for the model plus what the UI shows."""

    formatted_text: str
    query: str = ""
    result_count: int = 0
    results: tuple[SearchResult, ...] = ()
    is_error: bool = False
    attachments: tuple[PageAttachment, ...] = ()
    """Pages to show the model as files (sent in a message after the tool results)."""


ToolHandler = Callable[[dict[str, Any]], ToolResult]


@dataclass(frozen=True)
class Citation:
    """A page cited in an answer, e.g. [p. 57]: the printed label and the page number."""

    label: str
    page: int


@dataclass(frozen=True)
class TextDelta:
    """A piece of the answer as it streams in."""

    text: str


@dataclass(frozen=True)
class ToolInvocationEvent:
    """The model called a tool (emitted for every call)."""

    tool_call_id: str
    name: str
    arguments: dict[str, Any]
    summary: str
    """One short line for the UI, e.g. 'search_book "the letter" -> 4 hits'."""
    result_text: str = ""
    is_error: bool = False


@dataclass(frozen=True)
class ToolResultEvent:
    """Search results returned to the model (only emitted when a search found something)."""

    tool_call_id: str
    query: str
    result_count: int
    results: tuple[SearchResult, ...]


@dataclass(frozen=True)
class NoticeEvent:
    """Something the reader should know that is not an error (a warning, a degraded mode)."""

    message: str
    topic: str = ""
    """What it is about ("no-model"), so a conversation can say it once; "" for one-off notices."""


@dataclass(frozen=True)
class AnswerEvent:
    """The final answer of a turn with the pages it cites."""

    text: str
    citations: tuple[Citation, ...] = ()
    conversation_id: int | None = None
    offline: bool = False
    held: bool = False
    """The spoiler shield held back the rest of the answer after `text` (see ShieldEvent)."""
    message_id: int | None = None
    """The stored answer (to reveal a held-back part with `reveal`)."""


@dataclass(frozen=True)
class ShieldEvent:
    """The spoiler shield held back part of the answer (or would have, when revealing): why, for
    verbose output only; the reader is never shown what was held."""

    reasons: tuple[str, ...]
    """One line per rule that fired, e.g. 'later name "Morvoren Quay" (first met p. 26)'."""
    spoiler_page: int | None = None
    """From this reading position on the held part spoils nothing any more."""
    revealed: bool = False


@dataclass(frozen=True)
class ErrorEvent:
    """The turn failed; `message` is one clear line for the conversation."""

    message: str
    conversation_id: int | None = None


ChatEvent = (
    TextDelta | ToolInvocationEvent | ToolResultEvent | NoticeEvent | ShieldEvent | AnswerEvent | ErrorEvent
)


@dataclass
class ChatMessage:
    """A stored message of a conversation (user, assistant or tool)."""

    id: int
    conversation_id: int
    role: str
    content: str
    tool_calls: list[dict[str, Any]] | None = None
    tool_call_id: str | None = None
    name: str | None = None
    status: str = "complete"
    created_at: str = ""
    horizon: int | None = None
    """The reader's page when the message was written; history past a later horizon is not resent."""
    held_at: int | None = None
    """Where the part the spoiler shield held back starts in `content` (None: nothing was held)."""
    spoiler_page: int | None = None
    """From this reading position on, the held-back part spoils nothing and is shown."""
    revealed: bool = False
    """The reader asked to see the held-back part anyway."""

    def held_back(self, current_page: int, *, for_model: bool = False) -> bool:
        """Whether part of it is still held back at `current_page` (a reveal counts for the reader only)."""
        if self.held_at is None or (self.revealed and not for_model):
            return False
        return self.spoiler_page is None or current_page < self.spoiler_page

    def shown(self, current_page: int, *, for_model: bool = False) -> str:
        """The content as it may be shown at `current_page` (without the held-back part)."""
        if not self.held_back(current_page, for_model=for_model):
            return self.content
        return self.content[: self.held_at].rstrip()


@dataclass(frozen=True)
class Conversation:
    """A conversation about one book."""

    id: int
    book_id: str
    title: str
    created_at: str
    updated_at: str
    message_count: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
