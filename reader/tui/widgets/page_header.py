"""The line above the page: title and chapter on the left, page label, index and percent on the right."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Static

from reader.tui.reading_session import ShownPage

FIGURE_MARKER = "▣ figures"
"""Shown in the header on a page whose meaning is largely in its figures (visual importance 3-5)."""


def position_text(page: ShownPage) -> str:
    """E.g. "p. 57 · 63 of 300 · 21%", plus the reading position when re-reading earlier pages and a
    marker on a page with figures."""
    text = f"p. {page.label} · {page.number} of {page.page_count} · {page.percent}%"
    if page.horizon > page.number:
        text += f" · read to p. {page.horizon_label}"
    if page.has_figures:
        text = f"{FIGURE_MARKER} · {text}"
    return text


class PageHeader(Horizontal):
    """Title, chapter and position of the page on screen."""

    def compose(self) -> ComposeResult:
        yield Static("", id="page-title", markup=False)
        yield Static("", id="page-position", markup=False)

    def show(self, page: ShownPage) -> None:
        """Describe `page`."""
        title = Content.styled(page.book.title, "bold")
        if page.chapter is not None:
            title = Content.assemble(title, (" — ", "$text-muted"), page.chapter.title)
        self.query_one("#page-title", Static).update(title)
        self.query_one("#page-position", Static).update(position_text(page))

    def clear(self, message: str) -> None:
        """Show `message` instead of a page."""
        self.query_one("#page-title", Static).update(message)
        self.query_one("#page-position", Static).update("")
