"""One chat turn's context, and a model call with streaming, cancelling, retries and trimming."""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from reader.app.chat.history import Message, fit_to_window, total_tokens
from reader.app.chat.tools import BookTools
from reader.domain.chat import ChatEvent, TextDelta
from reader.domain.chat_model import ChatModelError, ModelReply, RetryPolicy, TurnCancelled
from reader.domain.models import Book
from reader.domain.ports import ChatModel

Recorder = Callable[..., int]
"""Persists one message of the turn: (role, content, *, tool_calls, tool_call_id, name, status)."""


@dataclass
class TurnContext:
    """Everything a retrieval strategy needs to answer one question."""

    book: Book
    question: str
    tools: BookTools
    model: ChatModel | None
    history: list[list[Message]]
    record: Recorder
    cancel: threading.Event | None = None
    max_tool_calls: int = 8
    retry: RetryPolicy = field(default_factory=RetryPolicy)

    @property
    def label(self) -> str:
        return self.tools.label(self.book.current_page)

    def check_cancel(self) -> None:
        if self.cancel is not None and self.cancel.is_set():
            raise TurnCancelled()

    def wait(self, seconds: float) -> None:
        """Sleep before a retry, waking at once when the turn is cancelled."""
        if self.cancel is None:
            threading.Event().wait(seconds)
        elif self.cancel.wait(seconds):
            raise TurnCancelled()


class ChatStrategy(Protocol):
    """Answers one question: yields events and ends with an AnswerEvent holding the answer text."""

    name: str

    def run(self, context: TurnContext) -> Generator[ChatEvent, None, None]: ...


def call_model(
    context: TurnContext,
    system: Message,
    current: Sequence[Message],
    tools: Sequence[dict[str, Any]] | None,
    *,
    show_text: bool = True,
    json_object: bool = False,
) -> Generator[ChatEvent, None, ModelReply]:
    """Stream one model call, yielding text deltas; return the assembled reply.

    Rate limits and server errors are retried with exponential backoff (only before any text has
    streamed); a context-window overflow is retried once with the history trimmed harder. With
    `json_object` the provider is asked for a JSON object (the router's answer).
    """
    assert context.model is not None
    window = context.model.context_window()
    attempt = 0
    shrunk = False
    while True:
        context.check_cancel()
        messages = fit_to_window(system, context.history, current, window)
        streamed = False
        stream = (
            context.model.stream(messages, tools, json_object=True)
            if json_object
            else context.model.stream(messages, tools)
        )
        try:
            reply: ModelReply | None = None
            for piece in stream:
                context.check_cancel()
                if isinstance(piece, ModelReply):
                    reply = piece
                elif piece:
                    streamed = True
                    if show_text:
                        yield TextDelta(piece)
            if reply is None:
                raise ChatModelError(
                    "The model's reply ended before it was complete; try again.", "malformed"
                )
            return reply
        except ChatModelError as error:
            if streamed:
                raise
            if error.kind == "context_window" and not shrunk:
                shrunk = True
                window = max(256, total_tokens(messages) // 2)
                continue
            if error.retryable and attempt < context.retry.retries:
                context.wait(context.retry.backoff * 2**attempt)
                attempt += 1
                continue
            raise
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()
