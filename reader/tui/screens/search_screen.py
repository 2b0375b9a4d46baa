"""Search the pages read so far; pick a passage to open its page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import Worker

from reader.app.search.snippets import make_snippet
from reader.domain.errors import ReaderError
from reader.domain.search import SearchResult
from reader.tui.screens.input_dialog import InputDialog
from reader.tui.worker_failures import forward_failure

SearchFunction = Callable[[str], Any]
"""Runs in a worker thread: query -> SearchResponse (results, warnings) or a list of SearchResult."""


SNIPPET_WIDTH = 160


class SearchScreen(InputDialog[int | None]):
    """Dismisses with the first page of the chosen passage."""

    BINDINGS = [Binding("escape", "cancel", "Close", id="search.close")]

    class Finished(Message):
        """A search came back from the worker."""

        def __init__(self, query: str, results: list[SearchResult], note: str, searched: str = "") -> None:
            super().__init__()
            self.query = query
            self.searched = searched or query
            """The words actually searched (the correction, when one was used)."""
            self.results = results
            self.note = note

    def __init__(self, search: SearchFunction, horizon_label: str) -> None:
        super().__init__()
        self.search = search
        self.horizon_label = horizon_label
        self.searched = ""
        """The words of the last search shown (the correction, when one was used): the page highlights them."""
        self.result_pages: list[int] = []
        """The first pages of the last search's passages, for n / N on the page."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog dialog-tall") as dialog:
            dialog.border_title = "Search the book"
            yield Static(
                f"Searches the pages up to your reading position (p. {self.horizon_label}).",
                classes="dialog-text",
                markup=False,
            )
            yield Input(placeholder="words or a phrase", id="search-input")
            yield Static("", id="search-note", classes="dialog-text", markup=False)
            yield OptionList(id="search-results")

    @on(Worker.StateChanged)
    def _forward_failure(self, event: Worker.StateChanged) -> None:
        forward_failure(self, event)  # the app shows one notice

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self.query_one("#search-note", Static).update("Searching…")
            self._run(event.value.strip())

    @work(thread=True, exclusive=True, exit_on_error=False, group="search")
    def _run(self, query: str) -> None:
        try:
            response = self.search(query)
        except ReaderError as error:
            self.post_message(self.Finished(query, [], str(error)))
            return
        except Exception as error:  # noqa: BLE001 - shown in the dialog, the app keeps running
            self.post_message(self.Finished(query, [], f"Search failed ({type(error).__name__}: {error})."))
            return
        results = list(getattr(response, "results", response) or [])
        notes = [str(w) for w in getattr(response, "warnings", ())]
        correction = getattr(response, "correction", None)
        if correction:
            notes.append(f"Searched for “{correction}”.")
        self.post_message(self.Finished(query, results, " ".join(notes), correction or query))

    @on(Finished)
    def _show(self, event: Finished) -> None:
        results = self.query_one("#search-results", OptionList)
        results.clear_options()
        self.searched = event.searched
        self.result_pages = [result.start_page for result in event.results]
        for index, result in enumerate(event.results):
            piece = make_snippet(result.content, event.searched, SNIPPET_WIDTH)
            text = Content(piece.text)
            for begin, end in piece.spans:
                text = text.stylize("bold $text-warning", begin, end)
            prompt = Content.assemble((result.page_citation, "bold $accent"), ("  ", ""), text)
            results.add_option(Option(prompt, id=f"{index}:{result.start_page}"))
        count = len(event.results)
        summary = f"{count} passage{'s' if count != 1 else ''} for “{event.query}”."
        self.query_one("#search-note", Static).update(f"{summary} {event.note}".strip())
        if count:
            results.highlighted = 0
            results.focus()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(int((event.option.id or "0:0").split(":")[1]) or None)

    def action_cancel(self) -> None:
        """Close without going anywhere."""
        self.dismiss(None)
