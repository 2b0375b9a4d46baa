"""The floor tui_speed compares the app with: a bare Textual app showing a page of text in one Static.

Usage: python benchmarks/bare_page_app.py LIBRARY.db  (the big book tui_speed builds; q quits)

It imports nothing but the standard sqlite3 and Textual, so a start in tmux costs what any Textual
app showing that text costs.
"""

from __future__ import annotations

import sqlite3
import sys

from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

BIG_BOOK = "f" * 64


def first_page_text(db_path: str) -> str:
    """The big book's first page as the app shows it (its chunks joined)."""
    conn = sqlite3.connect(db_path)
    rows = conn.execute(
        "SELECT text FROM chunks WHERE book_id = ? AND start_page <= 1 AND end_page >= 1 ORDER BY chunk_index",
        (BIG_BOOK,),
    ).fetchall()
    conn.close()
    return "\n\n".join(row[0] for row in rows)


class BarePage(App[None]):
    BINDINGS = [("q", "quit", "Quit")]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.text, markup=False)


if __name__ == "__main__":
    BarePage(first_page_text(sys.argv[1])).run()
