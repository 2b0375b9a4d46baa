"""What a chat model streams back, and the one-line errors a model call can end in."""

from __future__ import annotations

from dataclasses import dataclass

from reader.domain.errors import EndpointError, ReaderError


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently to retry a rate-limited or failing model call."""

    retries: int = 3
    backoff: float = 1.0
    """Seconds before the first retry; doubled for each further one."""


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


class ChatModelError(EndpointError):
    """A model call failed; str(error) is one line for the conversation (kinds: see EndpointError)."""


class TurnCancelled(ReaderError):
    """The reader cancelled the answer."""

    def __init__(self) -> None:
        super().__init__("Cancelled.")
