"""A list of the reader's marks in a book (bookmarks, or highlights and notes): jump, edit, remove, undo."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from reader.tui.widgets.mark_list import MarkList

READING = "Reading…"
UNREAD = Content.styled("…", "$text-muted")


@dataclass(frozen=True)
class MarkWindow:
    """Some rows of a long list: how many it has in all, and `rows` from the `offset`-th on."""

    total: int
    offset: int
    rows: Sequence[Any]


@dataclass(frozen=True)
class LazyMarks:
    """A long list read in two steps: `first()`, a window around the page on screen (a few indexed rows,
    read as the dialog is made, so it is painted filled), then `whole()` in a worker."""

    first: Callable[[], MarkWindow]
    whole: Callable[[], Sequence[Any]]


class MarksScreen(ModalScreen[int | None]):
    """Dismisses with the chosen mark's page; `d` removes a mark (the caller offers `u` to undo), `e` edits.

    Rows are drawn lazily from `prompt(item)`, so a book's 10,000 notes open as fast as ten. Given
    LazyMarks instead of items, the dialog opens with the window around the page on screen and takes the
    whole list from a worker; removing and editing wait for it."""

    AUTO_FOCUS = "MarkList"

    BINDINGS = [
        Binding("escape", "cancel", "Close", id="marks.close"),
        Binding("d,delete", "remove", "Remove", id="marks.remove"),
        Binding("u", "undo", "Undo removal", id="marks.undo"),
        Binding("e", "edit", "Edit", id="marks.edit"),
    ]

    class Loaded(Message):
        """The worker read the marks to list."""

        def __init__(self, items: Sequence[Any]) -> None:
            super().__init__()
            self.items = items

    def __init__(
        self,
        title: str,
        items: Sequence[Any] | LazyMarks,
        *,
        prompt: Callable[[Any], Content],
        page_of: Callable[[Any], int],
        empty: str,
        remove: Callable[[Any], None],
        undo: Callable[[], bool],
        edit: Callable[[Any, Callable[[Any], None]], None] | None = None,
        current: int = 0,
        row_height: int = 1,
    ) -> None:
        super().__init__()
        self.title_text = title
        self._lazy = items if isinstance(items, LazyMarks) else None
        self.items: list[Any] = [] if isinstance(items, LazyMarks) else list(items)
        """The marks listed (None where a lazy list's row is not read yet)."""
        self.loaded = self._lazy is None
        """Whether every item is in (at once when given, after the worker's read when lazy)."""
        self._prompt = prompt
        self.page_of = page_of
        self.empty = empty
        self._remove = remove
        self._undo = undo
        self._edit = edit
        self.current = current
        self.row_height = row_height
        """Lines a mark takes in the list (2 for a highlight: its quote, then its note)."""
        self.removed: list[tuple[int, Any]] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog dialog-tall") as dialog:
            dialog.border_title = self.title_text
            dialog.border_subtitle = "Enter opens · d removes · u undoes" + (
                " · e edits" if self._edit else ""
            )
            yield Static("", id="marks-note", classes="dialog-text", markup=False)
            yield MarkList(
                len(self.items),
                self._row,
                placeholder=self._placeholder(),
                row_height=self.row_height,
                id="marks-list",
            )

    def _row(self, index: int) -> Content:
        item = self.items[index]
        return UNREAD if item is None else self._prompt(item)

    @property
    def marks(self) -> MarkList:
        return self.query_one(MarkList)

    def _placeholder(self) -> str:
        return self.empty if self.loaded else READING

    def _waiting(self) -> bool:
        """Whether the whole list is still being read (removing and editing wait for it)."""
        if not self.loaded:
            self.notify("Still reading the list…", timeout=2)
        return not self.loaded

    def on_mount(self) -> None:
        if self._lazy is None:
            self._fill()
            return
        window = self._lazy.first()
        self.items = [None] * window.total
        self.items[window.offset : window.offset + len(window.rows)] = window.rows
        before = sum(1 for item in window.rows if self.page_of(item) <= self.current)
        self._reload(max(0, window.offset + before - 1))
        # after the first paint: the worker's read would hold the GIL against it
        self.call_after_refresh(self._read, self._lazy.whole)

    @work(thread=True, exclusive=True, group="marks-list", exit_on_error=False)
    def _read(self, load: Callable[[], Sequence[Any]]) -> None:
        self.post_message(self.Loaded(load()))

    @on(Loaded)
    def _loaded(self, event: Loaded) -> None:
        event.stop()
        cursor = self.marks.cursor
        self.items = list(event.items)
        self.loaded = True
        self._reload(cursor)

    @on(Worker.StateChanged)
    def _read_failed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR:
            self.marks.reset(0, placeholder=f"Could not read them: {event.worker.error}")

    def _fill(self) -> None:
        """Show the items, the cursor on the last one at or before the page on screen."""
        earlier = sum(1 for item in self.items if self.page_of(item) <= self.current)
        self._reload(max(0, earlier - 1))

    def _reload(self, cursor: int) -> None:
        self.marks.reset(len(self.items), cursor, placeholder=self._placeholder())

    @on(MarkList.Selected)
    def _selected(self, event: MarkList.Selected) -> None:
        event.stop()
        item = self.items[event.index]
        if item is not None:
            self.dismiss(self.page_of(item))

    def action_remove(self) -> None:
        """Remove the mark under the cursor; `u` puts it back."""
        if self._waiting() or not self.items:
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
        self.query_one("#marks-note", Static).update("Removed. Press u to undo." if self.removed else "")

    def action_edit(self) -> None:
        """Edit the mark under the cursor (a note's text, a bookmark's name)."""
        if self._edit is None or self._waiting() or not self.items:
            return
        index = self.marks.cursor

        def edited(item: Any) -> None:
            self.items[index] = item
            self._reload(index)

        self._edit(self.items[index], edited)

    def action_cancel(self) -> None:
        """Close without going anywhere."""
        self.dismiss(None)
