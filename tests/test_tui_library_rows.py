"""The library lists every book but draws a row only when it comes on screen: scrolling, choosing and
filtering with `/` still reach every book."""

from __future__ import annotations

from reader.app.pages.chunking import make_chunks
from reader.domain.models import Book, Chapter, Page
from reader.services import Services
from reader.tui.app import ReaderApp
from reader.tui.widgets.book_list import BookList, BookOption
from tests.tui_helpers import sample_services, wait_until

SIZE = (120, 36)
SHELF = 150
"""More books than the list used to show (100), far more than fit on screen."""


def add_shelf(services: Services, count: int) -> list[str]:
    """`count` two-page books written straight into the library; their ids, oldest first."""
    ids = []
    for n in range(count):
        book_id = f"{n:016x}" * 4  # chunk ids start with 16 characters of it
        texts = [f"Shelf book {n} page one about the harbour.", f"Shelf book {n} page two about the tide."]
        book = Book(book_id, f"Shelf Volume {n:03d}", "Ann Shelf", "en", "text", f"/shelf/{n}.txt", 2, 1,
                    "synthetic", "2024-01-01T00:00:00Z")
        pages = [Page(1, "1"), Page(2, "2")]
        services.books.replace(book, 100, 1, pages, [Chapter(0, "One", 1, 2)], make_chunks(book_id, texts))
        ids.append(book_id)
    return ids


def made_rows(book_list: BookList) -> list[int]:
    """Indexes of the rows whose prompt has been made (drawn at least once)."""
    return [
        index
        for index in range(book_list.option_count)
        if isinstance(option := book_list.get_option_at_index(index), BookOption) and option._made is None
    ]


async def test_every_book_is_listed_and_only_the_rows_on_screen_are_made() -> None:
    services, book = sample_services()
    add_shelf(services, SHELF)
    async with ReaderApp(services, book_id=book.id).run_test(size=SIZE) as pilot:
        app = pilot.app
        await wait_until(pilot, lambda: app.library.filled)
        await pilot.pause()
        book_list = app.query_one(BookList)
        assert book_list.option_count == SHELF + 1  # no "… more books" cut-off any more
        rows = book_list.scrollable_content_region.height
        made = made_rows(book_list)
        assert made and max(made) < rows  # a row takes 3 lines: only the first screenful is made
        assert book_list.virtual_size.height == 3 * (SHELF + 1)
        drawn = [strip.text for strip in book_list.render_lines(book_list.region.reset_offset)]
        assert any(book.title[:12] in line for line in drawn)  # the open book, first (cut to the pane)


async def test_scrolling_to_the_end_draws_and_opens_the_last_book() -> None:
    services, book = sample_services()
    ids = add_shelf(services, SHELF)
    async with ReaderApp(services, book_id=book.id).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.press("1")  # focus the list
        await wait_until(pilot, lambda: isinstance(app.focused, BookList))
        book_list = app.query_one(BookList)
        await pilot.press("end")
        await pilot.pause()
        last = book_list.highlighted_option
        assert last is not None and book_list.highlighted == SHELF
        assert book_list.scroll_offset.y > 0
        drawn = [strip.text for strip in book_list.render_lines(book_list.region.reset_offset)]
        assert any(app.library.books[-1].title[:12] in line for line in drawn)
        assert SHELF in made_rows(book_list) and 50 not in made_rows(book_list)  # the middle never drawn
        wanted = book_list.get_option_at_index(SHELF - 1).id
        await pilot.press("k", "enter")  # up one, and open it
        await pilot.pause()
        assert app.session is not None and app.session.book.id == wanted
        assert wanted in ids


async def test_filtering_finds_a_book_that_was_never_drawn() -> None:
    services, book = sample_services()
    add_shelf(services, SHELF)
    async with ReaderApp(services, book_id=book.id).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.press("slash", *"volume 137")
        await pilot.pause()
        book_list = app.query_one(BookList)
        first = book_list.get_option_at_index(0)
        assert first.id == f"{137:016x}" * 4
        assert "of 151" in str(app.library.border_subtitle)
        await pilot.press("enter")
        await pilot.pause()
        assert app.session is not None and app.session.book.title == "Shelf Volume 137"
        await pilot.press("1")
        await pilot.pause()
        prompt = app.query_one(BookList).highlighted_option
        assert prompt is not None and "▸ " in str(prompt.prompt)  # the open book is marked in its row


async def test_a_new_reading_position_redraws_its_row() -> None:
    services, book = sample_services()
    async with ReaderApp(services, book_id=book.id).run_test(size=SIZE) as pilot:
        app = pilot.app
        await wait_until(pilot, lambda: app.library.filled)
        before = str(app.query_one(BookList).get_option_at_index(0).prompt)
        app.library.show_progress(book.id, book.page_count)
        await pilot.pause()
        after = str(app.query_one(BookList).get_option_at_index(0).prompt)
        assert before != after and "100%" in after
