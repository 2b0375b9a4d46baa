"""The chat's companion-knowledge tools: lookup_concept, chapter_summary and story_so_far.

Each answer stops at the reader's page: a concept first met later does not exist yet, and
summaries cover only the pages read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reader.app.knowledge.recap_text import render_recap
from reader.app.knowledge.summaries import SummariesUseCase
from reader.app.knowledge.xray import XRayUseCase
from reader.domain.chat import ToolDefinition, ToolResult
from reader.domain.errors import ReaderError
from reader.domain.models import Page

TOOL_RECAP_CHARS = 24_000
"""A recap longer than this goes to the model shortened (about 6,000 tokens)."""

KNOWLEDGE_TOOLS: tuple[ToolDefinition, ...] = (
    ToolDefinition(
        "lookup_concept",
        "Look up a person, place or recurring term of the book by name (fuzzy): what it is, where it "
        "first appears, the pages that mention it, who or what it appears with, and a few short passages. "
        "Only what the reader has read so far.",
        {
            "type": "object",
            "properties": {
                "name": {
                    "type": "string",
                    "description": "A name as the book writes it: a person, a place or a thing.",
                }
            },
            "required": ["name"],
        },
    ),
    ToolDefinition(
        "chapter_summary",
        "A summary of one chapter, with page citations; a chapter the reader is in is summarised only up "
        "to their page. Chapters after it cannot be summarised.",
        {
            "type": "object",
            "properties": {
                "chapter": {
                    "type": "string",
                    "description": (
                        'The chapter\'s own number ("3" or "III" for Chapter 3; in a book of parts, '
                        'the one in the reader\'s part), "#3" for the third entry of the contents, a '
                        'title, or "current" for the one the reader is in.'
                    ),
                }
            },
            "required": ["chapter"],
        },
    ),
    ToolDefinition(
        "story_so_far",
        "A recap of the whole book up to the reader's page, chapter by chapter, with page citations.",
        {"type": "object", "properties": {}},
    ),
)


@dataclass(frozen=True)
class BookKnowledge:
    """What the companion tools read: the concept map (X-Ray) and the summaries."""

    xray: XRayUseCase
    summaries: SummariesUseCase


def _pages_list(numbers: Sequence[int], label: Callable[[int], str], limit: int = 30) -> str:
    shown = ", ".join(label(n) for n in numbers[:limit])
    return shown + (f" and {len(numbers) - limit} more" if len(numbers) > limit else "")


def lookup_concept(
    knowledge: BookKnowledge,
    book_id: str,
    name: str,
    current_page: int,
    pages: Sequence[Page],
    label: Callable[[int], str],
) -> ToolResult:
    """The X-Ray entry of the concept `name` names, up to `current_page`."""
    horizon = f"p. {label(current_page)}"
    xray = knowledge.xray
    if not xray.has_map(book_id):
        return ToolResult(
            "This book has no concept map (it was imported before X-Ray existed); use search_book.",
            query=name,
            is_error=True,
        )
    entry = xray.find(book_id, name, current_page)
    if entry is None:
        return ToolResult(
            f"No person, place or term called '{name}' in the pages up to {horizon} (the reader's position). "
            "Try search_book, or say the pages read so far do not mention it.",
            query=name,
        )
    detail = xray.detail(book_id, entry, current_page, pages)
    lines = [
        f"{entry.name} ({entry.kind})"
        + (f", also called {', '.join(entry.aliases)}" if entry.aliases else "")
    ]
    times = f"{entry.mentions} time{'' if entry.mentions == 1 else 's'}"
    on_pages = f"{entry.pages} page{'' if entry.pages == 1 else 's'}"
    shown = [p for p, _ in detail.mentions]
    lines.append(
        f"First appears on p. {label(entry.first_page)}; mentioned {times} on {on_pages} "
        f"up to {horizon}: {'p.' if len(shown) == 1 else 'pp.'} {_pages_list(shown, label)}."
    )
    if detail.related:
        lines.append(
            "Appears with: "
            + ", ".join(f"{other.name} ({other.kind}, {shared} page{'' if shared == 1 else 's'})" for other, shared in detail.related)
            + "."
        )
    if detail.snippets:
        lines.append("Passages:")
        lines += [f"[p. {s.label}] {s.text}" for s in detail.snippets]
    return ToolResult("\n".join(lines), query=name, result_count=1)


def chapter_summary(
    knowledge: BookKnowledge,
    book_id: str,
    chapter: str,
    current_page: int,
    pages: Sequence[Page],
    label: Callable[[int], str],
) -> ToolResult:
    """One chapter's summary up to `current_page`."""
    try:
        result = knowledge.summaries.chapter_summary(book_id, chapter, current_page)
    except ReaderError as error:
        return ToolResult(f"Error: {error}", query=chapter, is_error=True)
    summary = result.summary
    notes = "".join(f"\n({note})" for note in result.notes)
    text = summary.text or "(No sentences to summarise on these pages.)"
    return ToolResult(f"Summary of {result.heading(pages)}:\n{text}{notes}", query=chapter, result_count=1)


def story_so_far(
    knowledge: BookKnowledge, book_id: str, current_page: int, label: Callable[[int], str]
) -> ToolResult:
    """The recap of the book up to `current_page`, as the reader sees it; a long one with what came
    before the reader's part shortened (see `render_recap`)."""
    recap = knowledge.summaries.story_so_far(book_id, current_page)
    notes = [f"\n({note})" for note in recap.notes]
    text = recap.text
    if len(text) > TOOL_RECAP_CHARS:
        text = render_recap(recap.overview, recap.sections, recap.parts, label, brief=True)
        notes.append(
            "\n(Earlier parts are shortened here: a part to its summary, a chapter to its first sentence; "
            "chapter_summary gives any chapter in full.)"
        )
    return ToolResult(
        f"The story so far, up to p. {label(current_page)} (the reader's position):\n\n{text}{''.join(notes)}",
        result_count=len(recap.sections),
    )
