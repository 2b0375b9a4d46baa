"""Asks for a page: a printed label, "#N", a percentage or a chapter name."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.suggester import SuggestFromList
from textual.widgets import Input, Static

from reader.domain.errors import ReaderError
from reader.tui.screens.input_dialog import InputDialog


class GoToScreen(InputDialog[int | None]):
    """An input resolved to a page number with `resolve`; errors stay on screen until fixed."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="goto.cancel")]

    def __init__(
        self,
        resolve: Callable[[str], int],
        *,
        title: str = "Go to page",
        hint: str = 'A page label ("57", "iv"), "#12" for the 12th page, "45%", "Chapter 3" or a chapter title.',
        suggestions: Sequence[str] = (),
    ) -> None:
        super().__init__()
        self.resolve = resolve
        self.dialog_title = title
        self.hint = hint
        self.suggestions = list(suggestions)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as dialog:
            dialog.border_title = self.dialog_title
            yield Static(self.hint, classes="dialog-text", markup=False)
            yield Input(
                placeholder="page, #index, 45% or chapter",
                suggester=SuggestFromList(self.suggestions, case_sensitive=False)
                if self.suggestions
                else None,
                id="goto-input",
            )
            yield Static("", id="goto-error", classes="dialog-error", markup=False)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            number = self.resolve(event.value)
        except ReaderError as error:
            self.query_one("#goto-error", Static).update(str(error))
            return
        self.dismiss(number)

    def action_cancel(self) -> None:
        """Close without going anywhere."""
        self.dismiss(None)
