"""`reader enrich`: the chat model describes each page (summary, sections, figures) as strict JSON."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from reader.app.pages.page_lookup import page_label, parse_page_range, resolve_page
from reader.cli.output import ProgressLine, json_line
from reader.cli.page_text_vectors import embed_new_text, was_embedded
from reader.domain.errors import ReaderError
from reader.domain.models import Page

if TYPE_CHECKING:
    from reader.app.pages.enrich_pages import PageResult
    from reader.services import Services


def register(commands: Any) -> None:
    p = commands.add_parser(
        "enrich",
        help="have the chat model describe each page (summary, sections, figures) for search and the chat",
    )
    p.add_argument("book", metavar="BOOK", help="id prefix or title")
    p.add_argument("--pages", metavar="A-B", help='a range of printed labels, e.g. "5-12", "iv-20", "30-"')
    p.add_argument(
        "--failures", action="store_true", help="list the pages the model failed on instead of enriching"
    )
    p.add_argument("--json", action="store_true", help="one JSON object per page handled, then a summary")
    p.set_defaults(handler=enrich_command)


def enrich_command(args: argparse.Namespace, services: Services) -> int:
    book = services.find_book(args.book)
    if args.failures:
        return _show_failures(services, book.id, args.json)
    pages = services.books.pages(book.id)
    story = book.story_pages

    def resolve(text: str, pages: Sequence[Page]) -> int:
        return resolve_page(text, pages, story=story)

    start, end = parse_page_range(args.pages, pages, resolve) if args.pages else (1, book.page_count)
    enrich = services.enrich
    progress = ProgressLine()
    total = end - start + 1
    seen = [0]
    label = f"Enriching {book.title}"

    def on_progress(done: int, count: int) -> None:
        seen[0] = done
        progress.update(label, done, count)

    def on_page(result: PageResult) -> None:
        if args.json:
            json_line(
                {
                    "page": result.number,
                    "label": result.label,
                    "status": result.status,
                    "error": result.error,
                    "transcribed": result.transcribed,
                }
            )
            return
        if progress.enabled and result.status != "failed":
            return
        progress.clear()
        what = f"failed: {result.error}" if result.status == "failed" else result.status
        print(f"[{seen[0] + 1}/{total}] p. {result.label} {what}", file=sys.stderr)

    embedded = was_embedded(services, book.id)
    try:
        outcome = enrich.enrich_book(book.id, start, end, progress=on_progress, on_page=on_page)
    except KeyboardInterrupt:
        progress.clear()
        print(
            f"Interrupted after {seen[0]} of {total} pages; the pages done are kept. Run the same command "
            "again to go on.",
            file=sys.stderr,
        )
        return 130
    except ReaderError:
        progress.clear()
        if seen[0]:
            print(
                f"reader: stopped after {seen[0]} of {total} pages; the pages done are kept.", file=sys.stderr
            )
        raise
    progress.clear()
    embed_new_text(services, book.id, embedded, outcome.transcribed)  # vectors for transcribed pages
    failed = ", ".join(f.label for f in outcome.failures[:10]) + (
        ", ..." if len(outcome.failures) > 10 else ""
    )
    if args.json:
        json_line(
            {
                "book_id": book.id,
                "model": outcome.model,
                "pages": outcome.total,
                "enriched": outcome.enriched,
                "already_done": outcome.skipped,
                "blank": outcome.blank,
                "transcribed": outcome.transcribed,
                "failed": [f.number for f in outcome.failures],
            }
        )
    else:
        span = (
            ""
            if (start, end) == (1, book.page_count)
            else f" ({page_label(pages, start)}-{page_label(pages, end)})"
        )
        parts = [f"{outcome.skipped} already done"] if outcome.skipped else []
        if outcome.transcribed:
            parts.append(f"{outcome.transcribed} without a text layer transcribed")
        if outcome.blank:
            parts.append(f"{outcome.blank} blank")
        if outcome.failures:
            parts.append(f"{len(outcome.failures)} failed: p. {failed}")
        extra = f" ({'; '.join(parts)})" if parts else ""
        print(
            f"{book.title}: enriched {outcome.enriched} of {outcome.total} pages{span} with {outcome.model}{extra}."
        )
        if outcome.failures:
            print(
                f"  The failed pages' replies are logged: `reader enrich {book.short_id} --failures`; "
                "run again to retry them."
            )
    return 1 if outcome.failures else 0


def _show_failures(services: Services, book_id: str, as_json: bool) -> int:
    book = services.books.get(book_id)
    assert book is not None
    pages = services.books.pages(book_id)
    failures = services.enrichments.failures(book_id)
    if not failures and not as_json:
        print(f"{book.title}: no enrichment failures logged.")
    for failure in failures:
        # a reply about a later page could give the story away: shown only up to the reading position
        visible = failure.page <= book.current_page
        raw = failure.raw_output if visible else None
        label = page_label(pages, failure.page)
        if as_json:
            json_line(
                {
                    "page": failure.page,
                    "label": label,
                    "model": failure.model,
                    "error": failure.error,
                    "raw_output": raw,
                    "at": failure.created_at,
                }
            )
            continue
        print(f"p. {label} ({failure.model}, {failure.created_at}): {failure.error}")
        if raw is None:
            print("    (the reply is hidden: this page is past your reading position)")
        else:
            shown = raw if len(raw) <= 2000 else raw[:2000] + " …"
            print("\n".join(f"    {line}" for line in (shown or "(empty reply)").splitlines()))
    return 0
