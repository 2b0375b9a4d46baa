"""The list of highlights and notes: opened at once with the lines around the page on screen, the rest
read in a worker; the lines read without anchors."""

from __future__ import annotations

import re
import threading

from textual.content import Content

from reader.domain.annotations import AnnotationLine
from reader.services import Services
from reader.tui.app import ReaderApp
from reader.tui.screens.marks_screen import LazyMarks, MarksScreen, MarkWindow
from reader.tui.widgets.mark_list import MarkList
from tests.tui_helpers import sample_services, wait_until

SIZE = (120, 36)


def highlight_words(services: Services, book_id: str, pages: range, per_page: int) -> None:
    """`per_page` highlights of single words on each page of `pages` (every third with a note)."""
    for page in pages:
        text = services.pages.range_text(book_id, page, page)
        words = [m.span() for m in re.finditer(r"\w+", text)][:per_page]
        for n, (start, end) in enumerate(words):
            services.annotations.highlight(book_id, page, text, start, end, f"note {n}" if n % 3 == 0 else "")


def test_lines_are_the_list_in_page_order_with_counts_and_windows() -> None:
    services, book = sample_services()
    highlight_words(services, book.id, range(3, 0, -1), 4)
    notes = services.annotations
    whole = notes.list(book.id)
    lines = notes.lines(book.id)
    assert lines == [AnnotationLine(a.id, a.page, a.quote, a.note, a.orphaned) for a in whole]
    assert [line.page for line in lines] == [1] * 4 + [2] * 4 + [3] * 4
    assert notes.count(book.id) == 12 and notes.count(book.id, 2) == 8 and notes.count(book.id, 0) == 0
    assert notes.lines(book.id, 5, 3) == lines[5:8]
    assert notes.lines(book.id, 11, 10) == lines[11:]


async def test_the_list_opens_at_the_page_on_screen_and_fills_from_a_worker() -> None:
    services, book = sample_services()
    highlight_words(services, book.id, range(1, 9), 30)  # 240 rows: more than the window read at once
    services.books.set_current_page(book.id, 6)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.press("quotation_mark")
        screen = app.screen
        assert isinstance(screen, MarksScreen)
        await wait_until(pilot, lambda: screen.loaded)
        marks = screen.query_one(MarkList)
        assert marks.count == 240 and None not in screen.items
        assert marks.cursor == 6 * 30 - 1  # the last note at or before the page on screen
        top = marks.scroll_offset.y
        assert top <= marks.cursor * marks.row_height < top + marks.scrollable_content_region.height
        assert marks.row(marks.cursor).plain.startswith(f"p. {app.session.label(6)}")
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.session.number == 7


async def test_a_lazy_list_shows_its_window_while_the_rest_is_read_and_removal_waits() -> None:
    services, book = sample_services()
    rows = [AnnotationLine(n, 1 + n // 10, f"quote {n}") for n in range(500)]
    release = threading.Event()

    def whole() -> list[AnnotationLine]:
        release.wait(10)
        return rows

    removed: list[AnnotationLine] = []
    screen = MarksScreen(
        "Highlights and notes",
        LazyMarks(lambda: MarkWindow(500, 200, rows[200:260]), whole),
        prompt=lambda line: Content(line.quote),
        page_of=lambda line: line.page,
        empty="none",
        remove=removed.append,
        undo=lambda: False,
        current=22,
    )
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        app.push_screen(screen)
        await pilot.pause()
        marks = screen.query_one(MarkList)
        assert not screen.loaded and marks.count == 500
        assert marks.cursor == 219 and marks.row(219).plain == "quote 219"
        assert marks.row(0).plain == "…"  # not read yet
        await pilot.press("d")
        assert removed == [] and marks.count == 500  # removing waits for the whole list
        release.set()
        await wait_until(pilot, lambda: screen.loaded)
        assert marks.cursor == 219 and marks.row(0).plain == "quote 0"
        await pilot.press("d")
        assert removed == [rows[219]] and marks.count == 499
