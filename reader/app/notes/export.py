"""The reader's highlights and notes of a book as Markdown or plain records, under their chapters."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reader.app.pages.page_lookup import page_chapter, page_label
from reader.domain.annotations import Annotation
from reader.domain.models import Book, Chapter, Page

ORPHANED_HEADING = "Orphaned (no longer found in the book)"


@dataclass(frozen=True)
class NoteEntry:
    """One highlight or note with where it is: page label and chapter title."""

    annotation: Annotation
    label: str
    chapter: str | None

    def to_dict(self) -> dict[str, Any]:
        a = self.annotation
        return {
            "id": a.id,
            "kind": a.kind,
            "page": a.page,
            "label": self.label,
            "chapter": self.chapter,
            "quote": a.quote,
            "note": a.note,
            "orphaned": a.orphaned,
            "created_at": a.created_at,
            "updated_at": a.updated_at,
        }


def note_entries(
    book: Book, pages: Sequence[Page], chapters: Sequence[Chapter], annotations: Sequence[Annotation]
) -> list[NoteEntry]:
    """Each annotation with its page label and chapter (orphaned ones have neither chapter nor a sure page)."""
    entries = []
    for annotation in annotations:
        chapter = None if annotation.orphaned else page_chapter(book, chapters, annotation.page)
        entries.append(
            NoteEntry(annotation, page_label(pages, annotation.page), chapter.title if chapter else None)
        )
    return entries


def _quote_block(text: str) -> list[str]:
    paragraphs = [" ".join(p.split()) for p in text.split("\n\n") if p.strip()]
    lines: list[str] = []
    for paragraph in paragraphs:
        if lines:
            lines.append(">")
        lines.append(f"> {paragraph}")
    return lines


def notes_markdown(book: Book, entries: Sequence[NoteEntry]) -> str:
    """A Markdown document: the book, then each chapter's highlights and notes in page order, each with its
    page label; orphaned ones last."""
    lines = [f"# {book.title}"]
    if book.author:
        lines += ["", f"*{book.author}*"]
    anchored = [e for e in entries if not e.annotation.orphaned]
    orphaned = [e for e in entries if e.annotation.orphaned]
    if not entries:
        lines += ["", "No highlights or notes yet."]
    heading: str | None = ""
    for entry in anchored:
        if entry.chapter != heading:
            heading = entry.chapter
            lines += ["", f"## {heading or 'Before the first chapter'}"]
        lines += ["", *_entry_lines(entry, f"p. {entry.label}")]
    if orphaned:
        lines += ["", f"## {ORPHANED_HEADING}"]
        for entry in orphaned:
            lines += ["", *_entry_lines(entry, f"was on p. {entry.label}")]
    return "\n".join(lines) + "\n"


def _entry_lines(entry: NoteEntry, where: str) -> list[str]:
    lines = _quote_block(entry.annotation.quote)
    if entry.annotation.note:
        lines += ["", entry.annotation.note]
    lines += ["", f"— {where}"]
    return lines
