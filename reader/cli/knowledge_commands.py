"""Companion commands: `xray` (people, places, terms so far) and `recap` (the story so far)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from reader.app.pages.page_lookup import page_label
from reader.cli.output import ProgressLine, error_line, json_line
from reader.domain.errors import ReaderError
from reader.domain.models import Book, Page

if TYPE_CHECKING:
    from reader.domain.knowledge import ConceptDetail, ConceptEntry, Recap
    from reader.services import Services

KIND_TITLES = {"person": "People", "place": "Places", "term": "Terms"}


def register(commands: Any) -> None:
    p = commands.add_parser("xray", help="people, places and terms of a book up to your reading position")
    p.add_argument("book", metavar="BOOK", help="id prefix or title")
    p.add_argument("name", metavar="NAME", nargs="?", help="one person, place or term (fuzzy)")
    p.add_argument("--kind", choices=["person", "place", "term"], help="list only one kind")
    p.add_argument("--json", action="store_true", help="one JSON object per concept")
    p.add_argument(
        "--refine",
        action="store_true",
        help="first ask the [chat] model, chapter by chapter up to your position, to group and type names (cached)",
    )
    p.set_defaults(handler=xray_command)

    p = commands.add_parser("recap", help="the story so far, up to your reading position")
    p.add_argument("book", metavar="BOOK", help="id prefix or title")
    p.add_argument("--chapter", metavar="CHAPTER", help="summarise one chapter (number or title) instead")
    p.add_argument(
        "--offline", action="store_true", help="extractive summaries even when a [chat] model is configured"
    )
    p.add_argument("--json", action="store_true", help="the recap and its chapter summaries as JSON")
    p.set_defaults(handler=recap_command)


def _entry_dict(book: Book, entry: ConceptEntry, pages: list[Page]) -> dict[str, Any]:
    return {
        "book_id": book.id,
        "name": entry.name,
        "kind": entry.kind,
        "aliases": list(entry.aliases),
        "first_page": entry.first_page,
        "first_label": page_label(pages, entry.first_page),
        "mentions": entry.mentions,
        "pages": entry.pages,
        "last_page": entry.last_page,
    }


def _detail_dict(book: Book, detail: ConceptDetail, pages: list[Page], horizon: int) -> dict[str, Any]:
    return _entry_dict(book, detail.entry, pages) | {
        "up_to_page": horizon,
        "mentions_by_page": [
            {"page": page, "label": page_label(pages, page), "count": count}
            for page, count in detail.mentions
        ],
        "appears_with": [
            {"name": other.name, "kind": other.kind, "shared_pages": shared}
            for other, shared in detail.related
        ],
        "snippets": [{"page": s.page, "label": s.label, "text": s.text} for s in detail.snippets],
    }


def describe_detail(detail: ConceptDetail, pages: list[Page], horizon_label: str) -> list[str]:
    """A concept's X-Ray entry as lines of text."""
    entry = detail.entry
    label = page_label(pages, entry.first_page)
    lines = [
        f"{entry.name} ({entry.kind}): first met on p. {label}; {entry.mentions} mention"
        f"{'s' * (entry.mentions != 1)} on {entry.pages} page{'s' * (entry.pages != 1)} up to p. {horizon_label}."
    ]
    if entry.aliases:
        lines.append(f"Also called: {', '.join(entry.aliases)}.")
    shown = ", ".join(
        page_label(pages, page) + (f" (×{count})" if count > 1 else "") for page, count in detail.mentions
    )
    lines.append(f"Pages: {shown}.")
    if detail.related:
        lines.append(
            "Appears with: "
            + ", ".join(f"{other.name} ({shared} p.)" for other, shared in detail.related)
            + "."
        )
    for snippet in detail.snippets:
        lines.append(f"  [p. {snippet.label}] {snippet.text}")
    return lines


def refine_xray(book: Book, services: Services) -> bool:
    """Refine the book's X-Ray with the [chat] model up to the reading position; notes go to stderr.

    Returns False when the reader interrupted it (the chapters done are kept)."""
    progress = ProgressLine()

    def on_step(done: int, total: int) -> None:
        progress.update(f"Refining the X-Ray of {book.title}", done, total)

    try:
        outcome = services.refine.run(book.id, book.current_page, progress=on_step)
    except ReaderError as error:  # no model configured: the X-Ray as built
        progress.clear()
        error_line(str(error))
        return True
    except KeyboardInterrupt:
        progress.clear()
        error_line("Interrupted; the chapters refined so far are kept.")
        return False
    progress.clear()
    for note in outcome.notes:
        error_line(note)
    error_line(outcome.summary())
    return True


def xray_command(args: argparse.Namespace, services: Services) -> int:
    book = services.find_book(args.book)
    xray = services.xray
    if not xray.has_map(book.id):
        raise ReaderError(
            f"{book.title} has no concept map yet (it was imported before X-Ray existed); "
            "run `reader reindex` to build one."
        )
    if args.refine and not refine_xray(book, services):
        return 130
    pages = services.books.pages(book.id)
    horizon = book.current_page
    horizon_label = page_label(pages, horizon)
    entries = xray.entries(book.id, horizon, args.kind)
    if args.name:
        entry = xray.find(book.id, args.name, horizon, entries=xray.entries(book.id, horizon))
        if entry is None:
            raise ReaderError(
                f"No person, place or term like '{args.name}' in {book.title} up to p. {horizon_label} "
                "(your reading position)."
            )
        detail = xray.detail(book.id, entry, horizon, pages)
        if args.json:
            json_line(_detail_dict(book, detail, pages, horizon))
        else:
            print("\n".join(describe_detail(detail, pages, horizon_label)))
        return 0
    if args.json:
        for entry in entries:
            json_line(_entry_dict(book, entry, pages))
        return 0
    if not entries:
        print(f"Nobody and nothing recurring yet in {book.title} up to p. {horizon_label}.")
        return 0
    print(f"{book.title} up to p. {horizon_label} (your reading position):")
    width = min(32, max(len(e.name) for e in entries) + 2)
    for kind, title in KIND_TITLES.items():
        group = [e for e in entries if e.kind == kind]
        if not group:
            continue
        print(f"\n{title}")
        for entry in group:
            also = f"  also {', '.join(entry.aliases[:3])}" if entry.aliases else ""
            print(
                f"  {entry.name:<{width}} {entry.mentions:>4} × on {entry.pages:>3} p., "
                f"from p. {page_label(pages, entry.first_page)}{also}"
            )
    return 0


def _recap_dict(book: Book, recap: Recap, pages: list[Page]) -> dict[str, Any]:
    return {
        "book_id": book.id,
        "title": book.title,
        "up_to_page": recap.up_to_page,
        "up_to_label": page_label(pages, recap.up_to_page),
        "model": recap.model,
        "cached": recap.cached,
        "notes": list(recap.notes),
        "text": recap.text,
        "overview": recap.overview,
        "parts": [
            {
                "entry": p.entry,
                "title": p.title,
                "start_page": p.start_page,
                "end_page": p.end_page,
                "partial": p.partial,
                "summary": p.text,
            }
            for p in recap.parts
        ],
        "chapters": [
            {
                "index": s.index,
                "title": s.title,
                "parts": list(s.parts),
                "start_page": s.start_page,
                "end_page": s.end_page,
                "partial": s.partial,
                "model": s.model,
                "cached": s.cached,
                "summary": s.text,
            }
            for s in recap.sections
        ],
    }


def recap_command(args: argparse.Namespace, services: Services) -> int:
    import sys

    book = services.find_book(args.book)
    summaries = services.summaries_for(offline=args.offline)
    pages = services.books.pages(book.id)
    progress = ProgressLine()

    def on_step(done: int, total: int) -> None:
        progress.update(f"Summarising {book.title}", done, total)

    try:
        if args.chapter:
            section = summaries.chapter_summary(book.id, args.chapter, book.current_page, progress=on_step)
            progress.clear()
            for note in section.notes:
                print(f"reader: {note}", file=sys.stderr)
            if args.json:
                json_line(
                    {
                        "book_id": book.id,
                        "title": section.summary.title,
                        "start_page": section.summary.start_page,
                        "end_page": section.summary.end_page,
                        "partial": section.summary.partial,
                        "model": section.summary.model,
                        "summary": section.summary.text,
                    }
                )
            else:
                print(section.heading(pages))
                print(section.summary.text)
            return 0
        recap = summaries.story_so_far(book.id, book.current_page, progress=on_step)
    finally:
        progress.clear()
    for note in recap.notes:
        print(f"reader: {note}", file=sys.stderr)
    if args.json:
        json_line(_recap_dict(book, recap, pages))
        return 0
    print(f"The story so far: {book.title}, up to p. {page_label(pages, recap.up_to_page)}\n")
    print(recap.text)
    return 0
