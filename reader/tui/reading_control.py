"""The open book and its reading position: sessions, page jumps, and the horizon shown in every pane."""

from __future__ import annotations

from collections.abc import Mapping

from textual.app import App
from textual.timer import Timer

from reader.domain.errors import ReaderError
from reader.services import Services
from reader.tui.pane_layout import PaneLayout
from reader.tui.reading_session import ReadingSession
from reader.tui.ui_writes import UiWrites

HORIZON_REDRAW_DELAY = 0.4
"""Seconds after the last page turn before the library and chat show the new reading position."""

LAST_BOOK = "last_book"
VIEWED_PAGE = "viewed_page:{book_id}"
"""The setting holding the page of a book on screen when the reader left it (reopened there)."""
VIEWED_SAVE_DELAY = 1.0
"""Seconds after the last page shown before it is saved as the page to reopen at."""


class ReadingControl:
    """Opens books in the viewer (one ReadingSession per book, kept) and moves the reading position."""

    def __init__(self, app: App[None], services: Services, panes: PaneLayout, writes: UiWrites) -> None:
        self.app = app
        self.writes = writes
        self.services = services
        self.panes = panes
        self.sessions: dict[str, ReadingSession] = {}
        self.session: ReadingSession | None = None
        self._horizon_timer: Timer | None = None
        self._viewed_timer: Timer | None = None
        self._viewed: tuple[str, int] | None = None
        """The page on screen not saved yet (book id, page)."""

    def last_book_id(self) -> str | None:
        """The book read last, else the library's first, else None."""
        saved = self.services.settings.get(LAST_BOOK)
        if saved and self.services.books.get(saved):
            return saved
        books = self.services.books.list()
        return books[0].id if books else None

    def open_book(self, book_id: str | None, *, remember: bool = True) -> None:
        """Show `book_id` at its reading position (None shows the empty-library message)."""
        viewer, chat = self.panes.viewer, self.panes.chat
        book = self.services.books.get(book_id) if book_id else None
        if book is None:
            self.session = None
            viewer.open(None)
            chat.set_book(None)
            return
        session = self.sessions.get(book.id)
        if session is None:
            books = self.services.books
            session = ReadingSession(
                book, books.pages(book.id), books.chapters(book.id), self.services.pages.range_text
            )
            session.number = session.clamp(min(self._saved_view(book.id) or session.horizon, session.horizon))
            self.sessions[book.id] = session
        self.session = session
        if remember:
            services, book_id = self.services, book.id

            def remember_book() -> None:
                services.books.mark_read(book_id)
                services.settings.set(LAST_BOOK, book_id)

            self.writes.write(remember_book)
        viewer.open(session)
        chat.set_book(book.id, session.label(session.horizon), session.horizon)
        self.panes.library.open_book = book.id
        self.app.sub_title = book.title

    def _saved_view(self, book_id: str) -> int | None:
        """The page on screen when the reader last left `book_id` (None: not saved)."""
        saved = self.services.settings.get(VIEWED_PAGE.format(book_id=book_id))
        return int(saved) if saved and saved.isdigit() else None

    def page_viewed(self, book_id: str, page: int) -> None:
        """Remember the page on screen, to reopen the book there (saved once page turns pause)."""
        self._viewed = (book_id, page)
        if self._viewed_timer is not None:
            self._viewed_timer.stop()
        self._viewed_timer = self.app.set_timer(VIEWED_SAVE_DELAY, self.save_viewed)

    def save_viewed(self) -> None:
        """Save the page on screen now (when page turns pause, and as the app closes)."""
        if self._viewed_timer is not None:
            self._viewed_timer.stop()
            self._viewed_timer = None
        if self._viewed is None:
            return
        (book_id, page), self._viewed = self._viewed, None
        services = self.services
        self.writes.write(lambda: services.settings.set(VIEWED_PAGE.format(book_id=book_id), str(page)))

    def book_reindexed(self, book_id: str) -> None:
        """Forget `book_id`'s session (its pages may have changed) and reopen it if it is open."""
        if book_id in self.sessions:
            del self.sessions[book_id]
            if self.session is not None and self.session.book.id == book_id:
                self.open_book(book_id, remember=False)

    def book_removed(self, book_id: str) -> None:
        """Forget `book_id`; if it was open, open the next book."""
        self.sessions.pop(book_id, None)
        self.services.settings.delete(VIEWED_PAGE.format(book_id=book_id))
        if self.session is not None and self.session.book.id == book_id:
            self.services.settings.delete(LAST_BOOK)
            self.open_book(self.last_book_id())

    def horizon_moved(self, book_id: str, horizon: int) -> None:
        """Save the new reading position; the other panes show it once page turns pause."""
        services = self.services
        self.writes.write(lambda: services.books.set_current_page(book_id, horizon))
        # redrawing them with every page would repaint the whole screen instead of the page alone
        if self._horizon_timer is not None:
            self._horizon_timer.stop()
        self._horizon_timer = self.app.set_timer(HORIZON_REDRAW_DELAY, self.show_horizon)

    def show_horizon(self) -> None:
        """Show the reading position in the chat and the library."""
        self._horizon_timer = None
        if self.session is not None and self.app.query("#chat"):  # the panes go before the app's timers stop
            self.panes.chat.set_horizon(self.session.label(self.session.horizon), self.session.horizon)
            self.panes.library.show_progress(self.session.book.id, self.session.horizon)

    def follow_citation(
        self,
        label: str,
        page: int | None,
        words: str = "",
        searches: Mapping[int, str] | None = None,
    ) -> None:
        """Open a cited page (`page` when known, else the page labelled `label`) with the cited words
        highlighted: those of the answer's sentences citing it, else the search that found it."""
        if self.session is None:
            return
        try:
            page = page or self.session.resolve(label)
        except ReaderError as error:
            self.app.notify(str(error), severity="warning")
            return
        if self.panes.is_narrow():
            self.panes.focus_pane("viewer")
        viewer = self.panes.viewer
        if viewer.show_cited(page, words, (searches or {}).get(page, "")):
            viewer.focus()  # n / N step through the cited words; `a` goes back to the chat

    def follow_label(self, label: str | None) -> None:
        """Open the page labelled `label` (None: stay)."""
        if label is not None and self.session is not None:
            try:
                self.panes.viewer.jump_to(self.session.resolve(label))
            except ReaderError as error:
                self.app.notify(str(error), severity="warning")

    def jump_if_chosen(self, page: int | None) -> None:
        """Open `page` (None: stay)."""
        if page is not None:
            self.panes.viewer.jump_to(page)

    def set_position(self, page: int) -> None:
        """Make `page` the reading position (a move forward past a confirmation asks first)."""
        session, viewer = self.session, self.panes.viewer
        if session is None:
            return
        if session.needs_confirmation(page):
            viewer.jump_to(page)  # asks first, then moves the position
            return
        session.set_horizon(page)
        services, book_id, horizon = self.services, session.book.id, session.horizon
        self.writes.write(lambda: services.books.set_current_page(book_id, horizon))
        self.show_horizon()
        viewer.open(session) if session.number == session.horizon else viewer.refresh_header()
        self.app.notify(f"Reading position: p. {session.label(session.horizon)}.", timeout=3)
