"""Visual mode: selecting a passage on the page with the keys or the mouse, to highlight or note it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.binding import Binding, BindingType

from reader.tui.page_selection import (
    Selection,
    line_down,
    line_selection,
    line_up,
    move_line,
    word_back,
    word_forward,
)
from reader.tui.widgets.mark_writes import MarkWrites, Outcome
from reader.tui.widgets.marked_page import quote_line
from reader.tui.widgets.page_text import PageText

if TYPE_CHECKING:
    from reader.services import Services

VISUAL_ACTIONS = frozenset(
    ("extend", "move_start", "swap_ends", "highlight", "note", "remove_highlights", "leave_visual")
)
"""The actions that only work while a passage is selected."""


class VisualMode(MarkWrites):
    """`v` selects a line: the current search hit's, else the line last clicked, else the first on screen;
    J / K move that line, lines and words extend it; `y` highlights, `n` notes."""

    VISUAL_BINDINGS: ClassVar[list[BindingType]] = [  # left before right: the key hints keep "←→"
        Binding("j,down", "extend('line', 1)", "Extend a line", id="visual.down", show=False),
        Binding("k,up", "extend('line', -1)", "Back a line", id="visual.up", show=False),
        Binding("b,left,h", "extend('word', -1)", "Back a word", id="visual.word_back", show=False),
        Binding("w,right,l", "extend('word', 1)", "Extend a word", id="visual.word", show=False),
        Binding("J,shift+down", "move_start(1)", "Start a line lower", id="visual.start_down", show=False),
        Binding("K,shift+up", "move_start(-1)", "Start a line higher", id="visual.start_up", show=False),
        Binding("o", "swap_ends", "Move the other end", id="visual.swap", show=False),
        Binding("y,enter", "highlight", "Highlight", id="visual.highlight"),
        Binding("n", "note", "Note", id="visual.note"),
        Binding("d", "remove_highlights", "Remove highlights here", id="visual.remove", show=False),
        Binding("escape,v", "leave_visual", "Leave", id="visual.leave"),
    ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._mouse_anchor: int | None = None
        self.clicked: tuple[int, int] | None = None
        """The page and character offset of the last click on the page: `v` starts on its line."""

    def action_visual(self) -> None:
        """Select a line to start a passage from: the current search hit's, else the line last clicked,
        else the first line on screen."""
        if self.session is None:
            return
        lines = self._page_lines()
        top = self.page_text.scroll_offset.y
        height = self.page_text.scrollable_content_region.height
        hits = getattr(self, "hits", None)
        if hits is not None and hits.spans:
            line = lines.line_of(hits.spans[hits.index][0])
        elif self.clicked is not None and self.clicked[0] == self.session.number:
            clicked = lines.line_of(self.clicked[1])
            line = clicked if top <= clicked < top + height else top
        else:
            line = top
        selection = line_selection(lines, line)
        if selection is None:
            self.notify("This page has no text to select.", timeout=2)
            return
        self._select(selection)
        self.notify(
            "J/K move the line, j/k/w/b extend, o moves the other end, y highlights, n adds a note, Esc leaves.",
            timeout=4,
        )

    def action_move_start(self, step: int) -> None:
        """Select the line `step` lines below (above) the selection's start instead (before growing it)."""
        if self.selection is not None:
            self._select(move_line(self.selection, self._page_lines(), step))

    def _select(self, selection: Selection | None) -> None:
        entering = (self.selection is None) != (selection is None)
        self.selection = selection
        self._restyle()
        if selection is not None:
            self._scroll_to_offset(selection.cursor)
        if entering:
            self.refresh_bindings()

    def action_extend(self, unit: str, direction: int) -> None:
        """Move the selection's moving end a line or a word."""
        selection = self.selection
        if selection is None:
            return
        text = self.page_text.text
        if unit == "line":
            lines = self._page_lines()
            moved = line_down(selection, lines) if direction > 0 else line_up(selection, lines)
        else:
            moved = word_forward(selection, text) if direction > 0 else word_back(selection, text)
        self._select(moved)

    def action_swap_ends(self) -> None:
        """Move the other end of the selection from now on."""
        if self.selection is not None:
            self.selection = self.selection.swapped()

    def action_leave_visual(self) -> None:
        """Leave visual mode without highlighting."""
        self._select(None)

    def action_highlight(self, note: str = "") -> None:
        """Highlight the selection (with `note`)."""
        session, selection = self.session, self.selection
        if session is None or selection is None:
            return
        if selection.start >= selection.end:
            self.notify("Select some words first (w or j extend the selection).", timeout=3)
            return
        book_id, page, text = session.book.id, session.number, self.page_text.text
        start, end = selection.start, selection.end
        self._select(None)
        what = "Note added" if note else "Highlighted"

        def highlight(services: Services) -> Outcome:
            services.annotations.highlight(book_id, page, text, start, end, note)
            return Outcome(f"{what} on p. {session.label(page)}.")

        self.write(highlight)

    def action_note(self) -> None:
        """Highlight the selection with a note."""
        from reader.tui.screens.text_screen import TextScreen  # lazy: not at start-up

        selection = self.selection
        if selection is None:
            return
        quote = quote_line(self.page_text.text[selection.start : selection.end], 60)

        def noted(note: str | None) -> None:
            if note is not None and self.selection == selection:
                self.action_highlight(note)

        self.app.push_screen(TextScreen("Note", f"On “{quote}”", placeholder="your note"), noted)

    def action_remove_highlights(self) -> None:
        """Remove the highlights the selection touches (u undoes)."""
        session, selection = self.session, self.selection
        if session is None or selection is None:
            return
        touched = [
            a
            for a in self.page_annotations(session.number)
            if a.anchor.start < max(selection.end, selection.start + 1) and a.anchor.end > selection.start
        ]
        if not touched:
            self.notify("No highlight here.", timeout=2)
            return
        self._remove_annotations(touched)
        self._select(None)

    @on(PageText.MouseSelect)
    def _mouse_select(self, event: PageText.MouseSelect) -> None:
        event.stop()
        if self.session is None:
            return
        if event.phase == "down":
            self._mouse_anchor = event.offset
            self.clicked = (self.session.number, event.offset) if event.offset >= 0 else None
            if self.selection is not None:
                self._select(None)
            return
        anchor = self._mouse_anchor
        if anchor is None or event.offset < 0 or event.offset == anchor:
            if event.phase == "up":
                self._mouse_anchor = None
            return
        self._select(Selection(anchor, event.offset))
        if event.phase == "up":
            self._mouse_anchor = None
