"""Command palette entries for everything the app does (Ctrl+P)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import partial
from typing import Protocol

from textual.app import SystemCommand

from reader.tui.panes.page_viewer import PageViewer


class CommandTarget(Protocol):
    """What the palette's commands call: the app's actions (ReaderApp provides them; no import back)."""

    @property
    def viewer(self) -> PageViewer: ...
    @property
    def reader_themes(self) -> Mapping[str, object]: ...
    def set_theme(self, name: str, /) -> None: ...
    def action_import_books(self) -> None: ...
    def action_go_to(self) -> None: ...
    def action_contents(self) -> None: ...
    def action_search(self) -> None: ...
    def action_xray(self) -> None: ...
    def action_refine_xray(self) -> None: ...
    def action_recap(self) -> None: ...
    def action_page_back(self) -> None: ...
    def action_position_here(self) -> None: ...
    def action_set_position(self) -> None: ...
    def action_new_conversation(self) -> None: ...
    def action_conversations(self) -> None: ...
    def action_focus_pane(self, pane: str, /) -> None: ...
    def action_filter_library(self) -> None: ...
    def action_remove_book(self) -> None: ...
    def action_toggle_library(self) -> None: ...
    def action_toggle_chat(self) -> None: ...
    def action_wide_chat(self) -> None: ...
    def action_help(self) -> None: ...


def reader_commands(app: CommandTarget) -> Iterator[SystemCommand]:
    """The app's own commands; theme entries come from reader's themes (Textual's "Theme" picker lists
    them too)."""
    yield SystemCommand("Import books", "Import a file or a folder of books", app.action_import_books)
    yield SystemCommand(
        "Go to page", "By printed label, #index, percentage or chapter name", app.action_go_to
    )
    yield SystemCommand("Table of contents", "Jump to a chapter", app.action_contents)
    yield SystemCommand("Search the book", "Search the pages read so far", app.action_search)
    yield SystemCommand(
        "X-Ray", "People, places and terms met so far, their mentions and pages", app.action_xray
    )
    yield SystemCommand(
        "X-Ray: refine with the model",
        "Ask the chat model, chapter by chapter up to your page, to group and type the names",
        app.action_refine_xray,
    )
    yield SystemCommand("Story so far", "A recap of the book up to your reading position", app.action_recap)
    yield SystemCommand("Wide chat", "Give the chat the whole screen, or the page back (w in the chat)", app.action_wide_chat)
    yield SystemCommand(
        "Bookmark this page", "Add or remove the page's bookmark (m)", app.viewer.action_toggle_bookmark
    )
    yield SystemCommand("Bookmarks", "The book's bookmarks; open one (')", app.viewer.action_bookmarks)
    yield SystemCommand(
        "Highlights and notes",
        "The book's highlights and notes; open, edit or remove one (\")",
        app.viewer.action_notes,
    )
    yield SystemCommand(
        "Select a passage",
        "Visual mode: highlight a passage or add a note to it (v)",
        app.viewer.action_visual,
    )
    yield SystemCommand(
        "Undo removal", "Put back the bookmark, highlight or note removed last (u)", app.viewer.action_undo
    )
    yield SystemCommand("Back", "Return to the page before the last jump", app.action_page_back)
    yield SystemCommand(
        "Reading position (spoiler horizon): set to this page",
        "The chat stays spoiler-free up to the page on screen (also moves it back)",
        app.action_position_here,
    )
    yield SystemCommand(
        "Reading position (spoiler horizon): set to a page",
        "Type the page the chat may talk about up to, spoiler-free",
        app.action_set_position,
    )
    yield SystemCommand("New conversation", "Start a fresh chat about this book", app.action_new_conversation)
    yield SystemCommand(
        "Earlier conversations", "Continue one of this book's conversations", app.action_conversations
    )
    yield SystemCommand("Ask about the book", "Focus the chat input", partial(app.action_focus_pane, "chat"))
    yield SystemCommand("Filter the library", "Type to filter books", app.action_filter_library)
    yield SystemCommand("Remove book", "Remove the highlighted book (asks first)", app.action_remove_book)
    yield SystemCommand("Toggle library", "Show or hide the library pane", app.action_toggle_library)
    yield SystemCommand("Toggle chat", "Show or hide the chat pane", app.action_toggle_chat)
    yield SystemCommand("Keys", "Show every key", app.action_help)
    for name in sorted(app.reader_themes):
        yield SystemCommand(f"Theme: {name}", "Switch to this theme (saved)", partial(app.set_theme, name))
