"""Commands that open the app: `reader`, `reader open BOOK` (and `reader demo`, via run_app)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from reader.cli.output import error_line
from reader.saved_code import use_saved_code
from reader.services import Services
from reader.startup import pause_collector


def register(commands: Any) -> None:
    p = commands.add_parser("open", help="open the app on a book (default: the last book read)")
    p.add_argument("book", nargs="?", metavar="BOOK", help="id prefix or title")
    p.set_defaults(handler=open_command)


def run_app(services: Services, book_id: str | None = None) -> int:
    """Run the app on `book_id` (None: the last book read) until the reader quits."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        error_line("The app needs a terminal; use `reader search-page BOOK PAGE` or `reader demo --print`.")
        return 2
    pause_collector()  # until the app's first screen is up (see reader.startup)
    use_saved_code()  # dataclasses' methods compiled once (see reader.saved_code)
    from reader.tui.app import ReaderApp

    ReaderApp(services, book_id=book_id).run()
    return 0


def open_command(args: argparse.Namespace, services: Services) -> int:
    book_id = services.find_book(args.book).id if args.book else None
    return run_app(services, book_id)


def default_command(args: argparse.Namespace, services: Services) -> int:
    """`reader` with no command: the app on the last book read."""
    return run_app(services)
