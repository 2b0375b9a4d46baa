"""Start-up paints the page first: the library's filter and list and the chat's log and input mount right
after, and keys typed for them in between are not lost."""

from __future__ import annotations

from pathlib import Path

from textual._compositor import CompositorUpdate
from textual.app import App, ComposeResult
from textual.content import Content
from textual.events import Resize
from textual.widgets import Input, OptionList

from reader.tui.app import ReaderApp
from reader.tui.widgets.book_list import BookList
from reader.tui.widgets.page_text import PageText
from tests.tui_helpers import sample_services, wait_until, write_book

SIZE = (120, 36)


async def test_the_first_frame_has_the_page_and_the_library_fills_right_after() -> None:
    services, _ = sample_services()
    app = ReaderApp(services)
    frames: list[tuple[bool, bool, bool]] = []  # (page text, library list, chat input) mounted, per frame
    display = app._display

    def paint(screen, renderable) -> None:  # noqa: ANN001 - Textual's own signature
        if renderable is not None and not app._batch_count:  # a frame shown, not one held by a batch
            frames.append((bool(app.query(PageText)), bool(app.query(BookList)), bool(app.query("#chat-input"))))
        display(screen, renderable)

    app._display = paint  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.library.filled and app.chat.filled)
        await pilot.pause()
        assert frames[0] == (True, False, False)  # the page, framed by an empty library and chat
        assert frames[-1] == (True, True, True)
        assert app.query_one(BookList).option_count == len(services.books.list())
        assert app.chat.query("NoticeItem")  # the chat's start-up notice (no model configured)


async def test_the_first_frame_draws_the_page_text_and_the_header() -> None:
    services, book = sample_services()
    first_words = services.pages.page_text(book, book.current_page).text.split()[:3]
    app = ReaderApp(services)
    frames: list[str] = []  # what each frame writes to the terminal
    display = app._display

    def paint(screen, renderable) -> None:  # noqa: ANN001 - Textual's own signature
        if isinstance(renderable, CompositorUpdate) and not app._batch_count:
            frames.append(renderable.render_segments(app.console))
        display(screen, renderable)

    app._display = paint  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.library.filled)
        # the text is wrapped in the frame that first lays the page out, not after its Resize event
        assert " ".join(first_words) in frames[0]
        assert f"1 of {book.page_count}" in frames[0]


class PageTextMissingItsResize(PageText):
    """A page whose Resize event arrives after the first frame (as in a real terminal, where the first
    page came out blank and its text two frames later)."""

    def on_resize(self, event: Resize) -> None:
        event.prevent_default()  # PageText's own handler does not run


async def test_a_page_shown_before_layout_is_drawn_in_the_first_frame_it_is_laid_out_in() -> None:
    class OnePage(App[None]):
        def compose(self) -> ComposeResult:
            yield PageTextMissingItsResize()

        def on_mount(self) -> None:
            self.query_one(PageText).show(Content("Harbour lens village rock. " * 20))  # not laid out yet

    async with OnePage().run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        page = pilot.app.query_one(PageText)
        lines = [strip.text for strip in page.render_lines(page.region.reset_offset)]
        assert lines[0].startswith("Harbour lens village rock.")


async def test_long_titles_are_cut_in_the_library_list_not_wrapped(tmp_path: Path) -> None:
    services, _ = sample_services()
    title = "A Very Long Title That Cannot Fit in the Library Pane"
    services.importer.import_file(write_book(tmp_path, title=title))
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await wait_until(pilot, lambda: app.library.filled)
        await pilot.pause()
        book_list = app.query_one(BookList)
        lines = [strip.text.rstrip() for strip in book_list.render_lines(book_list.region.reset_offset)]
        long_line = next(line for line in lines if "A Very Long" in line)
        assert long_line.endswith("…")
        assert not any(line.strip().startswith("Fit in the") for line in lines)  # no wrapped remainder


async def test_keys_typed_before_the_library_fills_reach_its_filter() -> None:
    services, _ = sample_services()
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        assert not app.library.filled  # the fill waits for the first paint, which has not happened yet
        await pilot.press("slash", *"keeper")  # the filter is focused once it is there, then typed into
        assert app.query_one("#library-filter", Input).value == "keeper"
        assert app.focused is app.query_one("#library-filter", Input)


async def test_focusing_the_library_before_it_fills_lands_on_the_list(tmp_path: Path) -> None:
    services, _ = sample_services()
    services.importer.import_file(write_book(tmp_path))  # a second book for j to move to
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        assert not app.library.filled
        await pilot.press("1", "j")  # the list's j moves down: it must reach the list, not the page
        assert isinstance(app.focused, OptionList)
        assert app.focused.highlighted == 1


async def test_asking_before_the_chat_fills_lands_in_its_input() -> None:
    services, _ = sample_services()
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        assert not app.chat.filled
        await pilot.press("a", *"who")
        field = app.query_one("#chat-input", Input)
        assert app.focused is field
        assert field.value == "who"
