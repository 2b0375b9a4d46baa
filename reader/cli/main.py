"""Entry point: parses arguments, opens the library and runs one command; errors are one line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from reader import __version__
from reader.cli import (
    app_commands,
    chat_commands,
    enrich_commands,
    knowledge_commands,
    library_commands,
    notes_commands,
    ocr_commands,
    search_commands,
    stats_commands,
)
from reader.cli.output import error_line
from reader.domain.errors import ReaderError
from reader.startup import resume_collector

COMMAND_MODULES = [
    library_commands,
    search_commands,
    chat_commands,
    knowledge_commands,
    enrich_commands,
    ocr_commands,
    notes_commands,
    stats_commands,
    app_commands,
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reader",
        description="A terminal reading companion: read books and ask about them without spoilers.",
    )
    parser.add_argument("--version", action="version", version=f"reader {__version__}")
    parser.add_argument("--db", metavar="PATH", help="library file (default: READER_DB or the user data dir)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMAND_MODULES:
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        default = next((m.default_command for m in COMMAND_MODULES if hasattr(m, "default_command")), None)
        if default is None:
            parser.print_help()
            return 0
        handler = default
    try:
        from reader.services import Services

        services = Services.open(args.db)
    except ReaderError as error:
        error_line(str(error))
        return 2
    except Exception as error:  # noqa: BLE001 - the library file itself is unusable
        error_line(f"Cannot open the library file: {error}. Check --db / READER_DB.")
        return 2
    resume_collector()  # paused on import of reader.cli (see reader.startup)
    try:
        return int(handler(args, services) or 0)
    except ReaderError as error:
        error_line(str(error))
        return 1
    except KeyboardInterrupt:
        error_line("Interrupted; nothing half-written was kept.")
        return 130
    except BrokenPipeError:
        return 0
    finally:
        services.close()


if __name__ == "__main__":
    sys.exit(main())
