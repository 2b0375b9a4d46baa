"""The conversation as a scrolling log the keyboard can read: arrows, vim keys, pages, ends, citations."""

from __future__ import annotations

from time import monotonic
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widget import Widget

SCROLL_GROUP = Binding.Group("Scroll", compact=True)
LAYOUT_WAIT = 1.0
"""Seconds `ChatLog.scroll_to_start_of` waits at most for an answer's final height."""


class ChatLog(VerticalScroll):
    """Questions and answers; focused, ↑/↓ (j/k), PgUp/PgDn (space), Home/End (g/G) scroll it and Tab
    moves between the citations (and tool calls) in it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "scroll_up", "Scroll up", id="chat.scroll_up", group=SCROLL_GROUP),
        Binding("down,j", "scroll_down", "Scroll down", id="chat.scroll_down", group=SCROLL_GROUP),
        Binding("pageup", "page_up", "Scroll up a screen", id="chat.page_up", show=False),
        Binding("pagedown,space", "page_down", "Scroll down a screen", id="chat.page_down", show=False),
        Binding("home,g", "scroll_home", "Start of the conversation", id="chat.start", show=False),
        Binding("end,G", "scroll_end", "End of the conversation", id="chat.end", show=False),
        Binding("tab", "app.focus_next", "Next citation", id="chat.next_citation"),
    ]

    _anchor_when_sized = False

    def anchor(self, anchor: bool = True) -> None:
        """Textual's, put off until the log has its size: anchored before it, the first layout scrolls by
        the content's whole height (its height is still 0) and the next layout moves everything back."""
        if anchor and not self.size.height:
            self._anchor_when_sized = True
            return
        self._anchor_when_sized = False
        super().anchor(anchor)

    def on_resize(self) -> None:
        if self._anchor_when_sized:
            self.anchor()

    def scroll_to_start_of(self, widget: object) -> None:
        """Show `widget` from its first line (a long answer that arrived whole is read from its start).

        Its final height may come some layouts after its content (its blocks are mounted and laid out as
        the app gets to them, later on a loaded machine): until it is taller than the log, look again after
        each layout of the screen, for LAYOUT_WAIT seconds at most (a count of frames ran out first)."""
        if not isinstance(widget, Widget) or self._show_start_of(widget):
            return
        deadline = monotonic() + LAYOUT_WAIT
        laid_out = self.screen.screen_layout_refresh_signal

        def look_again(_: object) -> None:
            if self._show_start_of(widget) or not widget.is_attached or monotonic() > deadline:
                laid_out.unsubscribe(self)

        laid_out.subscribe(self, look_again)

    def _show_start_of(self, widget: Widget) -> bool:
        """Scroll to `widget`'s top if it is taller than the log; whether it was."""
        if not widget.is_attached or widget.outer_size.height <= self.scrollable_content_region.height:
            return False
        self.anchor(False)  # the next question anchors it again
        self.scroll_to_widget(widget, top=True, animate=False, immediate=True)
        return True
