"""For models without function calling: route the question, search when it is about the book, answer."""

from __future__ import annotations

import json
from collections.abc import Generator

from reader.app.chat.history import Message
from reader.app.chat.prompt import general_prompt, retrieved_prompt
from reader.app.chat.tools import tool_summary
from reader.app.chat.turn import TurnContext, call_model
from reader.app.knowledge.question_router import NOT_BOOK, ROUTER_PROMPT, RouteDecision, decide
from reader.domain.chat import AnswerEvent, ChatEvent, ToolInvocationEvent, ToolResult, ToolResultEvent
from reader.domain.chat_model import ChatModelError

SEARCH_CALL_ID = "retrieve_1"
ROUTE_CALL_ID = "route_1"


class AlwaysRetrieveStrategy:
    """Route the question; search for a book question, then one streamed answer from the results.

    The model routes it (a constrained JSON answer); a question not about the book is answered
    without retrieval. A routing answer that is not valid is settled by the concept map.
    """

    name = "retrieve"

    def run(self, context: TurnContext) -> Generator[ChatEvent, None, None]:
        decision = yield from self._route(context)
        arguments = {"question": context.question}
        yield ToolInvocationEvent(
            ROUTE_CALL_ID, "route_question", arguments, f"route -> {decision.describe()}", decision.describe()
        )
        if decision.route == NOT_BOOK:
            yield from self._answer_directly(context)
            return
        queries = list(dict.fromkeys([*decision.suggested_queries, context.question]))
        query, result = queries[0], context.tools.search_book({"query": queries[0]})
        for other in queries[1:]:
            if result.result_count:
                break
            query, result = other, context.tools.search_book({"query": other})
        search = {"query": query}
        function = {"name": "search_book", "arguments": json.dumps(search, ensure_ascii=False)}
        tool_calls = [{"id": SEARCH_CALL_ID, "type": "function", "function": function}]
        context.record("assistant", "", tool_calls=tool_calls)
        context.record("tool", result.formatted_text, tool_call_id=SEARCH_CALL_ID, name="search_book")
        summary = tool_summary("search_book", search, result)
        yield ToolInvocationEvent(
            SEARCH_CALL_ID, "search_book", search, summary, result.formatted_text, result.is_error
        )
        if result.result_count:
            yield ToolResultEvent(SEARCH_CALL_ID, query, result.result_count, result.results)
        yield from self._answer(context, result)

    def _route(self, context: TurnContext) -> Generator[ChatEvent, None, RouteDecision]:
        knowledge = context.tools.knowledge
        entries = (
            knowledge.xray.entries(context.book.id, context.tools.current_page)
            if knowledge is not None
            else []
        )
        prompt = ROUTER_PROMPT.format(title=context.book.title, label=context.label)
        system: Message = {"role": "system", "content": prompt}
        current: list[Message] = [{"role": "user", "content": context.question}]
        reply = yield from call_model(context, system, current, None, show_text=False, json_object=True)
        return decide(context.question, reply.content, entries, context.book.title)

    def _answer_directly(self, context: TurnContext) -> Generator[ChatEvent, None, None]:
        system: Message = {"role": "system", "content": general_prompt(context.book, context.label)}
        current: list[Message] = [{"role": "user", "content": context.question}]
        reply = yield from call_model(context, system, current, None)
        if not reply.content.strip():
            raise ChatModelError("The model gave no answer; try asking again.", "malformed")
        yield AnswerEvent(reply.content.strip())

    def _answer(self, context: TurnContext, result: ToolResult) -> Generator[ChatEvent, None, None]:
        system: Message = {"role": "system", "content": retrieved_prompt(context.book, context.label)}
        user = f"Passages from the book:\n\n{result.formatted_text}\n\nMy question: {context.question}"
        reply = yield from call_model(context, system, [{"role": "user", "content": user}], None)
        if not reply.content.strip():
            raise ChatModelError("The model gave no answer; try asking again.", "malformed")
        yield AnswerEvent(reply.content.strip())
