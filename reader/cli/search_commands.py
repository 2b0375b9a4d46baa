"""Commands: search a book (or every book) up to the reading position, and embed books for semantic search."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from reader.app.search.snippets import make_snippet
from reader.cli.output import ProgressLine, json_line
from reader.domain.errors import ReaderError
from reader.domain.models import Book
from reader.domain.search import SearchResult

if TYPE_CHECKING:
    from reader.app.search.search_books import SearchResponse
    from reader.services import Services

SNIPPET_WIDTH = 200


def register(commands: Any) -> None:
    p = commands.add_parser("search", help="search a book's pages up to your reading position")
    p.add_argument("book", metavar="BOOK", nargs="?", help="id prefix or title (omit with --all-books)")
    p.add_argument("query", metavar="QUERY")
    p.add_argument("--k", type=int, default=5, metavar="N", help="how many passages (default 5)")
    p.add_argument(
        "--mode",
        choices=["auto", "lexical", "semantic", "hybrid"],
        default="auto",
        help="auto: hybrid when the book is embedded with the configured model, else lexical",
    )
    p.add_argument("--all-books", action="store_true", help="search every book, each up to its own page")
    p.add_argument(
        "--matter",
        action="store_true",
        help="search front and back matter too (a publisher's header, contents, a licence); default: the story",
    )
    p.add_argument("--json", action="store_true", help="one JSON object per result")
    p.set_defaults(handler=search_command)

    p = commands.add_parser("embed", help="embed books for semantic search ([embeddings] model)")
    p.add_argument("books", nargs="*", metavar="BOOK")
    p.add_argument("--all", action="store_true", help="every book in the library")
    p.add_argument("--json", action="store_true", help="one JSON object per book")
    p.set_defaults(handler=embed_command)


def highlighted(passage: str, query: str, color: bool) -> str:
    """The passage's snippet, its query words in bold yellow on a terminal."""
    piece = make_snippet(passage, query, SNIPPET_WIDTH)
    if not color:
        return piece.text
    out, last = [], 0
    for begin, end in piece.spans:
        out += [piece.text[last:begin], "\x1b[1;33m", piece.text[begin:end], "\x1b[0m"]
        last = end
    return "".join(out) + piece.text[last:]


def _result_dict(book: Book, response: SearchResponse, result: SearchResult) -> dict[str, Any]:
    return {
        "book_id": book.id,
        "title": book.title,
        "chunk_id": result.chunk_id,
        "start_page": result.start_page,
        "end_page": result.end_page,
        "start_label": result.start_label,
        "end_label": result.end_label,
        "score": round(result.score, 6),
        "mode": response.mode,
        "correction": response.correction or None,
        "retrievers": list(result.retrievers),
        "matter": book.matter_at(result.start_page),
        "text": result.content,
    }


def fetch_progress(services: Services) -> ProgressLine:
    """A progress line for the in-process embedding model's first fetch (the CLI's only wait on it)."""
    line = ProgressLine()
    services.download_progress = lambda name, done, total: line.update(f"Fetching the model ({name})", done, total)
    return line


def search_command(args: argparse.Namespace, services: Services) -> int:
    fetching = fetch_progress(services)
    if args.mode != "lexical":
        services.warm_embedder()  # the model loads while the book is found and searched by its words
    search = services.search
    if args.k < 1:
        raise ReaderError("--k must be at least 1.")
    if args.all_books:
        if args.book is not None:
            raise ReaderError("Give either BOOK or --all-books, not both.")
        found = search.search_all_books(args.query, args.k, args.mode, matter=args.matter)
        if not services.books.list():
            raise ReaderError("The library is empty; import a book with `reader import PATH`.")
    else:
        if args.book is None:
            raise ReaderError('Name a book (`reader search BOOK "query"`) or use --all-books.')
        book = services.find_book(args.book)
        response = search.search(
            book.id, args.query, book.current_page, args.k, args.mode, matter=args.matter
        )
        found = [(book, response)]
    fetching.clear()
    color = sys.stdout.isatty()
    shown = 0
    for book, response in found:
        for warning in response.warnings:
            print(f"reader: {warning}", file=sys.stderr)
        if response.correction:
            print(
                f"reader: nothing matched '{clipped(args.query)}'; searched for "
                f"'{clipped(response.correction)}'.",
                file=sys.stderr,
            )
        for result in response.results:
            shown += 1
            if args.json:
                json_line(_result_dict(book, response, result))
                continue
            where = f"{book.title}, {result.page_citation}" if args.all_books else result.page_citation
            matter = f", {kind} matter" if (kind := book.matter_at(result.start_page)) else ""
            print(f"[{where}]  ({response.mode}, score {result.score:.3f}{matter})")
            start = max(0, min((s for s, _ in result.answer_spans), default=0) - SNIPPET_WIDTH // 4)
            start = result.content.find(" ", start) + 1 if start else 0
            print(f"    {highlighted(result.content[start:], response.correction or args.query, color)}")
    if not shown and not args.json:
        horizon = (
            "each book's reading position"
            if args.all_books
            else f"p. {_label(services, found[0][0])} (your reading position)"
        )
        print(f"No passages up to {horizon} match '{clipped(args.query)}'.")
        searched = services.books.list() if args.all_books else [book for book, _ in found]
        if not args.matter and any(b.story_pages != range(1, b.page_count + 1) for b in searched):
            print(
                "Front and back matter (a publisher's header, a licence) were left out; --matter searches them."
            )
    return 0


def clipped(text: str, limit: int = 80) -> str:
    """A query as it is echoed back: on one line, at most `limit` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _label(services: Services, book: Book) -> str:
    pages = services.books.pages(book.id)
    return (
        pages[book.current_page - 1].label if 0 < book.current_page <= len(pages) else str(book.current_page)
    )


def embed_command(args: argparse.Namespace, services: Services) -> int:
    if args.all == bool(args.books):
        raise ReaderError("Name the books to embed, or use --all.")
    fetching = fetch_progress(services)
    embed = services.embed_use_case
    embed.require_provider()
    books = services.books.list() if args.all else [services.find_book(query) for query in args.books]
    if not books:
        raise ReaderError("The library is empty; import a book with `reader import PATH`.")
    progress = ProgressLine()
    failures = 0
    for book in books:

        def on_step(done: int, total: int, _label: str = f"Embedding {book.title}") -> None:
            progress.update(_label, done, total)

        try:
            outcome = embed.embed_book(book.id, progress=on_step)
        except ReaderError as error:
            fetching.clear()
            progress.clear()
            if not args.all:
                raise
            failures += 1
            print(f"reader: {book.title}: {error}", file=sys.stderr)
            continue
        progress.clear()
        model = outcome.space.model if outcome.space else "-"
        if args.json:
            json_line(
                {
                    "book_id": book.id,
                    "title": book.title,
                    "model": model,
                    "dimension": outcome.space.dimension if outcome.space else None,
                    "embedded": outcome.embedded,
                    "total": outcome.total,
                    "other_models": list(outcome.other_models),
                }
            )
        elif outcome.already_done:
            print(f"{book.title}: already embedded with {model} ({outcome.total} passages).")
        else:
            size = f", {outcome.space.dimension} dimensions" if outcome.space else ""
            print(
                f"{book.title}: embedded {outcome.embedded} of {outcome.total} passages with {model}{size}."
            )
        if outcome.other_models:
            print(
                f"  also has vectors from {', '.join(outcome.other_models)} (not used while {model} is configured)."
            )
    return 1 if failures else 0
