"""The story so far: a recap of the book up to the reading position; its citations open pages (click
one, or Tab to the page buttons below the recap)."""

from __future__ import annotations

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
        await self.query_one("#recap-text", Markdown).update(text)
        if event.recap is not None and event.recap.sections:
            await self.query_one(CitationBar).set_labels(citation_labels(recap_body(event.recap)))

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
