"""The reader's own marks from the command line: bookmarks and notes (with a Markdown export)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from reader.app.pages.page_lookup import page_chapter, page_label
from reader.cli.output import json_line
from reader.services import Services

QUOTE_WIDTH = 100


def register(commands: Any) -> None:
    p = commands.add_parser("bookmarks", help="list a book's bookmarks with their pages and chapters")
    p.add_argument("book", metavar="BOOK")
    p.add_argument("--json", action="store_true", help="one JSON object per bookmark")
    p.set_defaults(handler=bookmarks_command)

    p = commands.add_parser("notes", help="list a book's highlights and notes (orphaned ones too)")
    p.add_argument("book", metavar="BOOK")
    p.add_argument("--export", choices=["md"], help="write them as a Markdown document")
    p.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="write the export to FILE instead of stdout"
    )
    p.add_argument("--json", action="store_true", help="one JSON object per highlight or note")
    p.set_defaults(handler=notes_command)


def bookmarks_command(args: argparse.Namespace, services: Services) -> int:
    book = services.find_book(args.book)
    pages, chapters = services.books.pages(book.id), services.books.chapters(book.id)
    bookmarks = services.bookmarks.list(book.id)
    for bookmark in bookmarks:
        chapter = page_chapter(book, chapters, bookmark.page)
        label = page_label(pages, bookmark.page)
        if args.json:
            json_line(
                {
                    "id": bookmark.id,
                    "page": bookmark.page,
                    "label": label,
                    "name": bookmark.name,
                    "chapter": chapter.title if chapter else None,
                    "created_at": bookmark.created_at,
                    "orphaned": bookmark.orphaned,
                }
            )
            continue
        name = f"  {bookmark.name}" if bookmark.name else ""
        where = f"  ({chapter.title})" if chapter else ""
        lost = "  [orphaned: its text was not found after a reindex]" if bookmark.orphaned else ""
        print(f"p. {label}{name}{where}{lost}")
    if not bookmarks and not args.json:
        print(f"{book.title} has no bookmarks yet (m in the app bookmarks a page).")
    return 0


def notes_command(args: argparse.Namespace, services: Services) -> int:
    book = services.find_book(args.book)
    pages, chapters = services.books.pages(book.id), services.books.chapters(book.id)
    from reader.app.notes.export import note_entries, notes_markdown

    entries = note_entries(book, pages, chapters, services.annotations.list(book.id))
    if args.export == "md":
        document = notes_markdown(book, entries)
        if args.output:
            args.output.write_text(document, encoding="utf-8")
            print(f"Wrote {len(entries)} highlight{'s' * (len(entries) != 1)} and notes to {args.output}.")
        else:
            print(document, end="")
        return 0
    if args.json:
        for entry in entries:
            json_line(entry.to_dict())
        return 0
    if not entries:
        print(f"{book.title} has no highlights or notes yet (v in the app selects a passage).")
        return 0
    for entry in entries:
        annotation = entry.annotation
        quote = " ".join(annotation.quote.split())
        quote = quote if len(quote) <= QUOTE_WIDTH else quote[: QUOTE_WIDTH - 1] + "…"
        where = f"orphaned (was p. {entry.label})" if annotation.orphaned else f"p. {entry.label}"
        chapter = f"  [{entry.chapter}]" if entry.chapter else ""
        print(f"{where}{chapter}  “{quote}”")
        if annotation.note:
            print(f"    {annotation.note}")
    return 0
