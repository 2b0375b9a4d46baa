"""A stand-in chat model that answers at once, for timing caches and composition rather than a model."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any


class InstantModel:
    """Answers every request with `reply` at once."""

    name = "bench/instant"

    def __init__(self, reply: str = "Something happens [p. 1].") -> None:
        self.reply = reply

    def supports_tools(self) -> bool:
        return False

    def context_window(self) -> int:
        return 8192

    def stream(self, messages: Sequence[dict[str, Any]], tools: Any = None, **_: Any) -> Iterator[Any]:
        from reader.domain.chat_model import ModelReply

        yield ModelReply(self.reply)
