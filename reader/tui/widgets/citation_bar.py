"""A row of buttons for cited pages that wraps onto more rows when the pane is narrow."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.events import Resize
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Static

from reader.tui.fit_text import cells

TITLE = "Pages:"
BUTTON_PAD = 2
"""Cells a compact button adds around its label."""


class CitationFollowed(Message):
    """The reader asked to open a cited page (`page` when known, else resolve `label`).

    `words` are the words of the answer's sentences citing it; `searches` the query of the search that
    found each page (the viewer highlights the words found on the page, else the search's)."""

    def __init__(
        self, label: str, page: int | None, words: str = "", searches: dict[int, str] | None = None
    ) -> None:
        super().__init__()
        self.label = label
        self.page = page
        self.words = words
        self.searches = searches or {}


def citation_button(label: str) -> Button:
    """A Tab-focusable button for page `label` (its name is the label)."""
    return Button(f"p. {label}", name=label, classes="citation", compact=True)


class CitationBar(Widget):
    """ "Pages:" and one button per cited page, in a grid of as many columns as the width holds.

    A pressed button's `Button.Pressed` bubbles up (its `name` is the page label).
    """

    def __init__(self, labels: Sequence[str] = (), *, id: str | None = None) -> None:
        super().__init__(id=id, classes="citations")
        self.labels = list(labels)

    def compose(self) -> ComposeResult:
        if self.labels:
            yield Static(TITLE, classes="citations-title")
            yield from (citation_button(label) for label in self.labels)

    def on_mount(self) -> None:
        self._fit(self.size.width)

    def on_resize(self, event: Resize) -> None:
        self._fit(event.size.width)

    async def set_labels(self, labels: Sequence[str]) -> None:
        """Show buttons for `labels` (none: the bar is empty and takes no room)."""
        self.labels = list(labels)
        await self.remove_children()
        if self.labels:
            await self.mount(Static(TITLE, classes="citations-title"), *map(citation_button, self.labels))
        self._fit(self.size.width)

    def _fit(self, width: int) -> None:
        if not self.labels:
            return
        column = max(cells(TITLE), *(cells(f"p. {label}") + BUTTON_PAD for label in self.labels))
        count = 1 + len(self.labels)
        self.styles.grid_columns = str(column)
        self.styles.grid_size_columns = max(1, min(count, (width + 1) // (column + 1))) if width else count
