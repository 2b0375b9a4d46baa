"""With no model configured: what the concept map knows of the people and places the question names,
and the passages from pages already read that best match it (or the recap, when it asks for one)."""

from __future__ import annotations

import re
from collections.abc import Generator, Sequence

from reader.app.chat.turn import TurnContext
from reader.app.knowledge.question_router import concept_hits
from reader.domain.chat import AnswerEvent, ChatEvent, NoticeEvent

PASSAGES = 3
CONCEPTS = 2
"""X-Ray entries shown for the people, places and terms a question names."""
RECAP_QUESTION = re.compile(
    r"\b(story so far|recap|summar(y|ise|ize)|what (has )?happened so far|catch me up)\b", re.IGNORECASE
)
XRAY_HEADING = "**What the X-Ray knows**"
PASSAGES_HEADING = "**Passages up to p. {label} that best match your question**"
NO_MODEL = "no-model"
"""The topic of the notice that no model is configured (a conversation shows it once)."""
PASSAGE_CHARS = 600
CONTEXT_CHARS = 160
"""Passage text kept on each side of the sentences that answer."""


def shorten(text: str, limit: int = PASSAGE_CHARS) -> str:
    """`text` cut at a word boundary near `limit`, with an ellipsis when cut."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit)
    return text[: cut if cut > limit // 2 else limit].rstrip(",;: ") + " …"


def answer_excerpt(text: str, spans: Sequence[tuple[int, int]], context: int = CONTEXT_CHARS) -> str:
    """The sentences that answer in bold, with a little of their passage around them (cut at words);
    the passage's start (shortened) when no sentence stood out."""
    if not spans:
        return shorten(text)
    start, end = min(s for s, _ in spans), max(e for _, e in spans)
    before, answer, after = text[max(0, start - context) : start], text[start:end], text[end : end + context]
    if start - context > 0:
        before = "… " + before.split(" ", 1)[-1] if " " in before else before
    if end + context < len(text):
        after = after.rsplit(" ", 1)[0] + " …" if " " in after else after
    answer = " ".join(answer.split())
    return " ".join(f"{' '.join(before.split())} **{answer}** {' '.join(after.split())}".split(" ")).strip()


class OfflinePassagesStrategy:
    """Answers from the book itself: cited passages, and one line on configuring a model."""

    name = "offline"

    def __init__(self, hint: str) -> None:
        self.hint = hint

    def run(self, context: TurnContext) -> Generator[ChatEvent, None, None]:
        yield NoticeEvent(self.hint, topic=NO_MODEL)
        label = context.label
        if RECAP_QUESTION.search(context.question) and context.tools.knowledge is not None:
            recap = context.tools.story_so_far({})
            yield AnswerEvent(recap.formatted_text, offline=True)
            return
        known = self._concepts(context)
        result = context.tools.search_book({"query": context.question})
        hits = list(result.results)[:PASSAGES]
        if not hits and not known:
            yield AnswerEvent(
                f"Nothing in the pages you have read (up to p. {label}) matches that; try other words.",
                offline=True,
            )
            return
        blocks = [XRAY_HEADING, *known] if known else []
        if hits:
            blocks.append(PASSAGES_HEADING.format(label=label))
            blocks += [f"> {answer_excerpt(hit.content, hit.answer_spans)} [{hit.page_citation}]" for hit in hits]
        yield AnswerEvent("\n\n".join(blocks), offline=True)

    @staticmethod
    def _concepts(context: TurnContext) -> list[str]:
        """The X-Ray entries of the people, places and terms the question names (met so far), each as
        blocks: the name (bold) and what kind, then one paragraph a fact."""
        knowledge = context.tools.knowledge
        if knowledge is None:
            return []
        entries = knowledge.xray.entries(context.book.id, context.tools.current_page)
        found = []
        for entry in concept_hits(context.question, entries)[:CONCEPTS]:
            text = context.tools.lookup_concept({"name": entry.name}).formatted_text
            head, *facts = text.split("\nPassages:")[0].splitlines()
            name, paren, rest = head.partition(" (")
            found.append("\n\n".join([f"**{name}**{paren}{rest}", *(fact for fact in facts if fact.strip())]))
        return found
