"""The page viewer: one page of text at a time, turned and jumped with the keyboard."""

from __future__ import annotations

from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.worker import Worker

from reader.domain.errors import ReaderError
from reader.domain.models import FIGURE_IMPORTANCE, Book
from reader.tui.images.illustrated_text import IllustratedPageText
from reader.tui.images.page_pictures import page_figures
from reader.tui.open_page import not_a_pdf, open_page
from reader.tui.panes.page_marks import PageMarks
from reader.tui.reading_clock import PaceLoaded, ReadingClock
from reader.tui.reading_session import ReadingSession, ShownPage
from reader.tui.widgets.page_content import can_open, page_content
from reader.tui.widgets.page_header import PageHeader
from reader.tui.worker_failures import forward_failure

EMPTY_LIBRARY = (
    "No book is open.\n\nPress i to import a PDF, EPUB, MOBI, FB2, HTML, TXT or Markdown file (or a folder of them), "
    "or pick a book in the library.\n\nTo try reader with a sample novella, run `reader demo`."
)


PAGE_GROUP = Binding.Group("Page", compact=True)


class PageViewer(PageMarks, Vertical, can_focus=True):
    """Shows the page of a ReadingSession; page turns that queue up render only the last page.

    PageMarks adds bookmarks, visual mode, highlights and notes, and search hits."""

    PAGE_BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "turn(-1)", "Previous page", id="page.previous", group=PAGE_GROUP),
        Binding("right,l", "turn(1)", "Next page", id="page.next", group=PAGE_GROUP),
        Binding("space,pagedown", "page_down", "Scroll, then next page", id="page.down", show=False),
        Binding("pageup", "page_up", "Scroll back, then previous page", id="page.up", show=False),
        Binding("down,j", "scroll_down", "Scroll down", id="page.scroll_down", show=False),
        Binding("up,k", "scroll_up", "Scroll up", id="page.scroll_up", show=False),
        Binding("home", "first_page", "First page", id="page.first", show=False),
        Binding("end", "last_page", "Last page", id="page.last", show=False),
        Binding("right_square_bracket", "next_chapter", "Next chapter", id="page.next_chapter", show=False),
        Binding(
            "left_square_bracket",
            "previous_chapter",
            "Previous chapter",
            id="page.previous_chapter",
            show=False,
        ),
        Binding("g", "go_to", "Go to page", id="page.goto"),
        Binding("t", "contents", "Contents", id="page.contents"),
        Binding("b,backspace", "back", "Back after a jump", id="page.back", show=False),
        Binding(
            "o",
            "open_page",
            "Open in PDF viewer",
            id="page.open_pdf",
            show=False,
            tooltip="Opens this page of a PDF book in the system's PDF viewer (to see its figures).",
        ),
        Binding(
            "p",
            "page_picture",
            "Page as printed",
            id="page.picture",
            show=False,
            tooltip="Shows this page of a PDF book as it is printed (its figures in place); p again for the text.",
        ),
    ]

    BINDINGS: ClassVar[list[BindingType]] = [
        *PageMarks.VISUAL_BINDINGS,  # first: while selecting they shadow the page keys
        *PageMarks.MARK_BINDINGS,
        *PAGE_BINDINGS,
    ]
    """A subclass's bindings replace its bases' for the same key, so every key of the page is listed here."""

    class PageShown(Message):
        """A page was rendered; `horizon_moved` says whether the reading position advanced."""

        def __init__(self, book_id: str, number: int, horizon: int, horizon_moved: bool) -> None:
            super().__init__()
            self.book_id = book_id
            self.number = number
            self.horizon = horizon
            self.horizon_moved = horizon_moved

    class PageOpened(Message):
        """The open-in-viewer worker finished: what to tell the reader."""

        def __init__(self, message: str, ok: bool) -> None:
            super().__init__()
            self.message = message
            self.ok = ok

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session: ReadingSession | None = None
        self._pending: int | None = None
        self._pending_end = False
        self._flush_scheduled = False
        self.renders = 0
        """How many pages were rendered (turns that queued up count once)."""
        self.figures_shown = False
        """Whether the page on screen is a PDF page with figures (the key hints then offer `o`)."""
        self.clock = ReadingClock(self)
        """Times page turns for the reader's pace; says how long the chapter and the book have left."""
        self.whole_page = False
        """Whether the page on screen is shown as printed (a PDF page drawn whole, `p`)."""

    def compose(self) -> ComposeResult:
        yield PageHeader(id="page-header")
        yield IllustratedPageText(id="page-text")

    def on_mount(self) -> None:
        self.page_text.protocol = getattr(self.app, "picture_protocol", self.page_text.protocol)
        self.page_text.cell_pixels = getattr(self.app, "cell_pixels", self.page_text.cell_pixels)
        if self.session is None:
            self.page_text.show(Content(EMPTY_LIBRARY))

    @property
    def page_text(self) -> IllustratedPageText:
        return self.query_one(IllustratedPageText)

    # --- opening and rendering -------------------------------------------------------------------

    def open(self, session: ReadingSession | None) -> None:
        """Show `session`'s current page, or the empty-library message for None."""
        self.session = session
        self._pending = None
        self.whole_page = False
        self.marks_opened(session)
        self.clock.open(session.book if session is not None else None)
        if session is not None:
            self.clock.shown(session.number)
        if session is None:
            self.query_one(PageHeader).clear("reader")
            self.page_text.illustrate([])
            self.page_text.show(Content(EMPTY_LIBRARY))
            self._show_figure_hint(False)
            return
        self._render_page(to_end=False)

    def _render_page(self, *, to_end: bool, backwards: bool = False) -> None:
        assert self.session is not None
        page = self._described(self.session)
        self.page_changed(page, backwards=backwards)
        self.query_one(PageHeader).show(page)
        whole = self.whole_page and page.book.format == "pdf"
        figures, find = page_figures(getattr(self.app, "services", None), self.session, whole)
        self.page_text.illustrate(figures, find)
        content = Content("") if whole else self.decorate(page, page_content(page))
        self.page_text.show(content, to_end=to_end)
        self.page_drawn()
        self._show_figure_hint(can_open(page))
        self.renders += 1

    def _show_figure_hint(self, figures: bool) -> None:
        if figures != self.figures_shown:
            self.figures_shown = figures
            self.refresh_bindings()

    def hint_visible(self, binding: Binding) -> bool | None:
        """Whether the key hints show `binding` (None: as its `show` says): `o` and `p` on a PDF page with figures."""
        return self.figures_shown if binding.action in ("open_page", "page_picture") else None

    def refresh_header(self) -> None:
        """Describe the page again (after the reading position changed)."""
        if self.session is not None:
            self.query_one(PageHeader).show(self._described(self.session))

    def _described(self, session: ReadingSession) -> ShownPage:
        """The page on screen with its bookmark and the time left."""
        return self.with_marks(session.shown())._replace(time_left=self.clock.time_left(session))

    @on(PaceLoaded)
    def _pace_loaded(self, event: PaceLoaded) -> None:
        if self.clock.loaded(event):
            self.refresh_header()

    def on_unmount(self) -> None:
        self.clock.flush(wait=True)

    def _show(self, target: int, *, jump: bool, to_end: bool = False, backwards: bool = False) -> None:
        session = self.session
        if session is None:
            return
        previous = session.number
        moved = session.go(target, jump=jump)
        if session.number == previous and not moved and self.renders:
            return
        self.clock.shown(session.number)
        self._render_page(to_end=to_end, backwards=backwards)
        self.post_message(self.PageShown(session.book.id, session.number, session.horizon, moved))

    # --- page turns (coalesced) ------------------------------------------------------------------

    def _queue_turn(self, delta: int, *, to_end: bool = False) -> None:
        if self.session is None:
            return
        base = self._pending if self._pending is not None else self.session.number
        self._pending = self.session.clamp(base + delta)
        self._pending_end = to_end
        if not self._flush_scheduled:
            self._flush_scheduled = True
            self.call_later(self._flush_turns)

    def _flush_turns(self) -> None:
        self._flush_scheduled = False
        target, self._pending = self._pending, None
        if target is not None:
            self._show(target, jump=False, to_end=self._pending_end)

    def action_turn(self, delta: int) -> None:
        """Turn `delta` pages (negative turns back)."""
        self._queue_turn(delta)

    def action_page_down(self) -> None:
        """Scroll down a screen, or turn to the next page at the bottom."""
        text = self.page_text
        if self._pending is None and text.scroll_y < text.max_scroll_y:
            text.scroll_page_down(animate=False)
        else:
            self._queue_turn(1)

    def action_page_up(self) -> None:
        """Scroll up a screen, or turn back to the end of the previous page at the top."""
        text = self.page_text
        if self._pending is None and text.scroll_y > 0:
            text.scroll_page_up(animate=False)
        else:
            self._queue_turn(-1, to_end=True)

    def action_scroll_down(self) -> None:
        """Scroll the page down a line."""
        self.page_text.scroll_relative(y=1, animate=False)

    def action_scroll_up(self) -> None:
        """Scroll the page up a line."""
        self.page_text.scroll_relative(y=-1, animate=False)

    # --- jumps -----------------------------------------------------------------------------------

    def jump_to(self, target: int) -> None:
        """Go to page `target`, asking first when it is far past the reading position."""
        session = self.session
        if session is None:
            return
        target = session.clamp(target)
        if not session.needs_confirmation(target):
            self._show(target, jump=True)
            return
        question = (
            f"Jump to p. {session.label(target)}? Your reading position moves from "
            f"p. {session.label(session.horizon)} to p. {session.label(target)}, and the chat may then "
            "talk about everything up to there."
        )

        def answered(yes: bool | None) -> None:
            if yes:
                self._show(target, jump=True)

        from reader.tui.screens.confirm_screen import ConfirmScreen  # dialogs load when first opened

        self.app.push_screen(ConfirmScreen(question, yes="Jump", no="Stay", title="Spoilers ahead"), answered)

    def go_to_hit_page(self, page: int, *, backwards: bool) -> None:
        """Go to the page of the next (or previous) search result, at its first (or last) hit."""
        if self.session is not None:
            self._show(self.session.clamp(page), jump=True, backwards=backwards)

    def action_first_page(self) -> None:
        """Go to the first page."""
        self.jump_to(1)

    def action_last_page(self) -> None:
        """Go to the last page (asks first: it unlocks the whole book)."""
        if self.session:
            self.jump_to(self.session.page_count)

    def action_next_chapter(self) -> None:
        """Go to the start of the next chapter."""
        if self.session and (start := self.session.next_chapter_start(self.session.number)):
            self.jump_to(start)
        elif self.session:
            self.notify("This is the last chapter.", timeout=2)

    def action_previous_chapter(self) -> None:
        """Go to the start of this chapter, or of the previous one."""
        if self.session and (start := self.session.previous_chapter_start(self.session.number)):
            self.jump_to(start)

    def action_go_to(self) -> None:
        """Ask for a page label, index, percentage or chapter."""
        if self.session is None:
            return
        titles = [chapter.title for chapter in self.session.chapters]
        from reader.tui.screens.goto_screen import GoToScreen

        self.app.push_screen(GoToScreen(self.session.resolve, suggestions=titles), self._go_to_chosen)

    def _go_to_chosen(self, number: int | None) -> None:
        """Jump where `g` resolved to, saying which part's chapter it took when several have the number."""
        if number is None or self.session is None:
            return
        self.jump_to(number)
        if took := self.session.took():
            self.notify(took, timeout=4)

    def action_contents(self) -> None:
        """Show the table of contents."""
        session = self.session
        if session is None:
            return
        if not session.chapters:
            self.notify(f"{session.book.title} has no table of contents.", timeout=3)
            return
        from reader.tui.screens.toc_screen import TocScreen

        toc = TocScreen(session.chapters, session.label, session.number, session.horizon)
        self.app.push_screen(toc, self._jump_if_chosen)

    def _jump_if_chosen(self, number: int | None) -> None:
        if number is not None:
            self.jump_to(number)

    def action_open_page(self) -> None:
        """Open the page on screen in the system's PDF viewer (PDF books only)."""
        session = self.session
        if session is None:
            self.notify("Open a book first.", severity="warning", timeout=3)
            return
        book = session.book
        if book.format != "pdf":
            figures = session.visual_importance(session.number) >= FIGURE_IMPORTANCE
            figure = session.label(session.number) if figures else None
            self.notify(not_a_pdf(book, figure), severity="warning", timeout=5)
            return
        self._open_page(book, session.number, session.label(session.number))

    @on(Worker.StateChanged)
    def _forward_failure(self, event: Worker.StateChanged) -> None:
        forward_failure(self, event)

    @work(thread=True, group="open-page", exit_on_error=False)
    def _open_page(self, book: Book, number: int, label: str) -> None:
        services = getattr(self.app, "services", None)
        try:
            if services is None:
                raise ReaderError("This app has no library to cut pages from.")
            path = open_page(services.page_files, book, number, label)
        except ReaderError as error:
            self.post_message(self.PageOpened(str(error), False))
        else:
            self.post_message(self.PageOpened(f"Opened p. {label} in the PDF viewer ({path.name}).", True))

    @on(PageOpened)
    def _page_opened(self, event: PageOpened) -> None:
        self.notify(
            event.message, severity="information" if event.ok else "error", timeout=4 if event.ok else 8
        )

    def action_page_picture(self) -> None:
        """Show a PDF page as printed (drawn whole), or its text again."""
        session = self.session
        if session is None:
            return
        if session.book.format != "pdf":
            self.notify("Only PDF pages can be shown as printed; pictures are drawn in the text.", timeout=4)
            return
        self.whole_page = not self.whole_page
        self._render_page(to_end=False)

    def action_back(self) -> None:
        """Return to the page before the last jump."""
        if self.session and (previous := self.session.back()) is not None:
            self._show(previous, jump=False)
