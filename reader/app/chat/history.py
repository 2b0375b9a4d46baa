"""The history sent to the model: earlier answered turns within the spoiler horizon, trimmed to fit."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from reader.domain.chat import ChatMessage

MODEL_NOTE = "[The rest of this answer was held back: it mentioned something after the reader's page.]"
"""What the model sees in the history in place of a part the spoiler shield held back."""

Message = dict[str, Any]

TRIMMED = "[Trimmed to fit the model's context window; call the tool again if you need this text.]"
CUT = "\n\n[Cut here to fit the model's context window; ask for fewer pages at a time to read the rest.]"
MIN_KEPT_CHARS = 400
"""A tool result cut shorter than this is replaced by TRIMMED instead."""
FILE_LEFT_OUT = "[The attached page was left out to fit the model's context window; rely on its text.]"
FILE_PART_CHARS = 6000
"""What one attached PDF page counts for (providers bill a page as its text plus an image, ~1,500 tokens)."""


def content_chars(content: Any) -> int:
    """Characters a message's content counts for: its text, and FILE_PART_CHARS per attached file."""
    if isinstance(content, list):
        return sum(
            FILE_PART_CHARS if part.get("type") == "file" else len(str(part.get("text") or ""))
            for part in content
            if isinstance(part, dict)
        )
    return len(content or "")


def without_files(message: Message) -> Message:
    """The message with its attached files replaced by a short note."""
    content = message.get("content")
    if not isinstance(content, list) or not any(
        isinstance(p, dict) and p.get("type") == "file" for p in content
    ):
        return message
    kept = [p for p in content if not (isinstance(p, dict) and p.get("type") == "file")]
    return {**message, "content": [*kept, {"type": "text", "text": FILE_LEFT_OUT}]}


def estimate_tokens(message: Message) -> int:
    """A cheap, slightly generous token estimate (about 3.5 characters a token, plus overhead)."""
    size = content_chars(message.get("content"))
    if message.get("tool_calls"):
        size += len(json.dumps(message["tool_calls"]))
    return int(size / 3.5) + 6


def total_tokens(messages: Sequence[Message]) -> int:
    return sum(estimate_tokens(m) for m in messages)


def earlier_turns(stored: Sequence[ChatMessage], horizon: int) -> list[list[Message]]:
    """Earlier question/answer pairs as model messages, oldest first.

    Only turns that ended in a complete answer are kept, without their tool calls (the model can
    look again), and only when they were written at or before today's horizon: after the reader
    moves back, answers given from later pages are not resent. An answer the spoiler shield held
    back is resent as the reader was shown it, until the reader reaches the page it spoiled.
    """
    turns: list[list[ChatMessage]] = []
    for message in stored:
        if message.role == "user" or not turns:
            turns.append([message])
        else:
            turns[-1].append(message)
    kept: list[list[Message]] = []
    for turn in turns:
        question = turn[0]
        answers = [
            m
            for m in turn[1:]
            if m.role == "assistant" and m.status == "complete" and not m.tool_calls and m.content.strip()
        ]
        if question.role != "user" or not answers:
            continue
        if any(m.horizon is not None and m.horizon > horizon for m in turn):
            continue
        answer = answers[-1]
        content = answer.shown(horizon, for_model=True)
        if answer.held_back(horizon, for_model=True):  # the model sees what the reader was shown
            content = f"{content}\n\n{MODEL_NOTE}".strip()
        kept.append(
            [{"role": "user", "content": question.content}, {"role": "assistant", "content": content}]
        )
    return kept


def reserve_for_answer(window: int) -> int:
    """Tokens left free for the model's answer."""
    return min(1024, window // 4)


def shortened(text: str, excess_tokens: int) -> str:
    """A tool result cut by about `excess_tokens` (its beginning kept, with a note), or TRIMMED."""
    keep = len(text) - int(excess_tokens * 3.5) - len(CUT) - 8
    if keep < MIN_KEPT_CHARS:
        return TRIMMED
    cut = text.rfind(" ", 0, keep)
    return text[: cut if cut > keep // 2 else keep] + CUT


def fit_to_window(
    system: Message, history: Sequence[Sequence[Message]], current: Sequence[Message], window: int
) -> list[Message]:
    """system + as much recent history as fits + the current turn (oldest tool results trimmed if needed)."""
    budget = window - reserve_for_answer(window)
    current_list = [dict(m) for m in current]
    used = estimate_tokens(system) + total_tokens(current_list)
    for index in [i for i, m in enumerate(current_list) if isinstance(m.get("content"), list)]:
        if used <= budget:
            break
        before = estimate_tokens(current_list[index])
        current_list[index] = without_files(current_list[index])
        used -= before - estimate_tokens(current_list[index])
    for index in [i for i, m in enumerate(current_list) if m.get("role") == "tool"]:
        if used <= budget:
            break
        before = estimate_tokens(current_list[index])
        current_list[index]["content"] = shortened(
            str(current_list[index].get("content") or ""), used - budget
        )
        used -= before - estimate_tokens(current_list[index])
    kept: list[Message] = []
    for turn in reversed(history):
        cost = total_tokens(turn)
        if used + cost > budget:
            break
        kept[:0] = list(turn)
        used += cost
    return [system, *kept, *current_list]
