"""The story so far: a recap of the book up to the reading position; its citations open pages (click
one, or Tab to the page buttons below the recap)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, LoadingIndicator, Markdown
from textual.worker import Worker

from reader.domain.errors import ReaderError
from reader.domain.knowledge import Recap
from reader.tui.citations import citation_labels, label_from_href, linkify_citations
from reader.tui.widgets.citation_bar import CitationBar
from reader.tui.worker_failures import forward_failure

RecapLoader = Callable[[], Recap]
"""Runs in a worker: the recap up to the reader's page (may call the model)."""

FIRST_CHARS = 4_000
"""Markdown shown at once (more than a screenful); the rest is appended a piece at a time after the first
paint. Measured on War and Peace at 60% (142,000 characters, 430 blocks): Textual's Markdown took 2.3 s on
the UI thread to show it whole, 0.2 s for the first 5,000 characters."""
PIECE_CHARS = 8_000
RECENT_CITATIONS = 24
"""Page buttons under the recap: the pages cited last (the whole recap of a long book cites hundreds)."""


def markdown_pieces(text: str, first: int = FIRST_CHARS, rest: int = PIECE_CHARS) -> list[str]:
    """`text` cut between blocks (at blank lines) into a first piece of about `first` characters and
    pieces of about `rest` after it; joined, they are `text`."""
    pieces: list[str] = []
    start, size = 0, first
    while len(text) - start > size:
        cut = text.find("\n\n", start + size)
        if cut < 0:
            break
        pieces.append(text[start : cut + 2])
        start, size = cut + 2, rest
    pieces.append(text[start:])
    return pieces


def recent_citations(labels: list[str], count: int = RECENT_CITATIONS) -> list[str]:
    """The last `count` distinct labels cited, in the order they are cited."""
    return labels[-count:]


def recap_body(recap: Recap) -> str:
    """The recap's text with its [p. N] citations: the overview, then parts over their chapters."""
    return recap.text


def recap_markdown(recap: Recap) -> str:
    """The recap as Markdown with citation links, notes first."""
    notes = "".join(f"> {note}\n\n" for note in recap.notes)
    if not recap.sections:
        return notes + "Nothing read yet."
    return notes + linkify_citations(recap_body(recap))


class RecapScreen(ModalScreen[str | None]):
    """Dismisses with the label of a cited page the reader follows, or None."""

    AUTO_FOCUS = "#recap-scroll"

    BINDINGS = [Binding("escape,r,q", "close", "Close", id="recap.close")]

    class Loaded(Message):
        """The recap came back from the worker."""

        def __init__(self, recap: Recap | None, error: str = "") -> None:
            super().__init__()
            self.recap = recap
            self.error = error

    def __init__(self, load: RecapLoader, horizon_label: str) -> None:
        super().__init__()
        self.load = load
        self.horizon_label = horizon_label
        self.recap: Recap | None = None
        self.complete = False
        """Whether the whole recap is shown (a long one is appended after its first piece)."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog dialog-tall dialog-wide", id="recap-scroll") as dialog:
            dialog.border_title = f"The story so far (up to p. {self.horizon_label})"
            dialog.border_subtitle = "Esc closes · Tab to a cited page, Enter opens it"
            yield LoadingIndicator(id="recap-loading")
            yield Markdown("", id="recap-text", open_links=False)
            yield CitationBar(id="recap-citations")

    @on(Worker.StateChanged)
    def _forward_failure(self, event: Worker.StateChanged) -> None:
        forward_failure(self, event)  # the app shows one notice

    def on_mount(self) -> None:
        self._load()

    @work(thread=True, exclusive=True, exit_on_error=False, group="recap")
    def _load(self) -> None:
        try:
            self.post_message(self.Loaded(self.load()))
        except ReaderError as error:
            self.post_message(self.Loaded(None, str(error)))
        except Exception as error:  # noqa: BLE001 - shown in the dialog
            self.post_message(self.Loaded(None, f"The recap failed ({type(error).__name__}: {error})."))

    @on(Loaded)
    async def _loaded(self, event: Loaded) -> None:
        self.recap = event.recap
        await self.query_one("#recap-loading", LoadingIndicator).remove()
        text = recap_markdown(event.recap) if event.recap is not None else event.error
        first, *rest = markdown_pieces(text)
        await self.query_one("#recap-text", Markdown).update(first)
        if event.recap is not None and event.recap.sections:
            labels = recent_citations(citation_labels(recap_body(event.recap)))
            await self.query_one(CitationBar).set_labels(labels)
        if rest:
            self.run_worker(self._append(rest), group="recap-append", exclusive=True)
        else:
            self.complete = True

    async def _append(self, pieces: list[str]) -> None:
        """Add the rest of a long recap a piece at a time, painting (and taking keys) in between."""
        markdown = self.query_one("#recap-text", Markdown)
        for piece in pieces:
            await asyncio.sleep(0.01)
            await markdown.append(piece)
        self.complete = True

    @on(Button.Pressed, ".citation")
    def _citation_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.name)

    @on(Markdown.LinkClicked)
    def _link_clicked(self, event: Markdown.LinkClicked) -> None:
        event.stop()
        label = label_from_href(event.href)
        if label is not None:
            self.dismiss(label)

    def action_close(self) -> None:
        """Close without going anywhere."""
        self.dismiss(None)
