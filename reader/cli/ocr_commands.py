"""`reader ocr`: read the pages that have no text (a scanned PDF's, a comic's) with local OCR."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from reader.app.pages.page_lookup import parse_page_range, resolve_page
from reader.cli.output import ProgressLine, json_line
from reader.cli.page_text_vectors import embed_new_text, was_embedded
from reader.domain.errors import ReaderError
from reader.domain.models import Book, Page

if TYPE_CHECKING:
    from reader.app.library.ocr_pages import OcrOutcome, OcrPage
    from reader.services import Services


def register(commands: Any) -> None:
    p = commands.add_parser("ocr", help="read the pages that have no text (scanned PDFs, comics, picture books) with local OCR")
    p.add_argument("book", metavar="BOOK", help="id prefix or title")
    p.add_argument("--pages", metavar="A-B", help='a range of printed labels, e.g. "5-20", "30-"')
    p.add_argument("--json", action="store_true", help="one JSON object per page read, then a summary")
    p.set_defaults(handler=ocr_command)


def ocr_command(args: argparse.Namespace, services: Services) -> int:
    book = services.find_book(args.book)
    pages = services.books.pages(book.id)

    def resolve(text: str, pages: Sequence[Page]) -> int:
        return resolve_page(text, pages, story=book.story_pages)

    start, end = parse_page_range(args.pages, pages, resolve) if args.pages else (1, book.page_count)
    return run_ocr(services, book, start, end, args.json)


def run_ocr(services: Services, book: Book, start: int, end: int, as_json: bool = False) -> int:
    """OCR a book's blank pages in start..end with progress and a count; 130 when interrupted."""
    progress = ProgressLine()
    label = f"OCR {book.title}"
    seen = [0, 0]

    def on_progress(done: int, total: int) -> None:
        seen[:] = [done, total]
        progress.update(label, done, total)

    def on_page(page: OcrPage) -> None:
        if as_json:
            json_line({"page": page.number, "label": page.label, "status": page.status, "chars": page.chars})
        elif not progress.enabled:
            print(f"[{seen[0] + 1}/{seen[1]}] p. {page.label} {page.status}", file=sys.stderr)

    embedded = was_embedded(services, book.id)
    try:
        outcome = services.ocr.ocr_book(book.id, start, end, progress=on_progress, on_page=on_page)
    except KeyboardInterrupt:
        progress.clear()
        print(
            f"Interrupted after {seen[0]} of {seen[1]} pages; the pages read are kept and indexed. Run the "
            "same command again to go on.",
            file=sys.stderr,
        )
        return 130
    except ReaderError:
        progress.clear()
        raise
    progress.clear()
    embed_new_text(services, book.id, embedded, outcome.read)  # vectors for the recognised pages
    if as_json:
        json_line(summary(outcome))
    else:
        print(sentence(outcome))
    return 0


def summary(outcome: OcrOutcome) -> dict[str, Any]:
    return {
        "book_id": outcome.book.id,
        "pages": outcome.end - outcome.start + 1,
        "without_text": outcome.candidates,
        "read": outcome.read,
        "empty": outcome.empty,
        "no_image": outcome.no_image,
        "already_done": outcome.skipped,
    }


def sentence(outcome: OcrOutcome) -> str:
    """One line: how many pages OCR read, and what else it found."""
    title = outcome.book.title
    if not outcome.candidates:
        return f"{title}: every page has a text layer; nothing to read by OCR."
    parts = [f"{outcome.skipped} already done"] if outcome.skipped else []
    if outcome.empty:
        parts.append(f"{outcome.empty} with no text found")
    if outcome.no_image:
        parts.append(f"{outcome.no_image} with no image to read")
    rest = f" ({'; '.join(parts)})" if parts else ""
    return f"{title}: read {outcome.read} of {outcome.candidates} pages without a text layer by OCR{rest}."
