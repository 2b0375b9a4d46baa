"""The conversation as a scrolling log the keyboard can read: arrows, vim keys, pages, ends, citations."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll

SCROLL_GROUP = Binding.Group("Scroll", compact=True)
LAYOUT_FRAMES = 5
"""Refreshes `ChatLog.scroll_to_start_of` waits at most for an answer's final height."""


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

    def scroll_to_start_of(self, widget: object, frames: int = LAYOUT_FRAMES) -> None:
        """Show `widget` from its first line (a long answer that arrived whole is read from its start).

        Its final height may come a few frames after its content (a loaded machine lays the answer's
        blocks out later): until it is taller than the log, look again after the next `frames` refreshes.
        """
        from textual.widget import Widget

        if not isinstance(widget, Widget) or not widget.is_attached:
            return
        if widget.outer_size.height > self.scrollable_content_region.height:
            self.anchor(False)  # the next question anchors it again
            self.scroll_to_widget(widget, top=True, animate=False, immediate=True)
        elif frames > 0:
            self.call_after_refresh(self.scroll_to_start_of, widget, frames - 1)
