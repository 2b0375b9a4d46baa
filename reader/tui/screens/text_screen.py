"""Asks for a line of text: a note, a bookmark's name."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static

from reader.tui.screens.input_dialog import InputDialog


class TextScreen(InputDialog[str | None]):
    """Dismisses with the text typed (Enter; may be empty) or None (Esc)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="text.cancel")]

    def __init__(self, title: str, hint: str, value: str = "", placeholder: str = "") -> None:
        super().__init__()
        self.dialog_title = title
        self.hint = hint
        self.value = value
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as dialog:
            dialog.border_title = self.dialog_title
            yield Static(self.hint, classes="dialog-text", markup=False)
            yield Input(self.value, placeholder=self.placeholder, id="text-input")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        """Close without changing anything."""
        self.dismiss(None)
