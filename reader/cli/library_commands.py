"""Library commands: import, list, info, toc, search-page, set-page, remove, demo."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reader.app.library.book_lookup import describe
from reader.app.notes.reading_pace import TimeLeft, format_minutes
from reader.app.pages.chapter_lookup import chapter_name
from reader.app.pages.page_lookup import Place, page_label, resolve_place, story_percent
from reader.cli.output import ProgressLine, error_line, json_line
from reader.domain.models import Book, Chapter, Page, source_marker
from reader.services import SAMPLE_BOOK, Services


def register(commands: Any) -> None:
    p = commands.add_parser(
        "import", help="import books (PDF, EPUB, MOBI/AZW3, FB2, HTML, TXT, Markdown, CBZ) or folders of them"
    )
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    p.add_argument("--force", action="store_true", help="rebuild even if the file is unchanged")
    p.add_argument("--password", help="password of an encrypted PDF")
    p.add_argument(
        "--ocr",
        action="store_true",
        help="read the pages that have no text (scanned PDFs, comics, picture books) by local OCR",
    )
    p.add_argument("--json", action="store_true", help="one JSON object per file")
    p.set_defaults(handler=import_command)

    p = commands.add_parser("reindex", help="rebuild books indexed by an older reader from their files")
    p.add_argument("books", nargs="*", metavar="BOOK", help="books to rebuild (default: every outdated book)")
    p.set_defaults(handler=reindex_command)

    p = commands.add_parser("list", help="list the books in the library")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=list_command)

    p = commands.add_parser("info", help="show a book's details")
    p.add_argument("book", metavar="BOOK", help="id prefix or title")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=info_command)

    p = commands.add_parser("toc", help="show a book's table of contents")
    p.add_argument("book", metavar="BOOK")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=toc_command)

    p = commands.add_parser("search-page", help="print the full text of one page")
    p.add_argument("book", metavar="BOOK")
    p.add_argument(
        "page", metavar="PAGE", help='printed label ("iv", "57"), "#N" for an index, "45%%" or "Chapter 3"'
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=search_page_command)

    p = commands.add_parser("set-page", help="set the reading position (the spoiler horizon)")
    p.add_argument("book", metavar="BOOK")
    p.add_argument(
        "page", metavar="PAGE", help='printed label ("iv", "57"), "#N" for an index, "45%%" or "Chapter 3"'
    )
    p.set_defaults(handler=set_page_command)

    p = commands.add_parser("remove", help="remove a book and everything derived from it")
    p.add_argument("book", metavar="BOOK")
    p.add_argument("-y", "--yes", action="store_true", help="do not ask for confirmation")
    p.set_defaults(handler=remove_command)

    p = commands.add_parser("demo", help="import the bundled sample novella and open it")
    p.add_argument("--print", action="store_true", help="print page 1 instead of opening the app")
    p.set_defaults(handler=demo_command)


def book_dict(book: Book) -> dict[str, Any]:
    return {
        "id": book.id,
        "title": book.title,
        "author": book.author,
        "language": book.language,
        "format": book.format,
        "pages": book.page_count,
        "current_page": book.current_page,
        "story_start": book.story_start,
        "story_end": book.story_last,
        "progress": story_percent(book, book.current_page),
        "pagination": book.pagination,
        "source_path": book.source_path,
        "imported_at": book.imported_at,
        "last_read_at": book.last_read_at,
        "warnings": list(book.warnings),
    }


def import_command(args: argparse.Namespace, services: Services) -> int:
    importer = services.importer
    files = importer.expand(args.paths)
    if not files:
        error_line(
            f"No books found in {', '.join(map(str, args.paths))} (PDF, EPUB, MOBI/AZW3, FB2, HTML, TXT, Markdown or CBZ)."
        )
        return 1
    progress = ProgressLine()
    failed = 0
    for number, path in enumerate(files, start=1):
        prefix = f"[{number}/{len(files)}] " if len(files) > 1 else ""

        def on_page(done: int, total: int, _label: str = prefix + path.name) -> None:
            progress.update(_label, done, total)

        outcome = importer.import_file(path, force=args.force, password=args.password, progress=on_page)
        progress.clear()
        failed += not outcome.ok
        if args.json:
            json_line(
                {
                    "path": str(path),
                    "status": outcome.status,
                    "message": outcome.message,
                    "book_id": outcome.book.id if outcome.book else None,
                    "warnings": list(outcome.warnings),
                }
            )
            if outcome.stops:
                return 1
            continue
        stream = sys.stdout if outcome.ok else sys.stderr
        tag = "error: " if not outcome.ok else ""
        print(f"{prefix}{tag}{outcome.message}", file=stream)
        for warning in outcome.warnings:
            print(f"{prefix}  warning: {warning}", file=stream)
        if outcome.stops:
            if len(files) > number:
                print(f"Stopped before the other {len(files) - number} files.", file=sys.stderr)
            return 1
        if args.ocr and outcome.book is not None and services.ocr.can_read(outcome.book):
            from reader.cli.ocr_commands import run_ocr

            if run_ocr(services, outcome.book, 1, outcome.book.page_count, args.json) == 130:
                return 130
    if len(files) > 1 and not args.json:
        print(f"{len(files) - failed} of {len(files)} files imported or already present; {failed} failed.")
    return 1 if failed else 0


def reindex_command(args: argparse.Namespace, services: Services) -> int:
    books = [services.find_book(q) for q in args.books] if args.books else services.stale_books()
    if not books:
        print("Every book is indexed by this version of reader; nothing to do.")
        return 0
    failed = 0
    for book in books:
        source = Path(book.source_path)
        if not source.exists():
            error_line(f"{book.title}: its file {source} is gone; import it again from where it is now.")
            failed += 1
            continue
        outcome = services.importer.import_file(source, force=True)
        if outcome.book is not None and outcome.book.id != book.id:
            error_line(
                f"{book.title}: {source} has changed since it was imported; imported it as a new book."
            )
        print(outcome.message, file=sys.stdout if outcome.ok else sys.stderr)
        failed += not outcome.ok
    return 1 if failed else 0


def list_command(args: argparse.Namespace, services: Services) -> int:
    books = services.books.list()
    if args.json:
        for book in books:
            json_line(book_dict(book))
        return 0
    if not books:
        print("The library is empty. Import a book with `reader import PATH`, or try `reader demo`.")
        return 0
    for book in books:
        progress = story_percent(book, book.current_page)
        author = f" — {book.author}" if book.author else ""
        pages = f"{book.page_count} page{'s' * (book.page_count != 1)}"
        print(f"{book.short_id}  {book.title}{author}  ({pages}, at {progress}%)")
    if stale := services.stale_books():
        count = f"{len(stale)} book{'s were' if len(stale) != 1 else ' was'}"
        print(
            f"{count} indexed by an older reader; `reader reindex` brings them up to date "
            "(your position, marks, notes, conversations and OCR text stay)."
        )
    return 0


def info_command(args: argparse.Namespace, services: Services) -> int:
    book = services.find_book(args.book)
    pages = services.books.pages(book.id)
    data = book_dict(book)
    data["current_label"] = page_label(pages, book.current_page)
    data["chapters"] = len(services.books.chapters(book.id))
    data["chunks"] = services.chunks.count(book.id)
    data["figure_pages"] = [p.label for p in pages if p.has_figures]
    data["picture_pages"] = len(services.images.pages_with_pictures(book.id))
    data["encoding"] = book.encoding
    data["cover"] = services.images.cover(book.id) is not None
    data["illustrated_pages"] = len(services.images.pages_with_images(book.id))
    status = services.enrichments.status(book.id)
    data["enriched"] = {
        "pages": status.done,
        "of": status.total,
        "failed": status.failed,
        "model": status.model,
    }
    left, wpm = book_time_left(book, services)
    data["time_left"] = {
        "chapter_minutes": None if left.chapter_minutes is None else round(left.chapter_minutes, 1),
        "book_minutes": round(left.book_minutes, 1),
        "words_per_minute": round(wpm),
    }
    if args.json:
        json_line(data)
        return 0
    print_book_details(book, services)
    return 0


def print_book_details(book: Book, services: Services) -> None:
    pages = services.books.pages(book.id)
    labels = f"{pages[0].label}-{pages[-1].label}" if pages else "-"
    print(f"{book.title}")
    if book.author:
        print(f"  by {book.author}")
    print(f"  id        {book.id}")
    print(f"  format    {book.format} ({book.pagination} pages), language {book.language or 'unknown'}")
    print(f"  pages     {book.page_count} (labels {labels})")
    if book.encoding:
        print(f"  encoding  {book.encoding}")
    print(f"  chapters  {len(services.books.chapters(book.id))}")
    print(
        f"  position  page {page_label(pages, book.current_page)} (#{book.current_page} of {book.page_count}), "
        f"{story_percent(book, book.current_page)}% of the story"
        + (f" ({matter} matter)" if (matter := book.matter_at(book.current_page)) else "")
    )
    if book.story_pages != range(1, book.page_count + 1):
        print(f"  story     pages {story_span(book, pages)}; {matter_span(book, pages)}")
    left, wpm = book_time_left(book, services)
    in_chapter = (
        f"{format_minutes(left.chapter_minutes)} in the chapter, " if left.chapter_minutes is not None else ""
    )
    print(
        f"  time left {in_chapter}{format_minutes(left.book_minutes)} in the book (at {round(wpm)} words a minute)"
    )
    pictures = len(services.images.pages_with_pictures(book.id))
    figures = [p.label for p in pages if p.has_figures]
    if figures and not pictures:
        shown = ", ".join(figures[:8]) + (", ..." if len(figures) > 8 else "")
        count = f"{len(figures)} page{'s' if len(figures) != 1 else ''}"
        print(f"  figures   {count}: {'pp.' if len(figures) > 1 else 'p.'} {shown}")
    status = services.enrichments.status(book.id)
    if status.done or status.failed:
        failed = f", {status.failed} failed" if status.failed else ""
        print(f"  enriched  {status.done} of {status.total} pages with {status.model or '-'}{failed}")
    cover = "yes" if services.images.cover(book.id) is not None else "none"
    if pictures:
        ocr = sum(1 for p in pages if p.text_source)
        shown = f"{pictures} pages are pictures kept in the library; {ocr} pages have text from OCR"
    else:
        pictured = len(services.images.pages_with_images(book.id))
        shown = f"{pictured} page{'s' * (pictured != 1)} with pictures"
    print(f"  pictures  cover {cover}; {shown}")
    print(f"  file      {book.source_path}")
    for warning in book.warnings:
        print(f"  warning   {warning}")


def book_time_left(book: Book, services: Services) -> tuple[TimeLeft, float]:
    """Time left from the reading position at the reader's own pace, and that pace."""
    reading = services.reading_time
    wpm = reading.pace().wpm
    left = reading.time_left(
        book, services.books.chapters(book.id), reading.page_words(book), book.current_page, wpm
    )
    return left, wpm


def story_span(book: Book, pages: Sequence[Page]) -> str:
    """The story's pages as labels, e.g. "1-230"."""
    return f"{page_label(pages, book.story_start)}-{page_label(pages, book.story_last)}"


def matter_span(book: Book, pages: Sequence[Page]) -> str:
    """Where the front and back matter are, e.g. "front matter 1-3, back matter 231-240"."""
    parts = []
    if book.story_start > 1:
        parts.append(f"front matter {page_label(pages, 1)}-{page_label(pages, book.story_start - 1)}")
    if book.story_last < book.page_count:
        parts.append(
            f"back matter {page_label(pages, book.story_last + 1)}-{page_label(pages, book.page_count)}"
        )
    return ", ".join(parts)


def toc_command(args: argparse.Namespace, services: Services) -> int:
    book = services.find_book(args.book)
    pages = services.books.pages(book.id)
    chapters = services.books.chapters(book.id)
    for chapter in chapters:
        start, end = page_label(pages, chapter.start_page), page_label(pages, chapter.end_page)
        if args.json:
            json_line(
                {
                    "index": chapter.index,
                    "title": chapter.title,
                    "level": chapter.level,
                    "start_page": chapter.start_page,
                    "end_page": chapter.end_page,
                    "start_label": start,
                    "end_label": end,
                    "matter": book.matter_at(chapter.start_page),
                }
            )
        else:
            matter = f"  ({where} matter)" if (where := book.matter_at(chapter.start_page)) else ""
            print(f"{'  ' * chapter.level}{chapter.title} .... {start}{matter}")
    if not chapters and not args.json:
        print(f"{book.title} has no table of contents.")
    return 0


def typed_place(book: Book, pages: Sequence[Page], chapters: Sequence[Chapter], typed: str) -> Place:
    """The page (and chapter) a typed PAGE names: a label, "#N", "45%" or a chapter ("Chapter 3"),
    preferring the part of the reading position when chapter numbers restart in each part."""
    return resolve_place(
        typed, pages, chapters, allow_chapters=True, story=book.story_pages, current_page=book.current_page
    )


def search_page_command(args: argparse.Namespace, services: Services) -> int:
    book = services.find_book(args.book)
    pages = services.books.pages(book.id)
    number = typed_place(book, pages, services.books.chapters(book.id), args.page).number
    page = services.pages.page_text(book, number)
    source = next((p.text_source for p in pages if p.number == number), "")
    if args.json:
        json_line(
            {
                "book_id": book.id,
                "page": page.number,
                "label": page.label,
                "chapter": page.chapter.title if page.chapter else None,
                "matter": page.matter,
                "text": page.text,
                "text_source": source or None,
            }
        )
    else:
        if source:  # on stderr: the page's text alone stays on stdout
            print(f"[p. {page.label}: {source_marker(source)}]", file=sys.stderr)
        print(page.text)
    return 0


def set_page_command(args: argparse.Namespace, services: Services) -> int:
    book = services.find_book(args.book)
    pages = services.books.pages(book.id)
    chapters = services.books.chapters(book.id)
    number, choice = typed_place(book, pages, chapters, args.page)
    services.books.set_current_page(book.id, number)
    matter = f", {where} matter" if (where := book.matter_at(number)) else ""
    named = f", {chapter_name(chapters, chapters.index(choice.chapter))}" if choice else ""
    print(
        f"{book.title}: reading position set to page {page_label(pages, number)} (#{number} of {book.page_count}"
        f"{matter}){named}, {story_percent(book, number)}% of the story."
    )
    if choice is not None and choice.note:
        error_line(choice.note)
    return 0


def remove_command(args: argparse.Namespace, services: Services) -> int:
    book = services.find_book(args.book)
    marks = services.annotations.counts(book.id)
    going = f"its conversations and its {marks.phrase}" if marks else "its conversations"
    if not args.yes:
        if not sys.stdin.isatty():
            error_line(f"Removing {describe(book)} (with {going}) needs confirmation; add --yes.")
            return 1
        answer = input(f"Remove {describe(book)} with {going}? [y/N] ").strip().lower()
        if answer not in {"y", "yes"}:
            print("Kept.")
            return 1
    services.books.remove(book.id)
    print(f"Removed {book.title} with {going}. Importing the file again brings the book back, not those.")
    return 0


def import_sample(services: Services) -> Book:
    """Import the bundled sample novella (a no-op when it is already there)."""
    outcome = services.importer.import_file(SAMPLE_BOOK)
    if not outcome.ok or outcome.book is None:
        from reader.domain.errors import ReaderError

        raise ReaderError(f"Could not import the sample book: {outcome.message}")
    return outcome.book


def demo_command(args: argparse.Namespace, services: Services) -> int:
    book = import_sample(services)
    if not args.print:
        from reader.cli.app_commands import run_app

        return run_app(services, book.id)
    print_book_details(book, services)
    print()
    print(services.pages.page_text(book, 1).text)
    return 0
