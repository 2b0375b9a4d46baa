"""The agent loop for models with function calling: the model searches and reads, then answers."""

from __future__ import annotations

import json
from collections.abc import Generator
from dataclasses import replace
from typing import Any

from reader.app.chat.history import Message
from reader.app.chat.prompt import BUDGET_SPENT, tool_use_prompt
from reader.app.chat.tools import tool_summary
from reader.app.chat.turn import TurnContext, call_model
from reader.app.pages.figures import attachment_message
from reader.domain.chat import (
    AnswerEvent,
    ChatEvent,
    PageAttachment,
    TextDelta,
    ToolDefinition,
    ToolInvocationEvent,
    ToolResult,
    ToolResultEvent,
)
from reader.domain.chat_model import ChatModelError, ModelToolCall


def parse_arguments(name: str, raw: str, example: str = "{}") -> tuple[dict[str, Any] | None, str]:
    """The arguments as a dict, or None and an error the model can correct (`example` shows the shape)."""
    if not raw.strip():
        return {}, ""
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as error:
        return None, (
            f"Error: the arguments of {name} are not valid JSON ({error.msg} at character {error.pos}). "
            f"Send one JSON object, e.g. {example}."
        )
    if not isinstance(value, dict):
        return (
            None,
            f"Error: the arguments of {name} must be a JSON object like {example}, not {type(value).__name__}.",
        )
    return value, ""


def argument_example(definition: ToolDefinition | None) -> str:
    """A JSON object of the tool's required arguments, e.g. {"start_page": "...", "end_page": "..."}."""
    required = definition.parameters.get("required", []) if definition else []
    return json.dumps({name: "..." for name in required})


def replayable(call: ModelToolCall) -> ModelToolCall:
    """The call as it goes back to the model: arguments that are not a JSON object become "{}".

    Some providers (Ollama, Gemini) parse the arguments of earlier calls before sending them: a
    malformed string would fail the whole request instead of reaching the model as an error result.
    """
    try:
        if isinstance(json.loads(call.arguments or "{}"), dict):
            return call
    except json.JSONDecodeError:
        pass
    return ModelToolCall(call.id, call.name, "{}")


POSITION_TOOLS = frozenset(("get_current_page", "set_current_page"))
"""Tools whose results hold no text of the book."""


def forget_later_text(current: list[Message], read_at: dict[int, int], page: int, label: str) -> None:
    """After the reader moved back to `page`, blank what was read while the position was further on."""
    for index, horizon in read_at.items():
        if horizon > page:
            note = (
                f"[Left out: read when the reading position was further on; the reader is now on p. {label}. "
                "Search or read again.]"
            )
            current[index] = {**current[index], "content": note}


class ToolUseRetrievalStrategy:
    """Loop: stream a reply; run the tools it calls; repeat until it answers or the budget is spent."""

    name = "tools"

    def run(self, context: TurnContext) -> Generator[ChatEvent, None, None]:
        tools = context.tools
        budget = context.max_tool_calls
        system: Message = {"role": "system", "content": tool_use_prompt(context.book, context.label, budget)}
        prompted_at = context.book.current_page
        definitions = [d.to_openai() for d in tools.definitions]
        current: list[Message] = [{"role": "user", "content": context.question}]
        texts: list[str] = []
        read_at: dict[int, int] = {}
        """Index in `current` of each message holding book text -> the reading position it was read at."""
        used = 0
        rounds = 0
        while True:
            spent = used >= budget
            if spent:
                current.append({"role": "user", "content": BUDGET_SPENT})
            if texts and texts[-1]:
                yield TextDelta("\n\n")
            if tools.current_page != prompted_at:  # the reader's message moved the position this turn
                if tools.current_page < prompted_at:
                    forget_later_text(current, read_at, tools.current_page, tools.label(tools.current_page))
                prompted_at = tools.current_page
                book = replace(context.book, current_page=prompted_at)
                system = {
                    "role": "system",
                    "content": tool_use_prompt(book, tools.label(prompted_at), budget),
                }
            reply = yield from call_model(context, system, current, None if spent else definitions)
            rounds += 1
            texts.append(reply.content.strip())
            if not reply.tool_calls or spent:
                answer = "\n\n".join(t for t in texts if t)
                if not answer:
                    raise ChatModelError(
                        "The model gave no answer"
                        + (f" after {used} tool calls" if used else "")
                        + "; try asking again or more specifically.",
                        "malformed",
                    )
                yield AnswerEvent(answer)
                return
            calls = [
                ModelToolCall(call.id or f"call_{rounds}_{i}", call.name, call.arguments)
                for i, call in enumerate(reply.tool_calls)
            ]
            assistant: Message = {
                "role": "assistant",
                "content": reply.content or None,
                "tool_calls": [replayable(c).to_openai() for c in calls],
            }
            current.append(assistant)
            context.record("assistant", reply.content, tool_calls=assistant["tool_calls"])
            attachments: list[PageAttachment] = []
            for call in calls:
                context.check_cancel()
                if used >= budget:
                    result = ToolResult(
                        f"Not run: the budget of {budget} tool calls for this question is spent. Answer now.",
                        is_error=True,
                    )
                    arguments: dict[str, Any] = {}
                else:
                    used += 1
                    if call.name not in POSITION_TOOLS:
                        read_at[len(current)] = tools.current_page
                    result, arguments = self._dispatch(context, call)
                current.append({"role": "tool", "tool_call_id": call.id, "content": result.formatted_text})
                attachments.extend(result.attachments)
                context.record("tool", result.formatted_text, tool_call_id=call.id, name=call.name)
                yield ToolInvocationEvent(
                    call.id,
                    call.name,
                    arguments,
                    tool_summary(call.name, arguments, result),
                    result.formatted_text,
                    result.is_error,
                )
                if result.result_count:
                    yield ToolResultEvent(call.id, result.query, result.result_count, result.results)
            if attachments:
                # files cannot ride in tool messages everywhere: they follow the round's tool results
                read_at[len(current)] = tools.current_page
                current.append(attachment_message(context.book, attachments))

    @staticmethod
    def _dispatch(context: TurnContext, call: ModelToolCall) -> tuple[ToolResult, dict[str, Any]]:
        if call.name not in context.tools.handlers:
            return context.tools.call(call.name, {}), {}
        definition = next((d for d in context.tools.definitions if d.name == call.name), None)
        arguments, problem = parse_arguments(call.name, call.arguments, argument_example(definition))
        if arguments is None:
            return ToolResult(problem, is_error=True), {"raw": call.arguments}
        return context.tools.call(call.name, arguments), arguments
