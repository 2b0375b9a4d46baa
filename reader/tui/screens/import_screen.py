"""Asks for a book file or a folder of books to import, with path completion."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static

from reader.tui.path_suggester import PathSuggester
from reader.tui.screens.input_dialog import InputDialog


class PathInput(Input):
    """An input whose Tab accepts the suggested completion."""

    BINDINGS = [Binding("tab", "complete", "Complete the path", id="import.complete")]

    def action_complete(self) -> None:
        """Accept the suggestion, or move focus on when there is none."""
        if self._suggestion and self._suggestion != self.value:
            self.value = self._suggestion
            self.cursor_position = len(self.value)
        else:
            self.screen.focus_next()


class ImportScreen(InputDialog[Path | None]):
    """Dismisses with an existing path, or None when cancelled."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="import.cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as dialog:
            dialog.border_title = "Import books"
            yield Static(
                "A PDF, EPUB, MOBI/AZW3, FB2, HTML, TXT or Markdown file, or a folder (searched recursively). Tab or → completes.",
                classes="dialog-text",
                markup=False,
            )
            yield PathInput(placeholder="~/Books/novel.epub", suggester=PathSuggester(), id="import-path")
            yield Static("", id="import-error", classes="dialog-error", markup=False)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        typed = event.value.strip()
        if not typed:
            self.query_one("#import-error", Static).update("Type a path first.")
            return
        path = Path(typed).expanduser()
        if not path.exists():
            self.query_one("#import-error", Static).update(f"{path}: no such file or folder.")
            return
        self.dismiss(path)

    def action_cancel(self) -> None:
        """Close without importing."""
        self.dismiss(None)
