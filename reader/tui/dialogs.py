"""The dialogs the app opens over the page: search, X-Ray, the story so far, the reading position, keys."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual.app import App
from textual.binding import BindingType

from reader.services import Services
from reader.tui.panes.chat_pane import ChatPane
from reader.tui.panes.library_pane import LibraryPane
from reader.tui.panes.page_viewer import PageViewer
from reader.tui.reading_control import ReadingControl
from reader.tui.reading_session import ReadingSession
from reader.tui.widgets.ask_input import AskInput
from reader.tui.widgets.book_list import BookList
from reader.tui.widgets.chat_log import ChatLog

if TYPE_CHECKING:
    from reader.domain.knowledge import ConceptDetail, ConceptEntry, Recap


class Dialogs:
    """Opens the app's dialogs for the open book and hands what the reader chose to ReadingControl."""

    def __init__(self, app: App[None], services: Services, reading: ReadingControl) -> None:
        self.app = app
        self.services = services
        self.reading = reading

    def _open_session(self) -> ReadingSession | None:
        """The open book's session, or None after telling the reader to open a book first."""
        if self.reading.session is None:
            self.app.notify("Open a book first.", severity="warning")
        return self.reading.session

    def search(self) -> None:
        """Search the pages read so far and open a passage's page."""
        session = self._open_session()
        if session is None:
            return
        book_id, horizon = session.book.id, session.horizon
        services = self.services

        def search(query: str) -> object:
            return services.search.search(book_id, query, current_page=horizon)

        from reader.tui.screens.search_screen import SearchScreen  # loads when first needed

        screen = SearchScreen(search, session.label(horizon))
        self.app.push_screen(screen, lambda page: self._open_search_hit(page, screen))

    def _open_search_hit(self, page: int | None, screen: object) -> None:
        """Show the chosen passage's page with the searched words highlighted (n / N go through them)."""
        if page is not None:
            viewer = self.reading.panes.viewer
            searched, pages = getattr(screen, "searched", ""), getattr(screen, "result_pages", [])
            viewer.show_search_hits(page, searched, pages) if searched else viewer.jump_to(page)

    def xray(self, refine: bool = False) -> None:
        """People, places and terms met so far; pick one to see its mentions and open a page."""
        from reader.tui.refine_xray import xray_refiner  # the X-Ray loads when first opened

        session = self._open_session()
        if session is None:
            return
        book_id, horizon = session.book.id, session.horizon
        services = self.services
        xray = services.xray
        # indexed queries (a few ms even on a 1,000-page book): the first paint shows the list and
        # the first person's entry; other entries load in a worker as the highlight moves
        from reader.app.knowledge.xray import NO_MAP  # loads when first needed
        from reader.tui.screens.xray_screen import XRayScreen

        note = "" if xray.has_map(book_id) else NO_MAP.format(title=session.book.title)
        entries = xray.entries(book_id, horizon) if not note else []
        first = xray.detail(book_id, entries[0], horizon, session.pages, entries) if entries else None

        def detail(entry: ConceptEntry) -> ConceptDetail:  # in a worker: repositories are built per thread
            return services.xray.detail(book_id, entry, horizon, session.pages)

        screen = XRayScreen(
            entries, detail, session.label(horizon), session.label, note, first, xray_refiner(services, book_id, horizon)
        )
        self.app.push_screen(screen, self.reading.jump_if_chosen)
        if refine and not note:
            screen.call_after_refresh(screen.action_refine)

    def refine_xray(self) -> None:
        """Refine the X-Ray with the chat model (opens the X-Ray first when it is not open)."""
        from reader.tui.screens.xray_screen import XRayScreen

        if isinstance(self.app.screen, XRayScreen):
            self.app.screen.action_refine()
        else:
            self.xray(refine=True)

    def recap(self) -> None:
        """The story so far: a recap of the book up to the reading position."""
        session = self._open_session()
        if session is None:
            return
        book_id, horizon = session.book.id, session.horizon
        services = self.services

        def recap() -> Recap:
            return services.summaries_for().story_so_far(book_id, horizon)

        from reader.tui.screens.recap_screen import RecapScreen  # Markdown loads when first needed

        self.app.push_screen(RecapScreen(recap, session.label(horizon)), self.reading.follow_label)

    def set_position(self) -> None:
        """Type the page the reading position (spoiler horizon) should be."""
        session = self.reading.session
        if session is None:
            return
        from reader.tui.screens.goto_screen import GoToScreen  # dialogs load when first opened

        screen = GoToScreen(
            session.resolve,
            title="Reading position",
            hint=f"The chat answers from pages up to here. Now: p. {session.label(session.horizon)}.",
        )
        reading = self.reading
        self.app.push_screen(screen, lambda page: reading.set_position(page) if page is not None else None)

    def keys(self, app_bindings: Sequence[BindingType]) -> None:
        """Show every key, the app's own (`app_bindings`) first."""
        from reader.tui.refine_xray import xray_bindings
        from reader.tui.screens.help_screen import HelpScreen

        sections = [
            ("Anywhere", app_bindings),
            ("Page", PageViewer.PAGE_BINDINGS),
            ("Bookmarks, highlights and search hits", PageViewer.MARK_BINDINGS),
            ("Visual mode (after v)", PageViewer.VISUAL_BINDINGS),
            ("Library", [*LibraryPane.BINDINGS, *BookList.BINDINGS]),
            ("Chat (the ask box, then the conversation: ↑ from the ask box)", [*AskInput.BINDINGS, *ChatPane.BINDINGS]),
            ("The conversation", ChatLog.BINDINGS),
            ("X-Ray", xray_bindings()),
        ]
        self.app.push_screen(HelpScreen(sections))
