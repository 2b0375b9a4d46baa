"""Where visual mode starts (a moved line, a clicked line, a search hit), the notes list showing each note
under its quote, and the lists' status line after undo."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList, Static

from reader.tui.app import ReaderApp
from reader.tui.screens.marks_screen import MarksScreen
from reader.tui.widgets.mark_list import MarkList
from reader.tui.widgets.page_text import PageText
from tests.test_tui_marks import settle, styled
from tests.tui_helpers import sample_services, wait_until


def line_text(text: PageText, line: int) -> str:
    lines = text.lines()
    return text.text[lines.starts[line] : lines.ends[line]]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_v_starts_at_a_line_moved_with_shift_j_and_k(size: tuple[int, int]) -> None:
    services, book = sample_services(2)
    async with ReaderApp(services).run_test(size=size) as pilot:
        app = pilot.app
        text = app.query_one(PageText)
        await pilot.press("v", "J", "J", "J", "K")
        await pilot.pause()
        text_lines = text.lines().text_lines(0)
        assert styled(app, "reverse") == [line_text(text, text_lines[2])]
        await pilot.press("w", "y")  # then it grows from there
        await settle(app, pilot)
        [highlight] = services.annotations.list(book.id)
        assert highlight.quote.startswith(line_text(text, text_lines[2]).strip())


async def test_v_starts_at_the_line_clicked_last() -> None:
    services, _ = sample_services(2)
    async with ReaderApp(services).run_test(size=(120, 40)) as pilot:
        app = pilot.app
        text = app.query_one(PageText)
        await pilot.click(PageText, offset=(5, 4))  # a click (no drag) puts the start there
        await pilot.press("v")
        await pilot.pause()
        lines = text.lines()
        clicked = lines.line_of(app.viewer.clicked[1])  # type: ignore[index]
        assert clicked >= 2 and styled(app, "reverse") == [line_text(text, clicked)]


async def test_v_starts_at_the_search_hit_shown() -> None:
    from reader.tui.screens.search_screen import SearchScreen

    services, _ = sample_services(6)
    async with ReaderApp(services).run_test(size=(120, 40)) as pilot:
        app = pilot.app
        await pilot.press("s")
        assert isinstance(app.screen, SearchScreen)
        await pilot.press(*"Thorne", "enter")
        results = app.screen.query_one(OptionList)
        await wait_until(pilot, lambda: results.option_count > 0)
        results.highlighted = 0
        await pilot.press("enter")
        await pilot.pause()
        viewer, text = app.viewer, app.query_one(PageText)
        assert viewer.hits is not None and viewer.hits.spans
        await pilot.press("n")
        hit = viewer.hits.spans[viewer.hits.index][0]
        await pilot.press("v")
        await pilot.pause()
        assert styled(app, "reverse") == [line_text(text, text.lines().line_of(hit))]


async def test_the_notes_list_shows_each_note_under_its_quote_and_undo_clears_the_status() -> None:
    services, book = sample_services(2)
    async with ReaderApp(services).run_test(size=(80, 24)) as pilot:
        app = pilot.app
        await pilot.press("v", "j", "n")
        await pilot.press(*"Thorne lies", "enter")
        await settle(app, pilot)
        await pilot.press("v", "J", "J", "J", "y")
        await settle(app, pilot)
        assert len(services.annotations.list(book.id)) == 2
        await pilot.press("quotation_mark")
        screen = app.screen
        assert isinstance(screen, MarksScreen)
        await wait_until(pilot, lambda: screen.loaded)
        await pilot.pause()
        marks = screen.query_one(MarkList)
        noted = marks.row(0).plain.split("\n")
        assert len(noted) == 2 and "p. 2" in noted[0] and "“" in noted[0] and "Thorne lies" in noted[1]
        assert "Thorne lies" not in noted[0]
        plain = marks.row(1).plain.split("\n")
        assert len(plain) == 2 and "“" in plain[0] and plain[1].strip() == ""
        painted = ["".join(s.text for s in marks.render_line(y)) for y in range(4)]
        assert "Thorne lies" in painted[1]  # on screen too, under the quote
        note = screen.query_one("#marks-note", Static)
        await pilot.press("d")
        await settle(app, pilot)
        assert "u to undo" in str(note.content)
        await pilot.press("u")
        await settle(app, pilot)
        assert str(note.content) == "" and marks.count == 2
