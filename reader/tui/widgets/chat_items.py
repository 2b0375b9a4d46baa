"""The parts of a conversation: questions, tool calls, notices and errors (answers: answer_item)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Collapsible, Static

from reader.domain.search import SearchResult

if TYPE_CHECKING:
    from reader.tui.widgets.answer_item import AnswerItem

RESULT_PREVIEW_CHARS = 1200
THINKING = "Thinking…"
"""Shown under a question until the first part of its answer arrives."""


class QuestionItem(Static):
    """The reader's question."""

    def __init__(self, question: str) -> None:
        super().__init__(Content.assemble(("You  ", "bold $accent"), question), classes="chat-question")
        self.question = question


class ErrorItem(Static):
    """A failed turn, shown inline."""

    def __init__(self, message: str) -> None:
        super().__init__(Content.assemble(("Error  ", "bold $error"), message), classes="chat-error")


class ToolCallItem(Collapsible):
    """One tool call as a collapsed line (its summary) that expands to arguments and result."""

    def __init__(self, tool_call_id: str, summary: str, arguments: dict[str, object], result: str) -> None:
        self.tool_call_id = tool_call_id
        self.details = Static(self._details(arguments, result), classes="tool-details", markup=False)
        super().__init__(self.details, title=summary, collapsed=True, classes="chat-tool")

    @staticmethod
    def _details(arguments: dict[str, object], result: str) -> str:
        shown = result if len(result) <= RESULT_PREVIEW_CHARS else result[:RESULT_PREVIEW_CHARS] + " …"
        return f"arguments: {json.dumps(arguments, ensure_ascii=False)}\n\n{shown}".rstrip()

    def add_results(self, results: Sequence[SearchResult]) -> None:
        """List the passages a search returned."""
        lines = [f"{r.page_citation}: {' '.join(r.content.split())[:120]}" for r in results]
        current = str(self.details.content)
        self.details.update(current + "\n\n" + "\n".join(lines))


class TurnItem(Vertical):
    """One question with everything its answer produced; removed whole when cancelled."""

    def __init__(self, question: str) -> None:
        super().__init__(classes="chat-turn")
        self.question = question
        from reader.tui.widgets.answer_item import AnswerItem  # Markdown loads with the first question

        self.answer: AnswerItem = AnswerItem()

    def compose(self) -> ComposeResult:
        yield QuestionItem(self.question)
        yield Static(THINKING, classes="chat-thinking", markup=False)
        yield self.answer

    @property
    def thinking(self) -> bool:
        """Whether the turn still shows that the model is working (nothing has arrived yet)."""
        return bool(self.query(".chat-thinking"))

    def stop_thinking(self) -> None:
        """Remove the "Thinking…" line (the first text, tool call or error arrived, or the turn ended)."""
        self.query(".chat-thinking").remove()

    def add_before_answer(self, item: Static | Collapsible) -> None:
        """Mount `item` (a tool call or notice) above the answer."""
        self.mount(item, before=self.answer)

    def tool_item(self, tool_call_id: str) -> ToolCallItem | None:
        return next((t for t in self.query(ToolCallItem) if t.tool_call_id == tool_call_id), None)
