"""Which panes show and which has focus: three side by side, or one at a time below NARROW_WIDTH."""

from __future__ import annotations

from textual.app import App
from textual.containers import Horizontal
from textual.widgets import Input

from reader.tui.panes.chat_pane import ChatPane
from reader.tui.panes.library_pane import LibraryPane
from reader.tui.panes.page_viewer import PageViewer
from reader.tui.widgets.book_list import BookList

NARROW_WIDTH = 100
"""Below this many columns the app shows one pane at a time."""

PANES = ("library", "viewer", "chat")


class PaneRow(Horizontal):
    """The row the panes stand in; drawn as blank lines (Textual's switch for a widget with no border and no
    content: the panes cover all of it but the gaps between them)."""

    BLANK = True


class PaneLayout:
    """Shows, hides and focuses the library, the page viewer and the chat of `app`'s main screen."""

    def __init__(self, app: App[None]) -> None:
        self.app = app
        self.active_pane = "viewer"
        self.show_library = True
        self.show_chat = True
        self.wide_chat = False
        """Whether the chat has the screen (w in the chat; the page or Esc gives it back)."""

    @property
    def viewer(self) -> PageViewer:
        return self.app.query_one("#viewer", PageViewer)

    @property
    def library(self) -> LibraryPane:
        return self.app.query_one("#library", LibraryPane)

    @property
    def chat(self) -> ChatPane:
        return self.app.query_one("#chat", ChatPane)

    def is_narrow(self) -> bool:
        """Whether the app shows one pane at a time."""
        return self.app.size.width < NARROW_WIDTH

    def lay_out(self, width: int | None = None) -> None:
        """Show the panes that fit `width` (the app's width when None)."""
        narrow = (self.app.size.width if width is None else width) < NARROW_WIDTH
        screen = self.viewer.screen  # the main screen, also under a dialog
        screen.set_class(narrow, "-narrow")
        screen.set_class(self.wide_chat and not narrow, "-wide-chat")
        if self.wide_chat and not narrow:
            shown = (False, False, True)
        elif narrow:
            shown = (self.active_pane == "library", self.active_pane == "viewer", self.active_pane == "chat")
        else:
            shown = (self.show_library, True, self.show_chat)
        for pane, show in zip((self.library, self.viewer, self.chat), shown, strict=True):
            if pane.display != show:  # setting it unchanged still lays the whole screen out again
                pane.display = show

    def focus_pane(self, pane: str) -> None:
        """Show (if hidden) and focus one pane: library, viewer or chat."""
        self.active_pane = pane if pane in PANES else "viewer"
        if pane != "chat":
            self.wide_chat = False
        if pane == "library":
            self.show_library = True
        elif pane == "chat":
            self.show_chat = True
        self.lay_out()
        if pane == "library":
            self.library.when_filled(lambda: self.app.query_one(BookList).focus())
        elif pane == "chat":
            self.chat.focus_input()
        else:
            self.viewer.focus()

    def toggle(self, pane: str) -> None:
        """Show or hide the library or the chat (when narrow: switch between it and the page)."""
        if self.is_narrow():
            self.focus_pane("viewer" if self.active_pane == pane else pane)
            return
        visible = not (self.show_library if pane == "library" else self.show_chat)
        if pane == "library":
            self.show_library = visible
        else:
            self.show_chat = visible
            self.wide_chat = self.wide_chat and visible
        self.lay_out()
        self.focus_pane(pane) if visible else self.viewer.focus()

    def toggle_wide_chat(self) -> None:
        """Give the chat the screen, or give the page back (when narrow the chat has it already)."""
        if self.is_narrow():
            self.focus_pane("chat")
            self.app.notify("The chat has the whole screen; Esc goes back to the page.", timeout=3)
            return
        if self.wide_chat:
            self.wide_chat = False
            self.lay_out()
            return
        self.wide_chat = True
        self.show_chat = True
        self.active_pane = "chat"
        self.lay_out()
        if not self.chat.has_focus_within:
            self.chat.focus_input()

    def filter_library(self) -> None:
        """Focus the library's filter."""
        self.focus_pane("library")
        self.library.when_filled(lambda: self.app.query_one("#library-filter", Input).focus())

    def leave(self) -> None:
        """Esc: clear the library filter, else return to the page."""
        if self.library.has_focus_within and self.library.clear_filter():
            return
        self.focus_pane("viewer")
