"""The chat's my_notes tool: the reader's own highlights and notes on the pages read so far."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from reader.app.search.search_terms import query_terms
from reader.domain.annotations import Annotation
from reader.domain.chat import ToolDefinition, ToolResult

NotesUpTo = Callable[[str, int], Sequence[Annotation]]
"""(book id, page) -> the reader's highlights and notes on pages up to that page."""

MAX_NOTES = 40
"""Highlights and notes one call returns at most (the closest matches, else the latest pages)."""

QUOTE_CHARS = 400

MY_NOTES_TOOL = ToolDefinition(
    "my_notes",
    "The reader's own highlights and notes (passages they marked while reading, with what they wrote), "
    "on the pages read so far, with page labels. Use it when the reader asks what they highlighted, "
    "noted or marked. Give 'about' to keep those mentioning a person, place or word.",
    {
        "type": "object",
        "properties": {
            "about": {
                "type": "string",
                "description": "Optional: a name or a few words; only highlights and notes mentioning them.",
            }
        },
    },
)


def _mentions(annotation: Annotation, words: list[str]) -> bool:
    text = f"{annotation.quote} {annotation.note}".lower()
    return any(word in text for word in words)


def _clip(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= QUOTE_CHARS else flat[: QUOTE_CHARS - 1] + "…"


def my_notes(
    notes: NotesUpTo, book_id: str, about: str, current_page: int, label: Callable[[int], str]
) -> ToolResult:
    """The reader's highlights and notes up to `current_page` (the spoiler horizon), those about `about` first."""
    horizon = f"p. {label(current_page)}"
    marked = [a for a in notes(book_id, current_page) if a.page <= current_page]
    if not marked:
        return ToolResult(f"The reader has no highlights or notes on the pages up to {horizon}.", query=about)
    words = [w for w in query_terms(about) if len(w) > 1] if about.strip() else []
    chosen = [a for a in marked if _mentions(a, words)] if words else marked
    header = f"The reader's highlights and notes up to {horizon}"
    if words and not chosen:
        header = f"None of the reader's highlights or notes mention '{about}'. All of them up to {horizon}"
        chosen = marked
    elif words:
        header += f" that mention '{about}'"
    shown = chosen[-MAX_NOTES:]
    more = f" (the last {len(shown)} of {len(chosen)})" if len(chosen) > len(shown) else ""
    lines = [f"{header}{more}:"]
    for annotation in shown:
        where = f"p. {label(annotation.page)}" + (
            ", no longer found in the book" if annotation.orphaned else ""
        )
        lines.append(f"[{where}] “{_clip(annotation.quote)}”")
        if annotation.note:
            lines.append(f"  Reader's note: {_clip(annotation.note)}")
    return ToolResult("\n".join(lines), query=about, result_count=len(shown))
