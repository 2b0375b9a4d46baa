"""With no model configured: the passages from pages already read that best match the question."""

from __future__ import annotations

from collections.abc import Generator

from reader.app.chat_turn import TurnContext
from reader.domain.chat import AnswerEvent, ChatEvent, NoticeEvent

PASSAGES = 3
PASSAGE_CHARS = 600


def shorten(text: str, limit: int = PASSAGE_CHARS) -> str:
    """`text` cut at a word boundary near `limit`, with an ellipsis when cut."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit)
    return text[: cut if cut > limit // 2 else limit].rstrip(",;: ") + " …"


class OfflinePassagesStrategy:
    """Answers from the book itself: cited passages, and one line on configuring a model."""

    name = "offline"

    def __init__(self, hint: str) -> None:
        self.hint = hint

    def run(self, context: TurnContext) -> Generator[ChatEvent, None, None]:
        yield NoticeEvent(self.hint)
        label = context.label
        result = context.tools.search_book({"query": context.question})
        hits = list(result.results)[:PASSAGES]
        if not hits:
            yield AnswerEvent(
                f"Nothing in the pages you have read (up to p. {label}) matches that; try other words.",
                offline=True,
            )
            return
        passages = "\n\n".join(f"> {shorten(hit.content)} [{hit.page_citation}]" for hit in hits)
        yield AnswerEvent(
            f"The passages up to p. {label} that best match your question:\n\n{passages}", offline=True
        )
