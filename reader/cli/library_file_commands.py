"""The library file itself: `reader backup [FILE]` and `reader check [--repair]`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from reader.cli.output import json_line
from reader.services import Services


def register(commands: Any) -> None:
    p = commands.add_parser(
        "backup", help="copy the library file consistently, even while the app or an import writes to it"
    )
    p.add_argument(
        "file",
        nargs="?",
        type=Path,
        metavar="FILE",
        help="where to write the copy (a file or a folder; "
        "default: a dated file in the backups folder beside the library)",
    )
    p.add_argument("--json", action="store_true", help="the copy's path, size and time as JSON")
    p.set_defaults(handler=backup_command)

    p = commands.add_parser(
        "check", help="check the library file: integrity, orphaned rows, search indexes and vectors in step"
    )
    p.add_argument(
        "--repair",
        action="store_true",
        help="rebuild what is derived from the books' pages (never your positions, marks, notes or chats)",
    )
    p.add_argument("--json", action="store_true", help="the findings as JSON")
    p.set_defaults(handler=check_command)


def _megabytes(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB"


def backup_command(args: argparse.Namespace, services: Services) -> int:
    result = services.backup(args.file)
    if args.json:
        json_line({"path": str(result.path), "bytes": result.size, "seconds": round(result.seconds, 3)})
    else:
        print(f"Copied the library to {result.path} ({_megabytes(result.size)}, {result.seconds:.1f} s).")
    return 0


def check_command(args: argparse.Namespace, services: Services) -> int:
    report = services.check_library(repair=args.repair)
    if args.json:
        json_line(
            {
                "ok": report.ok,
                "books": report.books,
                "findings": [
                    {"problem": f.problem, "repair": f.repair, "repaired": f.repaired}
                    for f in report.findings
                ],
                "kept": report.kept,
            }
        )
        return 0 if report.ok else 1
    library = services.db.path
    for finding in report.findings:
        if finding.repaired:
            print(f"repaired: {finding.problem} ({finding.repair}).")
        else:
            how = f" `reader check --repair` will {finding.repair}." if finding.repair else ""
            print(f"problem: {finding.problem}.{how}", file=sys.stderr)
    for note in report.kept:
        print(f"note: {note}.")
    books = f"{report.books} book{'s' * (report.books != 1)}"
    if not report.findings:
        print(f"The library is sound ({library}, {books}): integrity, search indexes and vectors in step.")
        return 0
    if report.ok:
        print(f"The library is sound again ({library}, {books}); your own data was not touched.")
        return 0
    if any(not f.repair for f in report.findings):
        copies = services.latest_backups()
        restore = (
            f"the newest copy is {copies[0]}: close reader and put it in place of {library}"
            if copies
            else "there is no copy in the backups folder; `reader backup` makes one"
        )
        print(
            f"Some problems cannot be repaired here: import the books named again, or restore a copy ({restore}).",
            file=sys.stderr,
        )
    return 1
