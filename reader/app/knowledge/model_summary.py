"""What the model is asked for summaries: map-reduce over a chapter's pages, a part's chapters and the
story's parts, with every citation outside the pages summarised dropped."""

from __future__ import annotations

import re
from collections.abc import Sequence

from reader.app.pages.page_lookup import page_label
from reader.domain.chat_model import ChatModelError, ModelReply
from reader.domain.models import Page
from reader.domain.ports import ChatModel

MAP_CHARS = 8_000
"""Text sent to the model in one map call."""

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
PART_PROMPT = (
    "These are summaries of the consecutive chapters of one part of a book, as far as the reader has "
    "read. Summarise the part in 2 to 4 sentences, in order, keeping the most important page citations. "
    + _RULES
)
RECAP_PROMPT = (
    "These are summaries of the chapters (or parts) a reader has read so far. Write 'the story so far' "
    "for them in one to three short paragraphs, keeping the page citations. " + _RULES
)


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


def map_reduce(
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
