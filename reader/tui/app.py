"""The reader app: library, page viewer and chat in one screen."""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from textual import on
from textual.app import App, ComposeResult, SystemCommand
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.events import Key, Resize
from textual.screen import Screen

from reader.locations import saved_css_path, user_themes_dir
from reader.services import Services
from reader.startup import collect_if_due, freeze_startup_heap, release_closed_screens, thaw_heap
from reader.tui.commands import reader_commands
from reader.tui.dialogs import Dialogs
from reader.tui.images.illustrated_text import IllustratedPageText
from reader.tui.pane_layout import PaneLayout, PaneRow
from reader.tui.panes.chat_pane import ChatPane
from reader.tui.panes.deferred_pane import DeferredPane
from reader.tui.panes.library_pane import LibraryPane
from reader.tui.panes.page_viewer import PageViewer
from reader.tui.reading_control import ReadingControl
from reader.tui.reading_session import ReadingSession
from reader.tui.saved_css import SavedCss
from reader.tui.screens.main_screen import MainScreen
from reader.tui.stylesheet import VariablesAwareStylesheet
from reader.tui.themes import (
    DEFAULT_THEME,
    STOCK_THEMES,
    builtin_themes_dir,
    derived_variables,
    load_themes,
)
from reader.tui.ui_writes import UiWrites
from reader.tui.widgets.citation_bar import CitationFollowed
from reader.tui.widgets.key_hints import KeyHints
from reader.tui.worker_failures import WorkerFailed, WriteFailed

if TYPE_CHECKING:
    pass

WORKER_TASKS = {
    "import": "Importing",
    "library": "Removing the book",
    "open-page": "Opening the page",
    "marks": "Saving the mark",
    "search": "The search",
    "recap": "The recap",
    "xray-detail": "The X-Ray entry",
    "xray-refine": "Refining the X-Ray",
    "pace-log": "Saving reading time",
}
"""What a failed worker was doing, by worker group (the notice's first words)."""

REPLACED_COMMANDS = {"Keys"}
"""Textual's palette commands that reader has its own for (its "Keys" lists every key)."""
FIRST_PICTURES_WAIT = 0.25
"""Seconds the side panes wait after the first paint for the first page's pictures, at most."""
WARM_PICTURES_AFTER = 0.5
"""Seconds after the first page (with its pictures) that Pillow loads on the picture thread, for the
first illustrated page turned to: not at once, where it would share the CPU with the side panes filling
(measured: the whole screen idle some 40 ms later for a page without pictures)."""
IDLE_COLLECT_AFTER = 0.01
"""Seconds between checks, after the frame that shows a new page, that the page is on screen with its
pictures and no newer page was asked for: then a due full garbage collection runs
(reader.startup.collect_if_due)."""
IDLE_COLLECT_CHECKS = 10
RESUME_COLLECTOR_AFTER = 1.0
"""Seconds after the side panes are filled that the collector comes back on at the latest (it does as soon
as the screen is laid out with them)."""

THEME = "theme"


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
        from reader.tui.images.protocol import cell_pixels, detect_protocol

        # asked here, before the app starts reading the terminal's input
        self.picture_protocol = detect_protocol(services.config.ui.images)
        """How pictures are drawn: "kitty", "sixel", "cells" or "off" (decided once, here)."""
        self.cell_pixels = cell_pixels()
        self.panes = PaneLayout(self)
        # posted, not call_from_thread: that waits for the app, which at exit waits for the writer thread
        self.writes = UiWrites(services, lambda text: self.post_message(WriteFailed(text)))
        self.reading = ReadingControl(self, services, self.panes, self.writes)
        self.dialogs = Dialogs(self, services, self.reading)
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
        self._pages_shown = 0
        """Pages shown so far (a due collection waits until the reader stays on one)."""
        self._heap_frozen = False
        """Whether the heap of start-up was frozen and the collector turned back on (`_resume_collector`)."""
        self.first_screen = threading.Event()
        """Set once the first screen is up, the library and the chat filled: worker threads whose reads would
        race it wait for it (two threads sharing the GIL both wait at each switch, and SQLite gives the GIL
        up at every row it reads: measured, reading the library's 1,001 books took 15-24 ms once they
        waited, 50-54 ms while the reading pace of a 1,000-page book was read beside it, a row per page)."""
        self._was_started = False
        """Whether `_started` ran (on the first frame's Ready, or after the first refresh if that came first)."""
        self._after_first_page: list[Callable[[], object]] | None = []
        """Calls waiting until the first page is on screen with its pictures (see `after_first_page`)."""
        self.theme_note = ""
        self.theme = self._initial_theme()  # before the first paint, so CSS is built once
        self.saved_css = SavedCss(saved_css_path())
        self.stylesheet = VariablesAwareStylesheet(variables=self.get_css_variables(), saved=self.saved_css)

    def get_default_screen(self) -> Screen:
        return MainScreen(id="_default")

    async def on_key(self, event: Key) -> None:
        # runs before App's own key handling, which would look the key up in the dialog's bindings
        if len(self.screen_stack) < 2:
            return  # no dialog open (and start-up need not load the dialogs)
        from reader.tui.screens.input_dialog import InputDialog

        dialog, main = self.screen, self.screen_stack[0]
        if (
            isinstance(dialog, InputDialog)
            and isinstance(main, MainScreen)
            and main.passed(event)
            and await dialog.type_ahead(event)
        ):
            event.prevent_default()

    def compose(self) -> ComposeResult:
        with PaneRow(id="main"):
            yield LibraryPane(self.services, id="library")
            yield PageViewer(id="viewer")
            yield ChatPane(self.services, id="chat")
        yield KeyHints(id="key-hints")

    def on_mount(self) -> None:
        self._notify_theme_problems()
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        self.open_book(self.initial_book_id or self.reading.last_book_id(), remember=True)
        self.viewer.focus()
        self.call_after_refresh(self._started)  # were the first frame's Ready never to come

    def on_ready(self) -> None:
        """The first frame is drawn: start now, not after the first refresh, which waits until every
        follow-up layout of that frame is done too (the page's scrollbar, the widgets' first sizes)."""
        self._started()

    def _started(self) -> None:
        """After the first paint: the CSS parsed so far saved; the side panes fill once the page's pictures
        are drawn (then the collector comes back on and the workers waiting for them start, `_pane_filled`)."""
        if self._was_started:
            return
        self._was_started = True
        self.saved_css.save()
        from reader.tui.images.protocol import OFF

        if self.picture_protocol != OFF:
            self.after_first_page(lambda: self.set_timer(WARM_PICTURES_AFTER, self._warm_pictures))
        page = self.viewer.page_text
        if page.figures and not page.settled():
            self.set_timer(FIRST_PICTURES_WAIT, self._first_page_done)
        else:
            self._first_page_done()

    def after_first_page(self, call: Callable[[], object]) -> None:
        """Run `call` once the first page is on screen with its pictures (at most FIRST_PICTURES_WAIT
        after its text): the side panes fill then, so the first picture need not share the CPU with them."""
        if self._after_first_page is None:
            call()
        else:
            self._after_first_page.append(call)

    def _warm_pictures(self) -> None:
        from reader.tui.images.picture_thread import warm

        warm()

    @on(DeferredPane.Filled)
    def _pane_filled(self, event: DeferredPane.Filled) -> None:
        """Once the library and the chat are filled too: the workers waiting for the first screen start, and
        once the screen is laid out with them the collector comes back on (`_resume_collector`)."""
        if self.first_screen.is_set() or not event.pane.is_attached or not self.is_running:
            return  # done, or the app is closing (on_unmount releases the workers and the collector)
        screen = event.pane.screen  # the main screen, also under a dialog opened meanwhile
        if not all(pane.filled for pane in screen.query(DeferredPane)):
            return
        self.first_screen.set()
        laid_out = screen.screen_layout_refresh_signal

        def resume(_: object) -> None:
            laid_out.unsubscribe(self)
            self._resume_collector()

        laid_out.subscribe(self, resume)
        self.set_timer(RESUME_COLLECTOR_AFTER, self._resume_collector)  # were that layout never to come

    def _resume_collector(self) -> None:
        """gc.freeze() and the collector back on (see reader.startup), once. Not at the first paint: filling
        the side panes and laying them out makes some 60,000 objects, most of them long-lived (the library's
        books and rows, the drawn lines), and with the collector on the collections among them took 12-20 ms."""
        if not self._heap_frozen:
            self._heap_frozen = True
            freeze_startup_heap()

    @on(IllustratedPageText.PicturesSettled)
    def _first_page_done(self) -> None:
        waiting, self._after_first_page = self._after_first_page, None
        for call in waiting or ():
            call()

    def on_unmount(self) -> None:
        self._resume_collector()  # closed before the panes were filled: the collector back on all the same
        thaw_heap()  # and what start-up made thawed (reader.startup)
        self.first_screen.set()  # no worker waits for a screen that will not come
        self.saved_css.save()  # the dialogs' CSS, if one was opened for the first time
        self.reading.save_viewed()
        self.writes.close()

    @on(WorkerFailed)
    def _worker_failed(self, event: WorkerFailed) -> None:
        """Every failed worker the chat does not show itself: one line, and its progress cleared."""
        error = event.error
        what = WORKER_TASKS.get(event.group, "A background task")
        self.notify(f"{what} failed: {type(error).__name__}: {error}", severity="error", timeout=8)
        if event.group in ("import", "library"):
            self.library.work_failed()

    @on(WriteFailed)
    def _write_failed(self, event: WriteFailed) -> None:
        self.notify(event.text, severity="error")

    def pop_screen(self) -> AwaitComplete:
        done = super().pop_screen()
        release_closed_screens()  # see reader.startup
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
        # Textual asks three times before the first paint, each time deriving every colour of the theme
        theme, memo = self.current_theme, self.__dict__.get("_css_variables")
        if memo is None or memo[0] is not theme:
            memo = (theme, derived_variables(super().get_css_variables()), self.theme_variables)
            self._css_variables = memo
        self.theme_variables = memo[2]
        return dict(memo[1])

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

    # --- reading: the open book and its position ----------------------------------------------

    @property
    def session(self) -> ReadingSession | None:
        """The open book's reading session (None: no book open)."""
        return self.reading.session

    @property
    def sessions(self) -> dict[str, ReadingSession]:
        return self.reading.sessions

    def open_book(self, book_id: str | None, *, remember: bool = True) -> None:
        """Show `book_id` at its reading position (None shows the empty-library message)."""
        self.reading.open_book(book_id, remember=remember)

    @on(PageViewer.PageShown)
    def _page_shown(self, event: PageViewer.PageShown) -> None:
        self.reading.page_viewed(event.book_id, event.number)
        if event.horizon_moved:
            self.reading.horizon_moved(event.book_id, event.horizon)
        self._pages_shown += 1
        turn = self._pages_shown
        # from the frame that shows the page on (a timer alone could fire before it, inside the turn)
        self.call_after_refresh(
            lambda: self.set_timer(IDLE_COLLECT_AFTER, lambda: self._collect_when_read(turn, IDLE_COLLECT_CHECKS))
        )

    def _collect_when_read(self, turn: int, checks: int) -> None:
        """Once page `turn` is on screen with its pictures and nothing newer was asked for, run a due full
        collection now, not in the next turn (see reader.startup.collect_if_due)."""
        if turn != self._pages_shown or len(self.screen_stack) > 1 or not self.query("#viewer"):
            return  # turned on, a dialog is open (the next page shown checks again), or the app is closing
        if not self.viewer.page_text.settled() and self.viewer.page_text.figures and checks:
            self.set_timer(IDLE_COLLECT_AFTER, lambda: self._collect_when_read(turn, checks - 1))
            return
        self.call_after_refresh(self._collect_read_page, turn)

    def _collect_read_page(self, turn: int) -> None:
        """After the frame with page `turn`'s pictures: a due full collection, else one of the young
        generations, which holds the page just drawn (its pictures' cells are thousands of styled segments).
        Left there, they were walked again by every collection of the middle generation in the next turns
        (measured over 120 illustrated turns: collections inside the turns took 73-92 ms in all, instead of
        203-277 ms; this one takes about a millisecond while the page is read)."""
        if turn == self._pages_shown and not collect_if_due() and gc.isenabled():
            gc.collect(1)

    @on(CitationFollowed)
    def _citation_followed(self, event: CitationFollowed) -> None:
        self.reading.follow_citation(event.label, event.page, event.words, event.searches)

    def action_position_here(self) -> None:
        """Make the page on screen the reading position."""
        if self.session is not None:
            self.reading.set_position(self.session.number)

    def action_go_to(self) -> None:
        """Go to a page by label, index, percentage or chapter."""
        self.viewer.action_go_to()

    def action_contents(self) -> None:
        """Show the table of contents."""
        self.viewer.action_contents()

    def action_page_back(self) -> None:
        """Return to the page before the last jump."""
        self.viewer.action_back()

    # --- the library: choosing, importing and removing books ------------------------------------

    @on(LibraryPane.BookChosen)
    def _book_chosen(self, event: LibraryPane.BookChosen) -> None:
        self.open_book(event.book_id)
        self.library.reload()
        self.action_focus_pane("viewer")

    @on(LibraryPane.BookImported)
    def _book_imported(self, event: LibraryPane.BookImported) -> None:
        self.notify(
            event.message, severity="information" if event.ok else "error", timeout=4 if event.ok else 8
        )
        if event.ok and event.book_id:
            self.reading.book_reindexed(event.book_id)
        self.library.reload()
        if event.ok and event.book_id and self.session is None:
            self.open_book(event.book_id)
            self.library.set_open_book(event.book_id)

    @on(LibraryPane.ImportFinished)
    def _import_finished(self, event: LibraryPane.ImportFinished) -> None:
        if event.summary:
            self.notify(event.summary, timeout=4)
        self.library.reload()

    @on(LibraryPane.BookRemoved)
    def _book_removed(self, event: LibraryPane.BookRemoved) -> None:
        self.notify(f"Removed {event.title}.", timeout=4)
        self.reading.book_removed(event.book_id)
        self.library.reload()

    def action_import_books(self) -> None:
        """Import a file or folder of books in the background."""
        self.library.action_import_books()

    def action_remove_book(self) -> None:
        """Remove the highlighted book (asks first)."""
        self.library.action_remove_book()

    # --- dialogs ----------------------------------------------------------------------------------

    def action_search(self) -> None:
        """Search the pages read so far and open a passage's page."""
        self.dialogs.search()

    def action_xray(self, refine: bool = False) -> None:
        """People, places and terms met so far; pick one to see its mentions and open a page."""
        self.dialogs.xray(refine)

    def action_refine_xray(self) -> None:
        """Refine the X-Ray with the chat model (opens the X-Ray first when it is not open)."""
        self.dialogs.refine_xray()

    def action_recap(self) -> None:
        """The story so far: a recap of the book up to the reading position."""
        self.dialogs.recap()

    def action_set_position(self) -> None:
        """Type the page the reading position (spoiler horizon) should be."""
        self.dialogs.set_position()

    def action_help(self) -> None:
        """Show every key."""
        self.dialogs.keys(self.BINDINGS)

    # --- the chat ---------------------------------------------------------------------------------

    def action_new_conversation(self) -> None:
        """Start a new conversation about this book."""
        self.chat.action_new_conversation()

    def action_conversations(self) -> None:
        """Continue one of the book's earlier conversations."""
        self.chat.action_conversations()

    # --- panes ------------------------------------------------------------------------------------

    def on_resize(self, event: Resize) -> None:
        # this handler runs before App's own, which updates self.size: lay out for the new width
        self.panes.lay_out(event.size.width)

    def action_focus_pane(self, pane: str) -> None:
        """Show (if hidden) and focus one pane: library, viewer or chat."""
        self.panes.focus_pane(pane)

    def action_toggle_library(self) -> None:
        """Show or hide the library."""
        self.panes.toggle("library")

    def action_toggle_chat(self) -> None:
        """Show or hide the chat."""
        self.panes.toggle("chat")

    def action_wide_chat(self) -> None:
        """Give the chat the whole screen, or give the page back."""
        self.panes.toggle_wide_chat()

    def action_filter_library(self) -> None:
        """Type to filter the library."""
        self.panes.filter_library()

    def action_leave(self) -> None:
        """Esc: clear the library filter, else return to the page."""
        self.panes.leave()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            if command.title not in REPLACED_COMMANDS:
                yield command
        yield from reader_commands(self)
