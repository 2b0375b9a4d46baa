"""For models without function calling: reformulate the question, search, answer from the passages."""

from __future__ import annotations

import json
from collections.abc import Generator

from reader.app.chat_history import Message
from reader.app.chat_prompt import REFORMULATE_PROMPT, retrieved_prompt
from reader.app.chat_tools import tool_summary
from reader.app.chat_turn import TurnContext, call_model
from reader.domain.chat import AnswerEvent, ChatEvent, ToolInvocationEvent, ToolResult, ToolResultEvent
from reader.domain.chat_model import ChatModelError

SEARCH_CALL_ID = "retrieve_1"


def clean_query(text: str, fallback: str) -> str:
    """The first line of the model's reformulation without quotes or a 'Query:' prefix."""
    line = next((ln.strip() for ln in text.strip().splitlines() if ln.strip()), "")
    if line.lower().startswith("query:"):
        line = line[6:].strip()
    line = line.strip("\"'`").strip()
    return line if 0 < len(line) <= 200 else fallback


class AlwaysRetrieveStrategy:
    """Search first (with a reformulated question), then one streamed answer from the results."""

    name = "retrieve"

    def run(self, context: TurnContext) -> Generator[ChatEvent, None, None]:
        query = yield from self._reformulate(context)
        result = context.tools.search_book({"query": query})
        if not result.result_count and query != context.question:
            query = context.question
            result = context.tools.search_book({"query": query})
        arguments = {"query": query}
        function = {"name": "search_book", "arguments": json.dumps(arguments, ensure_ascii=False)}
        tool_calls = [{"id": SEARCH_CALL_ID, "type": "function", "function": function}]
        context.record("assistant", "", tool_calls=tool_calls)
        context.record("tool", result.formatted_text, tool_call_id=SEARCH_CALL_ID, name="search_book")
        summary = tool_summary("search_book", arguments, result)
        yield ToolInvocationEvent(
            SEARCH_CALL_ID, "search_book", arguments, summary, result.formatted_text, result.is_error
        )
        if result.result_count:
            yield ToolResultEvent(SEARCH_CALL_ID, query, result.result_count, result.results)
        yield from self._answer(context, result)

    def _reformulate(self, context: TurnContext) -> Generator[ChatEvent, None, str]:
        system: Message = {"role": "system", "content": REFORMULATE_PROMPT}
        current: list[Message] = [{"role": "user", "content": context.question}]
        reply = yield from call_model(context, system, current, None, show_text=False)
        return clean_query(reply.content, context.question)

    def _answer(self, context: TurnContext, result: ToolResult) -> Generator[ChatEvent, None, None]:
        system: Message = {"role": "system", "content": retrieved_prompt(context.book, context.label)}
        user = f"Passages from the book:\n\n{result.formatted_text}\n\nMy question: {context.question}"
        reply = yield from call_model(context, system, [{"role": "user", "content": user}], None)
        if not reply.content.strip():
            raise ChatModelError("The model gave no answer; try asking again.", "malformed")
        yield AnswerEvent(reply.content.strip())
