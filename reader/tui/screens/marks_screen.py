"""A list of the reader's marks in a book (bookmarks, or highlights and notes): jump, edit, remove, undo."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option


@dataclass(frozen=True)
class MarkRow:
    """One listed mark: the page it jumps to, what the list shows and the stored mark behind it."""

    page: int
    prompt: Content
    item: Any


class MarksScreen(ModalScreen[int | None]):
    """Dismisses with the chosen mark's page; `d` removes a mark (the caller offers `u` to undo), `e` edits."""

    AUTO_FOCUS = "OptionList"

    BINDINGS = [
        Binding("escape", "cancel", "Close", id="marks.close"),
        Binding("j", "cursor('down')", "Down", show=False),
        Binding("k", "cursor('up')", "Up", show=False),
        Binding("d,delete", "remove", "Remove", id="marks.remove"),
        Binding("u", "undo", "Undo removal", id="marks.undo"),
        Binding("e", "edit", "Edit", id="marks.edit"),
    ]

    def __init__(
        self,
        title: str,
        rows: Sequence[MarkRow],
        *,
        empty: str,
        remove: Callable[[Any], None],
        undo: Callable[[], bool],
        edit: Callable[[Any, Callable[[MarkRow], None]], None] | None = None,
        current: int = 0,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.rows = list(rows)
        self.empty = empty
        self._remove = remove
        self._undo = undo
        self._edit = edit
        self.current = current
        self.removed: list[tuple[int, MarkRow]] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog dialog-tall") as dialog:
            dialog.border_title = self.title_text
            dialog.border_subtitle = "Enter opens · d removes · u undoes" + (
                " · e edits" if self._edit else ""
            )
            yield Static(
                self.empty if not self.rows else "", id="marks-note", classes="dialog-text", markup=False
            )
            yield OptionList(*self._options(), id="marks-list")

    def _options(self) -> list[Option]:
        return [Option(row.prompt, id=str(index)) for index, row in enumerate(self.rows)]

    def on_mount(self) -> None:
        marks = self.query_one(OptionList)
        if self.rows:
            earlier = [i for i, row in enumerate(self.rows) if row.page <= self.current]
            marks.highlighted = earlier[-1] if earlier else 0

    def _reload(self, highlight: int | None) -> None:
        marks = self.query_one(OptionList)
        marks.clear_options()
        marks.add_options(self._options())
        if self.rows:
            marks.highlighted = max(0, min(highlight or 0, len(self.rows) - 1))
        self.query_one("#marks-note", Static).update("" if self.rows else self.empty)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.rows[int(event.option.id or 0)].page)

    def action_cursor(self, direction: str) -> None:
        """Move the highlight with vim keys."""
        marks = self.query_one(OptionList)
        marks.action_cursor_down() if direction == "down" else marks.action_cursor_up()

    def action_remove(self) -> None:
        """Remove the highlighted mark; `u` puts it back."""
        index = self.query_one(OptionList).highlighted
        if index is None or not self.rows:
            return
        row = self.rows.pop(index)
        self.removed.append((index, row))
        self._remove(row.item)
        self._reload(index)
        self.query_one("#marks-note", Static).update("Removed. Press u to undo.")

    def action_undo(self) -> None:
        """Put back the mark removed last."""
        if not self.removed or not self._undo():
            self.notify("Nothing to undo.", timeout=2)
            return
        index, row = self.removed.pop()
        self.rows.insert(index, row)
        self._reload(index)

    def action_edit(self) -> None:
        """Edit the highlighted mark (a note's text, a bookmark's name)."""
        index = self.query_one(OptionList).highlighted
        if self._edit is None or index is None or not self.rows:
            return

        def edited(row: MarkRow) -> None:
            self.rows[index] = row
            self._reload(index)

        self._edit(self.rows[index].item, edited)

    def action_cancel(self) -> None:
        """Close without going anywhere."""
        self.dismiss(None)
