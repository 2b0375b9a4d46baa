"""Bookmarks, visual mode, highlights, notes and search hits in the app, driven with the Pilot."""

from __future__ import annotations

from textual.widgets import Input, OptionList

from reader.tui.app import ReaderApp
from reader.tui.screens.help_screen import HelpScreen
from reader.tui.screens.marks_screen import MarksScreen
from reader.tui.screens.text_screen import TextScreen
from reader.tui.widgets.mark_list import MarkList
from reader.tui.widgets.page_header import PageHeader
from reader.tui.widgets.page_text import PageText
from tests.tui_helpers import sample_services, wait_until

SIZE = (120, 36)


def styled(app: ReaderApp, style: str) -> list[str]:
    """The text of the page drawn in `style` (highlights, hits, the selection)."""
    content = app.query_one(PageText).content
    return [content.plain[span.start : span.end] for span in content.spans if str(span.style) == style]


async def settle(app: ReaderApp, pilot) -> None:  # noqa: ANN001 - Pilot
    await app.workers.wait_for_complete()
    await pilot.pause()


async def test_m_bookmarks_the_page_and_the_list_jumps_back_to_it() -> None:
    services, book = sample_services(3)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.press("m")
        await settle(app, pilot)
        assert [b.page for b in services.bookmarks.list(book.id)] == [3]
        assert "⚑" in app.query_one(PageHeader).line.position
        await pilot.press("M")
        assert isinstance(app.screen, TextScreen)
        await pilot.press(*"the letter", "enter")
        await settle(app, pilot)
        assert services.bookmarks.at(book.id, 3).name == "the letter"  # type: ignore[union-attr]
        assert "⚑ the letter" in app.query_one(PageHeader).line.position
        await pilot.press("left", "left")
        await pilot.pause()
        assert app.session.number == 1
        await pilot.press("apostrophe")
        assert isinstance(app.screen, MarksScreen)
        shown = app.screen.query_one(MarkList).row(0).plain
        assert "p. 3" in shown and "the letter" in shown
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.number == 3
        await pilot.press("m")  # toggles it off; u puts it back, name and all
        await settle(app, pilot)
        assert services.bookmarks.list(book.id) == []
        assert "⚑" not in app.query_one(PageHeader).line.position
        await pilot.press("u")
        await settle(app, pilot)
        assert [(b.page, b.name) for b in services.bookmarks.list(book.id)] == [(3, "the letter")]


async def test_visual_mode_selects_from_the_first_line_and_highlights() -> None:
    services, book = sample_services(2)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        text = app.query_one(PageText)
        await pilot.press("v")
        await pilot.pause()
        first_line = text.lines()
        line_text = text.text[first_line.starts[0] : first_line.ends[0]]
        assert styled(app, "reverse") == [line_text]
        await pilot.press("w", "w", "b")  # one word onto the second line
        assert styled(app, "reverse") == [
            text.text[: first_line.starts[1]] + text.text[first_line.starts[1] :].split()[0]
        ]
        await pilot.press("j", "k")  # to the end of the third line and back to the end of the second
        assert styled(app, "reverse") == [text.text[: first_line.ends[1]]]
        await pilot.press("k", "b", "b")
        line_text = " ".join(line_text.split()[:-2])
        assert styled(app, "reverse") == [line_text]
        await pilot.press("left")  # arrows move by words in visual mode, not pages
        assert app.session.number == 2
        line_text = " ".join(line_text.split()[:-1])
        await pilot.press("y")
        await settle(app, pilot)
        [highlight] = services.annotations.list(book.id)
        assert highlight.page == 2 and highlight.quote == line_text and highlight.note == ""
        assert styled(app, "on $page-highlight") == [line_text]
        assert styled(app, "reverse") == []
        await pilot.press("left")  # visual mode is over: the page turns
        await pilot.pause()
        assert app.session.number == 1


async def test_n_in_visual_mode_adds_a_note_and_the_notes_list_removes_with_undo() -> None:
    services, book = sample_services(2)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.press("v", "j", "n")
        assert isinstance(app.screen, TextScreen)
        await pilot.press(*"Thorne lies", "enter")
        await settle(app, pilot)
        [note] = services.annotations.list(book.id)
        assert note.note == "Thorne lies" and note.kind == "note"
        assert styled(app, "underline on $page-highlight") == [note.quote]
        await pilot.press("quotation_mark")
        assert isinstance(app.screen, MarksScreen)
        screen = app.screen
        await wait_until(pilot, lambda: screen.loaded)
        shown = app.screen.query_one(MarkList).row(0).plain
        assert "p. 2" in shown and "Thorne lies" in shown
        await pilot.press("d")
        await settle(app, pilot)
        assert services.annotations.list(book.id) == []
        assert app.screen.query_one(MarkList).count == 0
        await pilot.press("u")
        await settle(app, pilot)
        assert services.annotations.list(book.id) == [note]
        assert app.screen.query_one(MarkList).count == 1
        await pilot.press("escape")
        await pilot.pause()
        assert styled(app, "underline on $page-highlight") == [note.quote]


async def test_d_in_visual_mode_removes_the_highlight_under_the_selection() -> None:
    services, book = sample_services(2)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.press("v", "y")
        await settle(app, pilot)
        assert len(services.annotations.list(book.id)) == 1
        await pilot.press("v", "d")
        await settle(app, pilot)
        assert services.annotations.list(book.id) == []
        assert styled(app, "on $page-highlight") == []
        await pilot.press("u")
        await settle(app, pilot)
        assert len(services.annotations.list(book.id)) == 1


async def test_dragging_the_mouse_selects_words_for_a_highlight() -> None:
    services, book = sample_services(2)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        text = app.query_one(PageText)
        await pilot.mouse_down(PageText, offset=(2, 1))  # the padding is 1 line and 2 cells
        await pilot.hover(PageText, offset=(14, 1))
        await pilot.mouse_up(PageText, offset=(14, 1))
        await pilot.pause()
        assert app.viewer.selection is not None
        selected = styled(app, "reverse")
        assert selected == [text.text[:12]]
        await pilot.press("enter")
        await settle(app, pilot)
        [highlight] = services.annotations.list(book.id)
        assert highlight.quote == text.text[:12].strip()


async def test_a_search_result_opens_with_its_words_highlighted_and_n_steps_through_them() -> None:
    from reader.tui.screens.search_screen import SearchScreen

    services, book = sample_services(6)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.press("s")
        assert isinstance(app.screen, SearchScreen)
        await pilot.press(*"Thorne", "enter")
        await app.workers.wait_for_complete()
        results = app.screen.query_one(OptionList)
        await wait_until(pilot, lambda: results.option_count > 0)
        results.highlighted = 0
        await pilot.press("enter")
        await pilot.pause()
        page = app.session.number
        hits = styled(app, "bold reverse") + styled(app, "bold on $page-search-hit")
        assert hits and all(hit.lower().startswith("thorne") for hit in hits)
        assert styled(app, "bold reverse") == [hits[0]] or len(styled(app, "bold reverse")) == 1
        count = len(app.viewer.hits.spans)  # type: ignore[union-attr]
        for _ in range(count - 1):
            await pilot.press("n")
        await pilot.pause()
        assert app.viewer.hits.index == count - 1 and app.session.number == page  # type: ignore[union-attr]
        await pilot.press("n")  # past the last hit here: the next result's page
        await pilot.pause()
        result_pages = sorted(set(app.viewer.hits.pages))  # type: ignore[union-attr]
        later = [p for p in result_pages if p > page]
        assert app.session.number == (later[0] if later else page)
        await pilot.press("N")
        await pilot.pause()
        assert app.session.number == page or not later
        await pilot.press("escape")
        await pilot.pause()
        assert app.viewer.hits is None and styled(app, "bold on $page-search-hit") == []


async def test_help_lists_the_mark_and_visual_mode_keys() -> None:
    services, _ = sample_services()
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(pilot.app.screen, HelpScreen)
        shown = " ".join(str(s.content) for s in pilot.app.screen.query("Static"))
        for words in ("Bookmark", "Highlights and notes", "Visual mode", "Next search hit", "Undo a removal"):
            assert words in shown
        await pilot.press("escape")
        assert isinstance(pilot.app.screen.query_one(Input), Input)
