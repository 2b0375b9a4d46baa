"""The reader app: library, page viewer and chat in one screen."""

from __future__ import annotations

import gc
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from textual import on
from textual._styles_cache import StylesCache
from textual.app import App, ComposeResult, SystemCommand
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.containers import Horizontal
from textual.events import Key, Resize
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input

from reader.domain.errors import ReaderError
from reader.locations import user_themes_dir
from reader.services import Services
from reader.tui.commands import reader_commands
from reader.tui.reading_session import ReadingSession
from reader.tui.refine_xray import xray_bindings, xray_refiner
from reader.tui.screens.goto_screen import GoToScreen
from reader.tui.screens.help_screen import HelpScreen
from reader.tui.screens.input_dialog import InputDialog
from reader.tui.screens.main_screen import MainScreen
from reader.tui.themes import (
    DEFAULT_THEME,
    STOCK_THEMES,
    builtin_themes_dir,
    derived_variables,
    load_themes,
)
from reader.tui.widgets.book_list import BookList
from reader.tui.widgets.chat_items import CitationFollowed
from reader.tui.widgets.chat_pane import ChatPane
from reader.tui.widgets.key_hints import KeyHints
from reader.tui.widgets.library_pane import LibraryPane
from reader.tui.widgets.page_viewer import PageViewer

if TYPE_CHECKING:
    from reader.domain.knowledge import ConceptDetail, ConceptEntry, Recap

NARROW_WIDTH = 100
"""Below this many columns the app shows one pane at a time."""

HORIZON_REDRAW_DELAY = 0.4
"""Seconds after the last page turn before the library and chat show the new reading position."""

REPLACED_COMMANDS = {"Keys"}
"""Textual's palette commands that reader has its own for (its "Keys" lists every key)."""

PANES = ("library", "viewer", "chat")
LAST_BOOK = "last_book"
THEME = "theme"


def release_closed_screens() -> None:
    """Let a closed screen's rendered lines go.

    Textual 8 memoises `StylesCache.get_inner_outer` per widget with a class-wide `lru_cache`
    (Textualize/textual#6665), which keeps the style cache of every widget ever shown alive, with
    its rendered lines: about 1,000 strips more after each X-Ray opened and closed, which every
    full garbage collection walks (after a dozen openings one took 44 ms instead of 6, inside the
    next opening). The memo holds two styles per widget, cheap to make again.
    """
    StylesCache.get_inner_outer.cache_clear()


class ReaderApp(App[None]):
    """Read a book a page at a time and ask about it without spoilers."""

    CSS_PATH = "app.tcss"
    AUTO_FOCUS = "#viewer"
    TITLE = "reader"
    BINDINGS = [
        Binding("q", "quit", "Quit", id="app.quit"),
        Binding("question_mark,f1", "help", "Keys", id="app.help"),
        Binding("slash", "filter_library", "Filter books", id="app.filter", show=False),
        Binding("i", "import_books", "Import", id="app.import", show=False),
        Binding("s", "search", "Search", id="app.search", show=False),
        Binding("a", "focus_pane('chat')", "Ask", id="app.ask"),
        Binding("x", "xray", "X-Ray", id="app.xray", show=False),
        Binding("r", "recap", "Story so far", id="app.recap", show=False),
        Binding("1", "focus_pane('library')", "Focus library", id="app.focus_library", show=False),
        Binding("2", "focus_pane('viewer')", "Focus page", id="app.focus_viewer", show=False),
        Binding("3", "focus_pane('chat')", "Focus chat", id="app.focus_chat", show=False),
        Binding("ctrl+b", "toggle_library", "Library", id="app.toggle_library", priority=True, show=False),
        Binding("ctrl+t", "toggle_chat", "Chat", id="app.toggle_chat", priority=True, show=False),
        Binding("escape", "leave", "Back to the page", id="app.leave", show=False),
    ]

    def __init__(
        self, services: Services, *, book_id: str | None = None, theme_dirs: Sequence[Path] | None = None
    ) -> None:
        super().__init__()
        self.services = services
        self.initial_book_id = book_id
        self.sessions: dict[str, ReadingSession] = {}
        self.session: ReadingSession | None = None
        self.active_pane = "viewer"
        self.show_library = True
        self.show_chat = True
        self._horizon_timer: Timer | None = None
        loaded = load_themes(
            theme_dirs if theme_dirs is not None else [builtin_themes_dir(), user_themes_dir()]
        )
        self.theme_errors = loaded.errors
        self.reader_themes = {theme.name: theme for theme in loaded.themes}
        self.retired_themes = {name for name in self.available_themes if name not in STOCK_THEMES}
        """Textual's stock themes not offered (they set no page colours); a saved one falls back quietly."""
        for name in self.retired_themes:
            self.unregister_theme(name)
        for theme in loaded.themes:
            self.register_theme(theme)
        self.theme_note = ""
        self.theme = self._initial_theme()  # before the first paint, so CSS is built once

    def get_default_screen(self) -> Screen:
        return MainScreen(id="_default")

    async def on_key(self, event: Key) -> None:
        # runs before App's own key handling, which would look the key up in the dialog's bindings
        dialog, main = self.screen, self.screen_stack[0]
        if (
            isinstance(dialog, InputDialog)
            and isinstance(main, MainScreen)
            and main.passed(event)
            and await dialog.type_ahead(event)
        ):
            event.prevent_default()

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield LibraryPane(self.services, id="library")
            yield PageViewer(id="viewer")
            yield ChatPane(self.services, id="chat")
        yield KeyHints(id="key-hints")

    def on_mount(self) -> None:
        self._notify_theme_problems()
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        self.open_book(self.initial_book_id or self._last_book_id(), remember=True)
        self.viewer.focus()
        self.call_after_refresh(self.library.reload)
        self.call_after_refresh(gc.freeze)

    def on_unmount(self) -> None:
        # on_mount froze what startup made (modules, the chat stack, the library, the first page):
        # a full collection walks every tracked object, and on this heap one took 60-120 ms, often
        # in the middle of opening a dialog. Objects made later are collected as usual.
        gc.unfreeze()

    def pop_screen(self) -> AwaitComplete:
        done = super().pop_screen()
        release_closed_screens()
        return done

    @property
    def viewer(self) -> PageViewer:
        return self.query_one("#viewer", PageViewer)

    @property
    def library(self) -> LibraryPane:
        return self.query_one("#library", LibraryPane)

    @property
    def chat(self) -> ChatPane:
        return self.query_one("#chat", ChatPane)

    # --- themes ----------------------------------------------------------------------------------

    def get_css_variables(self) -> dict[str, str]:
        return derived_variables(super().get_css_variables())

    def _initial_theme(self) -> str:
        wanted = self.services.settings.get(THEME) or self.services.config.ui.theme or DEFAULT_THEME
        if wanted in self.available_themes:
            return wanted
        fallback = DEFAULT_THEME if DEFAULT_THEME in self.available_themes else "textual-dark"
        reason = (
            "no longer offered" if wanted in self.retired_themes else "not available (missing or broken file)"
        )
        self.theme_note = f"Theme '{wanted}' is {reason}; using {fallback}."
        return fallback

    def _notify_theme_problems(self) -> None:
        for error in self.theme_errors:
            self.notify(error, title="Theme file ignored", severity="warning", timeout=8)
        if self.theme_note:
            self.notify(self.theme_note, severity="warning", timeout=8)

    def set_theme(self, name: str) -> None:
        """Switch to theme `name` (the choice is saved)."""
        self.theme = name

    def _theme_changed(self, theme: object) -> None:
        self.services.settings.set(THEME, self.theme)

    # --- books -----------------------------------------------------------------------------------

    def _last_book_id(self) -> str | None:
        saved = self.services.settings.get(LAST_BOOK)
        if saved and self.services.books.get(saved):
            return saved
        books = self.services.books.list()
        return books[0].id if books else None

    def open_book(self, book_id: str | None, *, remember: bool = True) -> None:
        """Show `book_id` at its reading position (None shows the empty-library message)."""
        book = self.services.books.get(book_id) if book_id else None
        if book is None:
            self.session = None
            self.viewer.open(None)
            self.chat.set_book(None)
            return
        session = self.sessions.get(book.id)
        if session is None:
            books = self.services.books
            session = ReadingSession(
                book, books.pages(book.id), books.chapters(book.id), self.services.pages.range_text
            )
            self.sessions[book.id] = session
        self.session = session
        if remember:
            self.services.books.mark_read(book.id)
            self.services.settings.set(LAST_BOOK, book.id)
        self.viewer.open(session)
        self.chat.set_book(book.id, session.label(session.horizon), session.horizon)
        self.library.open_book = book.id
        self.sub_title = book.title

    @on(LibraryPane.BookChosen)
    def _book_chosen(self, event: LibraryPane.BookChosen) -> None:
        self.open_book(event.book_id)
        self.library.reload()
        self.action_focus_pane("viewer")

    @on(PageViewer.PageShown)
    def _page_shown(self, event: PageViewer.PageShown) -> None:
        if event.horizon_moved:
            self.services.books.set_current_page(event.book_id, event.horizon)
            # other panes show the new position once page turns pause: redrawing them with every
            # page would repaint the whole screen instead of the page alone
            if self._horizon_timer is not None:
                self._horizon_timer.stop()
            self._horizon_timer = self.set_timer(HORIZON_REDRAW_DELAY, self._show_horizon)

    def _show_horizon(self) -> None:
        self._horizon_timer = None
        if self.session is not None:
            self.chat.set_horizon(self.session.label(self.session.horizon), self.session.horizon)
            self.library.show_progress(self.session.book.id, self.session.horizon)

    @on(CitationFollowed)
    def _citation_followed(self, event: CitationFollowed) -> None:
        if self.session is None:
            return
        try:
            page = event.page or self.session.resolve(event.label)
        except ReaderError as error:
            self.notify(str(error), severity="warning")
            return
        if self.size.width < NARROW_WIDTH:
            self.action_focus_pane("viewer")
        if self.viewer.show_cited(page, event.words, event.searches.get(page, "")):
            self.viewer.focus()  # n / N step through the cited words; `a` goes back to the chat

    # --- importing and removing ------------------------------------------------------------------

    @on(LibraryPane.BookImported)
    def _book_imported(self, event: LibraryPane.BookImported) -> None:
        self.notify(
            event.message, severity="information" if event.ok else "error", timeout=4 if event.ok else 8
        )
        if event.ok and event.book_id in self.sessions:  # reindexed: its pages may have changed
            del self.sessions[event.book_id]
            if self.session is not None and self.session.book.id == event.book_id:
                self.open_book(event.book_id, remember=False)
        self.library.reload()
        if event.ok and event.book_id and self.session is None:
            self.open_book(event.book_id)
            self.library.set_open_book(event.book_id)

    @on(LibraryPane.ImportFinished)
    def _import_finished(self, event: LibraryPane.ImportFinished) -> None:
        self.notify(event.summary, timeout=4)
        self.library.reload()

    @on(LibraryPane.BookRemoved)
    def _book_removed(self, event: LibraryPane.BookRemoved) -> None:
        self.sessions.pop(event.book_id, None)
        self.notify(f"Removed {event.title}.", timeout=4)
        if self.session is not None and self.session.book.id == event.book_id:
            self.services.settings.delete(LAST_BOOK)
            self.open_book(self._last_book_id())
        self.library.reload()

    def action_import_books(self) -> None:
        """Import a file or folder of books in the background."""
        self.library.action_import_books()

    def action_remove_book(self) -> None:
        """Remove the highlighted book (asks first)."""
        self.library.action_remove_book()

    # --- page actions for the palette ------------------------------------------------------------

    def action_go_to(self) -> None:
        """Go to a page by label, index, percentage or chapter."""
        self.viewer.action_go_to()

    def action_contents(self) -> None:
        """Show the table of contents."""
        self.viewer.action_contents()

    def action_page_back(self) -> None:
        """Return to the page before the last jump."""
        self.viewer.action_back()

    def _open_session(self) -> ReadingSession | None:
        """The open book's session, or None after telling the reader to open a book first."""
        if self.session is None:
            self.notify("Open a book first.", severity="warning")
        return self.session

    def action_search(self) -> None:
        """Search the pages read so far and open a passage's page."""
        session = self._open_session()
        if session is None:
            return
        book_id, horizon = session.book.id, session.horizon

        def search(query: str) -> object:
            return self.services.search.search(book_id, query, current_page=horizon)

        from reader.tui.screens.search_screen import SearchScreen  # loads when first needed

        screen = SearchScreen(search, session.label(horizon))
        self.push_screen(screen, lambda page: self._open_search_hit(page, screen))

    def _open_search_hit(self, page: int | None, screen: object) -> None:
        """Show the chosen passage's page with the searched words highlighted (n / N go through them)."""
        if page is not None:
            searched, pages = getattr(screen, "searched", ""), getattr(screen, "result_pages", [])
            self.viewer.show_search_hits(page, searched, pages) if searched else self.viewer.jump_to(page)

    def action_xray(self, refine: bool = False) -> None:
        """People, places and terms met so far; pick one to see its mentions and open a page."""
        session = self._open_session()
        if session is None:
            return
        book_id, horizon = session.book.id, session.horizon
        services = self.services
        xray = services.xray
        # indexed queries (a few ms even on a 1,000-page book): the first paint shows the list and
        # the first person's entry; other entries load in a worker as the highlight moves
        from reader.app.xray import NO_MAP  # loads when first needed
        from reader.tui.screens.xray_screen import XRayScreen

        note = "" if xray.has_map(book_id) else NO_MAP.format(title=session.book.title)
        entries = xray.entries(book_id, horizon) if not note else []
        first = xray.detail(book_id, entries[0], horizon, session.pages, entries) if entries else None

        def detail(entry: ConceptEntry) -> ConceptDetail:  # in a worker: repositories are built per thread
            return services.xray.detail(book_id, entry, horizon, session.pages)

        screen = XRayScreen(
            entries, detail, session.label(horizon), session.label, note, first, xray_refiner(services, book_id, horizon)
        )
        self.push_screen(screen, self._jump_if_chosen)
        if refine and not note:
            screen.call_after_refresh(screen.action_refine)

    def action_refine_xray(self) -> None:
        """Refine the X-Ray with the chat model (opens the X-Ray first when it is not open)."""
        from reader.tui.screens.xray_screen import XRayScreen

        if isinstance(self.screen, XRayScreen):
            self.screen.action_refine()
        else:
            self.action_xray(refine=True)

    def action_recap(self) -> None:
        """The story so far: a recap of the book up to the reading position."""
        session = self._open_session()
        if session is None:
            return
        book_id, horizon = session.book.id, session.horizon
        services = self.services

        def recap() -> Recap:
            return services.summaries_for().story_so_far(book_id, horizon)

        from reader.tui.screens.recap_screen import RecapScreen  # Markdown loads when first needed

        self.push_screen(RecapScreen(recap, session.label(horizon)), self._follow_label)

    def _follow_label(self, label: str | None) -> None:
        if label is not None and self.session is not None:
            try:
                self.viewer.jump_to(self.session.resolve(label))
            except ReaderError as error:
                self.notify(str(error), severity="warning")

    def _jump_if_chosen(self, page: int | None) -> None:
        if page is not None:
            self.viewer.jump_to(page)

    def action_position_here(self) -> None:
        """Make the page on screen the reading position."""
        if self.session is not None:
            self._set_position(self.session.number)

    def action_set_position(self) -> None:
        """Type the page the reading position (spoiler horizon) should be."""
        session = self.session
        if session is None:
            return
        screen = GoToScreen(
            session.resolve,
            title="Reading position",
            hint=f"The chat answers from pages up to here. Now: p. {session.label(session.horizon)}.",
        )
        self.push_screen(screen, lambda page: self._set_position(page) if page is not None else None)

    def _set_position(self, page: int) -> None:
        session = self.session
        if session is None:
            return
        if session.needs_confirmation(page):
            self.viewer.jump_to(page)  # asks first, then moves the position
            return
        session.set_horizon(page)
        self.services.books.set_current_page(session.book.id, session.horizon)
        self._show_horizon()
        self.viewer.open(session) if session.number == session.horizon else self.viewer.refresh_header()
        self.notify(f"Reading position: p. {session.label(session.horizon)}.", timeout=3)

    # --- chat actions for the palette ------------------------------------------------------------

    def action_new_conversation(self) -> None:
        """Start a new conversation about this book."""
        self.chat.action_new_conversation()

    def action_conversations(self) -> None:
        """Continue one of the book's earlier conversations."""
        self.chat.action_conversations()

    # --- panes and layout ------------------------------------------------------------------------

    def on_resize(self, event: Resize) -> None:
        # this handler runs before App's own, which updates self.size: lay out for the new width
        self._layout(event.size.width)

    def _layout(self, width: int | None = None) -> None:
        narrow = (self.size.width if width is None else width) < NARROW_WIDTH
        self.viewer.screen.set_class(narrow, "-narrow")  # the main screen, also under a dialog
        if narrow:
            self.library.display = self.active_pane == "library"
            self.viewer.display = self.active_pane == "viewer"
            self.chat.display = self.active_pane == "chat"
        else:
            self.library.display = self.show_library
            self.viewer.display = True
            self.chat.display = self.show_chat

    def action_focus_pane(self, pane: str) -> None:
        """Show (if hidden) and focus one pane: library, viewer or chat."""
        self.active_pane = pane if pane in PANES else "viewer"
        if pane == "library":
            self.show_library = True
        elif pane == "chat":
            self.show_chat = True
        self._layout()
        if pane == "library":
            self.query_one(BookList).focus()
        elif pane == "chat":
            self.query_one("#chat-input", Input).focus()
        else:
            self.viewer.focus()

    def action_toggle_library(self) -> None:
        """Show or hide the library."""
        self._toggle("library")

    def action_toggle_chat(self) -> None:
        """Show or hide the chat."""
        self._toggle("chat")

    def _toggle(self, pane: str) -> None:
        if self.size.width < NARROW_WIDTH:
            self.action_focus_pane("viewer" if self.active_pane == pane else pane)
            return
        visible = not (self.show_library if pane == "library" else self.show_chat)
        if pane == "library":
            self.show_library = visible
        else:
            self.show_chat = visible
        self._layout()
        self.action_focus_pane(pane) if visible else self.viewer.focus()

    def action_filter_library(self) -> None:
        """Type to filter the library."""
        self.action_focus_pane("library")
        self.query_one("#library-filter", Input).focus()

    def action_leave(self) -> None:
        """Esc: clear the library filter, else return to the page."""
        if self.library.has_focus_within and self.library.clear_filter():
            return
        self.action_focus_pane("viewer")

    def action_help(self) -> None:
        """Show every key."""
        sections = [
            ("Anywhere", self.BINDINGS),
            ("Page", PageViewer.PAGE_BINDINGS),
            ("Bookmarks, highlights and search hits", PageViewer.MARK_BINDINGS),
            ("Visual mode (after v)", PageViewer.VISUAL_BINDINGS),
            ("Library", [*LibraryPane.BINDINGS, *BookList.BINDINGS]),
            ("Chat", ChatPane.BINDINGS),
            ("X-Ray", xray_bindings()),
        ]
        self.push_screen(HelpScreen(sections))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            if command.title not in REPLACED_COMMANDS:
                yield command
        yield from reader_commands(self)
