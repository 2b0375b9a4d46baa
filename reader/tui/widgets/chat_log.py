"""The conversation as a scrolling log the keyboard can read: arrows, vim keys, pages, ends, citations."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll

SCROLL_GROUP = Binding.Group("Scroll", compact=True)


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

    def scroll_to_start_of(self, widget: object) -> None:
        """Show `widget` from its first line (a long answer that arrived whole is read from its start)."""
        from textual.widget import Widget

        if isinstance(widget, Widget) and widget.outer_size.height > self.scrollable_content_region.height:
            self.anchor(False)  # the next question anchors it again
            self.scroll_to_widget(widget, top=True, animate=False, immediate=True)
