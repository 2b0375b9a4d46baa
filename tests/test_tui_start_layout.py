"""Start-up lays the screen out as few times as it can: the collector and the waiting workers start once
the library and the chat are filled, a long library list has its scrollbar from its first layout, and
neither a resize nor the panes' layout redraws what did not change."""

from __future__ import annotations

import gc
from typing import Any

import pytest
from textual.content import Content
from textual.screen import Screen
from textual.strip import Strip
from textual.style import Style
from textual.widgets.option_list import Option

from reader.app.pages.chunking import make_chunks
from reader.domain.models import Book, Chapter, Page
from reader.tui.app import ReaderApp
from reader.tui.screens.main_screen import MainScreen
from reader.tui.widgets.book_list import BookList
from reader.tui.widgets.key_hints import KeyHints
from tests.test_tui_library_rows import add_shelf
from tests.tui_helpers import sample_services, wait_until

SIZE = (120, 36)


def count_layouts(screen: Screen[Any]) -> list[int]:
    """From now on, count the full layouts of `screen` (one list item each)."""
    layouts: list[int] = []
    refresh_layout = screen._refresh_layout

    def counted(*args: Any, **kwargs: Any) -> None:
        layouts.append(1)
        refresh_layout(*args, **kwargs)

    screen._refresh_layout = counted  # type: ignore[method-assign]
    return layouts


def count_row_draws(book_list: BookList) -> list[str]:
    """From now on, note the id of each book row the list draws (not found in its cache of drawn rows)."""
    drawn: list[str] = []
    get_option_render = book_list._get_option_render

    def noted(option: Option, style: Style) -> list[Strip]:
        padding = book_list.get_component_styles("option-list--option").padding
        if book_list._option_render_cache.get((option, style, padding)) is None:
            drawn.append(option.id or "")
        return get_option_render(option, style)

    book_list._get_option_render = noted  # type: ignore[method-assign]
    return drawn


async def test_the_collector_and_the_waiting_workers_start_once_the_side_panes_are_filled() -> None:
    services, book = sample_services()
    app = ReaderApp(services, book_id=book.id)
    seen: dict[str, bool] = {}
    app.after_first_page(  # runs right after the first page is on screen, as the side panes start to fill
        lambda: seen.update(
            collector=gc.isenabled(),
            first_screen=app.first_screen.is_set(),
            filled=app.library.filled or app.chat.filled,
        )
    )
    gc.disable()  # as `reader open` starts the app (reader.startup.pause_collector)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: app.library.filled and app.chat.filled)
            await pilot.pause()
            assert seen == {"collector": False, "first_screen": False, "filled": False}
            assert gc.isenabled() and gc.get_freeze_count() > 0  # what start-up made is frozen
            assert app.first_screen.is_set()
            await wait_until(pilot, lambda: app.viewer.clock.words is not None)  # the pace was read
    finally:
        gc.enable()
        gc.unfreeze()


async def test_the_first_frame_hints_the_keys_of_the_page_the_reader_is_on() -> None:
    """The key hints are those of the focused page from the first frame (not the app's few, then the
    page's once the side panes fill, drawing the line twice)."""
    services, book = sample_services()
    app = ReaderApp(services, book_id=book.id)
    first: list[str] = []
    app.after_first_page(lambda: first.append(str(app.query_one(KeyHints).content)))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.library.filled and app.chat.filled)
        await pilot.pause()
        assert first and "Page" in first[0] and "Go to page" in first[0]
        assert str(app.query_one(KeyHints).content) == first[0]


async def test_the_screen_is_drawn_whole_once_at_start_up() -> None:
    """The first frame draws the whole screen; later frames draw what changed (Textual asked for the whole
    screen again after the first layout, and drew it from every widget's cache at the panes' fill)."""
    services, book = sample_services()
    app = ReaderApp(services, book_id=book.id)
    whole: list[bool] = []

    def count_whole_draws() -> None:
        screen = app.screen
        compositor_refresh = screen._compositor_refresh

        def counted() -> None:
            whole.append(screen in screen._dirty_widgets)
            compositor_refresh()

        screen._compositor_refresh = counted  # type: ignore[method-assign]

    app.after_first_page(count_whole_draws)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.library.filled and app.chat.filled)
        await pilot.pause()
        assert whole and not any(whole)  # frames were drawn, none of them the whole screen again


async def test_the_first_screens_widgets_are_styled_once() -> None:
    """Each widget is styled as it mounts; the screen's first resume (Textual styled every widget again
    there) and the side panes' fill leave the styles of the widgets already there alone."""
    services, book = sample_services()
    app = ReaderApp(services, book_id=book.id)
    styled: list[str] = []
    apply = app.stylesheet.apply

    def counted(node: Any, *args: Any, **kwargs: Any) -> None:
        styled.append(node.id or "")
        apply(node, *args, **kwargs)

    app.stylesheet.apply = counted  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.library.filled and app.chat.filled)
        await pilot.pause()
        assert styled.count("main") == 1 and styled.count("key-hints") == 1  # no focus rule applies to them
        assert styled.count("library") == 1 and styled.count("book-list") == 1


async def test_the_screen_is_not_laid_out_again_for_the_size_it_has(monkeypatch: pytest.MonkeyPatch) -> None:
    """Start-up sends the screen Resize events for the size it is already laid out at (the terminal's
    first size, again, and the screen's own after its first layout); each laid out and drew the whole
    screen anew. Now the first layout stands until the side panes fill."""
    layouts: list[int] = []
    refresh_layout = MainScreen._refresh_layout

    def counted(self: MainScreen, *args: Any, **kwargs: Any) -> None:
        layouts.append(1)
        refresh_layout(self, *args, **kwargs)

    monkeypatch.setattr(MainScreen, "_refresh_layout", counted)
    services, book = sample_services()
    app = ReaderApp(services, book_id=book.id)
    seen: dict[str, int] = {}
    app.after_first_page(lambda: seen.update(first=len(layouts)))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.library.filled and app.chat.filled)
        await pilot.pause()
        laid_out = len(layouts)
        await pilot.resize_terminal(SIZE[0] + 10, SIZE[1])
        await pilot.pause()
        assert app.screen.size.width == SIZE[0] + 10 and len(layouts) > laid_out  # a new size: laid out
    assert seen == {"first": 1}
    assert laid_out <= 4  # the first frame, the fill and Textual's follow-ups of newly sized widgets


async def test_a_long_library_list_is_laid_out_with_its_scrollbar_and_its_rows_drawn_once() -> None:
    services, book = sample_services()
    add_shelf(services, 60)
    app = ReaderApp(services, book_id=book.id)
    counts: dict[str, list[Any]] = {}
    app.after_first_page(lambda: counts.update(layouts=count_layouts(app.screen)))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.library.filled and app.chat.filled)
        await pilot.pause()
        book_list = app.query_one(BookList)
        assert book_list.show_vertical_scrollbar
        # the fill's layout and Textual's follow-up for the widgets it sized; a scrollbar found late, or
        # the list's rows dropped on its first resize, took a third
        assert len(counts["layouts"]) <= 2
        drawn = count_row_draws(book_list)
        await pilot.resize_terminal(SIZE[0], SIZE[1] + 6)  # taller: the list keeps its width
        await pilot.pause()
        rows_per_screen = book_list.scrollable_content_region.height // 3 + 1
        assert 0 < len(drawn) < rows_per_screen  # only the rows that came on screen are drawn
        assert len(set(drawn)) == len(drawn)


async def test_rows_are_drawn_again_at_a_new_width() -> None:
    services, _ = sample_services()
    title = "A Title Far Too Long For The Library Pane"
    book_id = "ab" * 32
    book = Book(book_id, title, "Ann Shelf", "en", "text", "/shelf/long.txt", 1, 1, "synthetic", "2024-01-01T00:00:00Z")
    services.books.replace(book, 100, 1, [Page(1, "1")], [Chapter(0, "One", 1, 1)], make_chunks(book_id, ["Words."]))
    async with ReaderApp(services, book_id=book_id).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.press("1")  # the library, focused
        await wait_until(pilot, lambda: isinstance(app.focused, BookList))
        book_list = app.query_one(BookList)

        def row_of(book_id: str) -> str:
            index = next(i for i in range(book_list.option_count) if book_list.get_option_at_index(i).id == book_id)
            return book_list.render_lines(book_list.region.reset_offset)[book_list._lines.index((index, 0))].text

        assert title not in row_of(book_id)  # cut to the pane
        await pilot.resize_terminal(80, SIZE[1])  # narrow: the library alone, the whole width
        await pilot.pause()
        assert book_list.size.width > 60
        assert title in row_of(book_id)


async def test_a_resize_leaves_the_panes_that_stay_shown_alone() -> None:
    services, book = sample_services()
    async with ReaderApp(services, book_id=book.id).run_test(size=SIZE) as pilot:
        app = pilot.app
        panes = (app.library, app.viewer, app.chat)
        await wait_until(pilot, lambda: app.library.filled and app.chat.filled)
        await pilot.resize_terminal(SIZE[0] + 10, SIZE[1])
        await pilot.pause()
        # shown as the stylesheet has them: setting display unchanged would lay the screen out again
        assert not any(pane.styles.inline.has_rule("display") for pane in panes)
        assert all(pane.display for pane in panes)
        await pilot.resize_terminal(80, SIZE[1])  # narrow: the page alone
        await pilot.pause()
        assert [pane.display for pane in panes] == [False, True, False]
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert all(pane.display for pane in panes)


async def test_a_dialog_opened_as_the_side_panes_fill_does_not_hold_the_start_up_back() -> None:
    from textual.events import Key

    from reader.tui.panes.deferred_pane import DeferredPane
    from reader.tui.screens.goto_screen import GoToScreen

    services, book = sample_services(30)
    app = ReaderApp(services, book_id=book.id)
    async with app.run_test(size=SIZE) as pilot:
        app.post_message(Key("g", "g"))  # before the library and the chat have filled
        await wait_until(pilot, lambda: isinstance(app.screen, GoToScreen))
        await wait_until(pilot, app.first_screen.is_set)
        main = app.screen_stack[0]
        assert all(pane.filled for pane in main.query(DeferredPane))
        await wait_until(pilot, lambda: app._heap_frozen)  # the collector back on under the dialog too
        assert gc.isenabled()
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is main


async def test_the_chat_opening_is_drawn_where_it_stays_in_the_first_layout_that_places_it() -> None:
    from reader.tui.widgets.chat_log import ChatLog
    from reader.tui.widgets.chat_notices import NoticeItem

    services, book = sample_services()
    app = ReaderApp(services, book_id=book.id)
    scrolled: list[float] = []

    def note_scroll() -> None:
        if logs := app.query(ChatLog):
            scrolled.append(logs.first().scroll_y)

    async with app.run_test(size=SIZE) as pilot:
        app.after_first_page(lambda: app.screen.screen_layout_refresh_signal.subscribe(app, lambda _: note_scroll()))
        await wait_until(pilot, app.first_screen.is_set)
        await pilot.pause()
        log = app.query_one(ChatLog)
        notice = app.query_one(NoticeItem)
        assert log.is_anchored  # anchored once it had a size: new answers keep the end in view
        assert log.region.contains_region(notice.region)  # in view, at the bottom of the log
        # anchored before it had a size, the log's first layout scrolled it by the whole opening (the
        # notice above the pane) and the next one scrolled it back
        assert scrolled and set(scrolled) == {log.scroll_y}


async def test_a_layout_that_changes_no_size_leaves_the_scrollbars_alone_and_a_new_page_updates_them() -> None:
    from reader.tui.widgets.page_text import PageText

    services, book = sample_services(5)
    app = ReaderApp(services, book_id=book.id)
    async with app.run_test(size=(SIZE[0], 14)) as pilot:  # short: the page scrolls
        await wait_until(pilot, app.first_screen.is_set)
        await pilot.pause()
        text = app.query_one(PageText)
        book_list = app.query_one(BookList)
        bars = [text.vertical_scrollbar, book_list.vertical_scrollbar]
        assert text.show_vertical_scrollbar
        refreshed: list[object] = []
        for bar in bars:
            refresh = bar.refresh

            def noted(*args: Any, _refresh: Any = refresh, _bar: object = bar, **kwargs: Any) -> Any:
                refreshed.append(_bar)
                return _refresh(*args, **kwargs)

            bar.refresh = noted  # type: ignore[method-assign]
        app.screen.refresh(layout=True)  # as a new widget's first size does
        await pilot.pause()
        assert refreshed == []
        text.show(Content("A short page."))  # a page that fits: its scrollbar goes
        await pilot.pause()
        assert not text.show_vertical_scrollbar
        number = app.session.number
        await pilot.press("right")  # the next page of the book scrolls again
        await wait_until(pilot, lambda: app.session.number == number + 1)
        await pilot.pause()
        assert text.show_vertical_scrollbar
        assert text.vertical_scrollbar.window_virtual_size == text.virtual_size.height
