"""Entry point: parses arguments, opens the library and runs one command; errors are one line."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from reader import __version__
from reader.cli.output import error_line
from reader.domain.errors import ReaderError
from reader.saved_code import use_saved_code
from reader.startup import pause_collector, resume_collector

COMMAND_MODULES = {
    "library_commands": (
        "import",
        "reindex",
        "list",
        "info",
        "toc",
        "search-page",
        "set-page",
        "remove",
        "demo",
    ),
    "search_commands": ("search", "embed"),
    "chat_commands": ("ask", "chat"),
    "knowledge_commands": ("xray", "recap"),
    "enrich_commands": ("enrich",),
    "ocr_commands": ("ocr",),
    "notes_commands": ("bookmarks", "notes"),
    "stats_commands": ("stats",),
    "library_file_commands": ("backup", "check"),
    "app_commands": ("open",),
}
"""The modules of reader.cli and the commands each registers, in the order `reader --help` lists them.

A command's module is imported only when that command runs (`reader open` does not load the chat,
the enrichment schema or OCR: measured 218 ms of imports before, 63 ms after); help and unknown
commands load them all. tests/test_cli_app.py checks the table against what the modules register."""

DEFAULT_COMMAND_MODULE = "app_commands"
"""Where `default_command` lives: what `reader` alone runs (the app on the last book read)."""


def command_module(name: str) -> ModuleType:
    return importlib.import_module(f"reader.cli.{name}")


def modules_for(argv: Sequence[str]) -> list[str]:
    """The command modules to load for these arguments: the named command's, or all of them."""
    words = [word for word in argv if not word.startswith("-")]
    if "--db" in argv and argv.index("--db") + 1 < len(argv):
        words = [word for word in words if word != argv[argv.index("--db") + 1]]
    if not words:
        help_asked = any(word in ("-h", "--help") for word in argv)
        return list(COMMAND_MODULES) if help_asked else [DEFAULT_COMMAND_MODULE]
    owner = next((module for module, names in COMMAND_MODULES.items() if words[0] in names), None)
    return [owner] if owner else list(COMMAND_MODULES)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser with every command, or (given the arguments) with the one command they name."""
    parser = argparse.ArgumentParser(
        prog="reader",
        description="A terminal reading companion: read books and ask about them without spoilers.",
    )
    parser.add_argument("--version", action="version", version=f"reader {__version__}")
    parser.add_argument("--db", metavar="PATH", help="library file (default: READER_DB or the user data dir)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES if argv is None else modules_for(argv):
        command_module(name).register(commands)
    return parser


def run() -> int:
    """The `reader` program: `main` with the collector paused during start-up (see reader.startup)."""
    pause_collector()
    use_saved_code()
    return main(startup=True)


def main(argv: Sequence[str] | None = None, *, startup: bool = False) -> int:
    """Run one command; `startup` when this process is the `reader` program (not a caller in Python)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        handler = command_module(DEFAULT_COMMAND_MODULE).default_command
    try:
        from reader.services import Services

        services = Services.open(args.db)
    except ReaderError as error:
        error_line(str(error))
        return 2
    except Exception as error:  # noqa: BLE001 - the library file itself is unusable
        error_line(f"Cannot open the library file: {error}. Check --db / READER_DB.")
        return 2
    if startup:
        resume_collector()  # paused by run() (see reader.startup)
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
    except Exception as error:
        translated = services.storage_error(error)  # the library file itself failed: one line
        if translated is None:
            raise
        error_line(str(translated))
        return 1
    finally:
        services.close()


if __name__ == "__main__":
    sys.exit(main())
