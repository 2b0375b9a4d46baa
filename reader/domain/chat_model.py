"""What a chat model streams back, and the one-line errors a model call can end in."""

from __future__ import annotations

from dataclasses import dataclass

from reader.domain.errors import ReaderError


@dataclass(frozen=True)
class ModelToolCall:
    """A tool call as the model sent it; `arguments` is the raw JSON text (it may be malformed)."""

    id: str
    name: str
    arguments: str

    def to_openai(self) -> dict[str, object]:
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments},
        }


@dataclass(frozen=True)
class ModelReply:
    """The assembled end of one streamed model call: its text and any tool calls."""

    content: str
    tool_calls: tuple[ModelToolCall, ...] = ()
    finish_reason: str = ""


class ChatModelError(ReaderError):
    """A model call failed; str(error) is one line for the conversation.

    `kind` is one of: auth, not_found, rate_limit, server, timeout, connection, context_window,
    bad_request, malformed, other. `retryable` says whether trying again later may help.
    """

    def __init__(self, message: str, kind: str = "other", retryable: bool = False) -> None:
        super().__init__(message)
        self.kind = kind
        self.retryable = retryable


class TurnCancelled(ReaderError):
    """The reader cancelled the answer."""

    def __init__(self) -> None:
        super().__init__("Cancelled.")
