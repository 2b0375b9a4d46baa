"""The library lists every book but draws a row only when it comes on screen: scrolling, choosing and
filtering with `/` still reach every book."""

from __future__ import annotations

from rich.style import Style as RichStyle
from textual.content import Content
from textual.strip import Strip
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from reader.app.pages.chunking import make_chunks
from reader.domain.enrichment_status import EnrichmentStatus
from reader.domain.models import Book, Chapter, Page
from reader.services import Services
from reader.tui.app import ReaderApp
from reader.tui.widgets.book_list import BookList, BookOption
from reader.tui.widgets.book_rows import BookRows
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


def cells(strips: list[Strip]) -> list[list[tuple[str, RichStyle]]]:
    """Each line as its characters and the colours and attributes each is drawn in (meta left out)."""
    return [
        [
            (char, RichStyle(color=s.color, bgcolor=s.bgcolor, bold=s.bold, dim=s.dim, italic=s.italic))
            for text, s, _ in strip
            if s is not None
            for char in text
        ]
        for strip in strips
    ]


async def test_book_rows_are_the_cells_textual_draws_for_the_same_text() -> None:
    """The list draws a book's row itself (BookRows); Textual's own drawing of the same pieces as Content,
    through the list's padding and ellipsis, is the reference: same characters, colours and attributes."""
    services, book = sample_services()
    titles = ["A Title Far Too Long For The Library Pane Of Any Width", "東京物語と長い題名の本", "Ém\tile"]
    for n, title in enumerate(titles):
        book_id = f"{n + 7:016x}" * 4
        shelved = Book(book_id, title, "", "ja", "text", f"/shelf/{n}.txt", 1, 1, "synthetic", "2024-01-01T00:00:00Z")
        services.books.replace(shelved, 100, 1, [Page(1, "1")], [Chapter(0, "One", 1, 1)], make_chunks(book_id, ["Words."]))
    async with ReaderApp(services, book_id=book.id).run_test(size=SIZE) as pilot:
        app = pilot.app
        await wait_until(pilot, lambda: app.library.filled)
        book_list = app.query_one(BookList)
        app.library.enrichment[book.id] = EnrichmentStatus(done=3, total=9, failed=1)
        app.library.busy[f"{7:016x}" * 4] = "embedding 40% with a model of a long name"
        app.library.refresh_list()
        for pane_width in (28, 11):  # the pane's own, and one that cuts every line
            app.library.styles.width = pane_width
            await pilot.pause()
            width = book_list.scrollable_content_region.width
            assert width == pane_width - 2  # within the pane's border
            book_list._option_render_cache.clear()
            for index in range(book_list.option_count):
                option = book_list.get_option_at_index(index)
                rows = option.prompt
                assert isinstance(rows, BookRows)
                content = Content("\n").join(Content.assemble(*((t, s) if s else t for t, s in line)) for line in rows.lines)
                reference = Option(content)
                book_list._option_to_index[reference] = index
                for component in ("option-list--option", "option-list--option-highlighted"):
                    style = book_list.get_visual_style("option-list--option", component)
                    ours = book_list._get_option_render(option, style)
                    theirs = OptionList._get_option_render(book_list, reference, style)
                    assert len(ours) == 4 + bool(index == 0) and all(strip.cell_length == width for strip in ours)
                    assert cells(ours) == cells(theirs), (width, str(rows), component)
                    assert [strip._segments[-1].style.meta for strip in ours] == [  # the mouse finds the book
                        strip._segments[-1].style.meta for strip in theirs
                    ]
                del book_list._option_to_index[reference]
