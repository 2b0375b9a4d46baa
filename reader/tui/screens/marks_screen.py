"""A list of the reader's marks in a book (bookmarks, or highlights and notes): jump, edit, remove, undo."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from reader.tui.widgets.mark_list import MarkList


class MarksScreen(ModalScreen[int | None]):
    """Dismisses with the chosen mark's page; `d` removes a mark (the caller offers `u` to undo), `e` edits.

    Rows are drawn lazily from `prompt(item)`, so a book's 10,000 notes open as fast as ten."""

    AUTO_FOCUS = "MarkList"

    BINDINGS = [
        Binding("escape", "cancel", "Close", id="marks.close"),
        Binding("d,delete", "remove", "Remove", id="marks.remove"),
        Binding("u", "undo", "Undo removal", id="marks.undo"),
        Binding("e", "edit", "Edit", id="marks.edit"),
    ]

    def __init__(
        self,
        title: str,
        items: Sequence[Any],
        *,
        prompt: Callable[[Any], Content],
        page_of: Callable[[Any], int],
        empty: str,
        remove: Callable[[Any], None],
        undo: Callable[[], bool],
        edit: Callable[[Any, Callable[[Any], None]], None] | None = None,
        current: int = 0,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.items = list(items)
        self._prompt = prompt
        self.page_of = page_of
        self.empty = empty
        self._remove = remove
        self._undo = undo
        self._edit = edit
        self.current = current
        self.removed: list[tuple[int, Any]] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog dialog-tall") as dialog:
            dialog.border_title = self.title_text
            dialog.border_subtitle = "Enter opens · d removes · u undoes" + (
                " · e edits" if self._edit else ""
            )
            yield Static(
                self.empty if not self.items else "", id="marks-note", classes="dialog-text", markup=False
            )
            yield MarkList(len(self.items), lambda index: self._prompt(self.items[index]), id="marks-list")

    @property
    def marks(self) -> MarkList:
        return self.query_one(MarkList)

    def on_mount(self) -> None:
        earlier = sum(1 for item in self.items if self.page_of(item) <= self.current)
        self.marks.reset(len(self.items), max(0, earlier - 1))

    def _reload(self, cursor: int) -> None:
        self.marks.reset(len(self.items), cursor)
        self.query_one("#marks-note", Static).update("" if self.items else self.empty)

    @on(MarkList.Selected)
    def _selected(self, event: MarkList.Selected) -> None:
        event.stop()
        self.dismiss(self.page_of(self.items[event.index]))

    def action_remove(self) -> None:
        """Remove the mark under the cursor; `u` puts it back."""
        if not self.items:
            return
        index = self.marks.cursor
        item = self.items.pop(index)
        self.removed.append((index, item))
        self._remove(item)
        self._reload(index)
        self.query_one("#marks-note", Static).update("Removed. Press u to undo.")

    def action_undo(self) -> None:
        """Put back the mark removed last."""
        if not self.removed or not self._undo():
            self.notify("Nothing to undo.", timeout=2)
            return
        index, item = self.removed.pop()
        self.items.insert(index, item)
        self._reload(index)

    def action_edit(self) -> None:
        """Edit the mark under the cursor (a note's text, a bookmark's name)."""
        if self._edit is None or not self.items:
            return
        index = self.marks.cursor

        def edited(item: Any) -> None:
            self.items[index] = item
            self._reload(index)

        self._edit(self.items[index], edited)

    def action_cancel(self) -> None:
        """Close without going anywhere."""
        self.dismiss(None)
