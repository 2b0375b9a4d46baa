"""Refining the X-Ray from the app: the dialog's key and the palette run it in a worker, show progress,
refresh the list, stop on Esc; offline it says how to set a model. Driven with the Pilot against the
scripted server on 127.0.0.1."""

from __future__ import annotations

from textual.widgets import OptionList, Static

from reader.app.knowledge.refine_sections import refine_sections
from reader.tui.app import ReaderApp
from reader.tui.screens.help_screen import HelpScreen
from reader.tui.screens.xray_screen import XRayScreen
from tests.support import scripted_server as scripted
from tests.test_tui_knowledge import option_texts
from tests.test_xray_refine import answer, write_config
from tests.tui_helpers import sample_services, wait_until

SIZE = (130, 40)


def note_text(screen: XRayScreen) -> str:
    return str(screen.query_one("#xray-note", Static).content)


def names_listed(screen: XRayScreen) -> list[str]:
    return [t.rsplit("  ", 1)[0] for t in option_texts(screen.query_one("#xray-concepts", OptionList))]


async def test_m_refines_in_a_worker_and_refreshes_the_list(scripted_server) -> None:
    server = scripted_server
    write_config(server.base_url)
    services, _ = sample_services(5)
    server.script_chat(
        answer([["Gull Rock", "the Rock"]], {"tower": "not-a-name"}), answer([], {"inquiry": "term"})
    )
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.press("x")
        screen = app.screen
        assert isinstance(screen, XRayScreen)
        assert "m: refine with the model" in str(screen.query_one("#xray").border_subtitle)
        before = names_listed(screen)
        assert "tower" in before and "the Rock" in before
        await pilot.press("m")
        await wait_until(pilot, lambda: screen.refining is None and "Refined" in note_text(screen))
        after = names_listed(screen)
        assert "tower" not in after and "the Rock" not in after and "Gull Rock" in after
        assert note_text(screen) == (
            "Refined the X-Ray of The Keeper of Gull Rock with openai/scripted: 2 of 2 chapters."
        )
        concepts = screen.query_one("#xray-concepts", OptionList)
        concepts.highlighted = after.index("Gull Rock")
        await wait_until(pilot, lambda: screen.detail is not None and screen.detail.entry.name == "Gull Rock")
        assert "Also: the Rock" in str(screen.query_one("#xray-about", Static).content)

        await pilot.press("m")  # cached: no call
        await wait_until(pilot, lambda: screen.refining is None and "from the cache" in note_text(screen))
        assert len(server.chat_requests()) == 2


async def test_esc_stops_a_refinement_and_keeps_the_chapters_done(scripted_server) -> None:
    server = scripted_server
    write_config(server.base_url)
    services, book = sample_services(8)
    server.script_chat(answer([["Gull Rock", "the Rock"]], {}), scripted.delay(0.5, answer([], {})))
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.press("x")
        screen = app.screen
        assert isinstance(screen, XRayScreen)
        await pilot.press("m")
        await wait_until(pilot, lambda: "chapter 1 of 3" in note_text(screen))
        await pilot.press("escape")
        assert isinstance(app.screen, XRayScreen) and note_text(screen).startswith("Stopping")
        await wait_until(pilot, lambda: screen.refining is None)
        assert "cancelled: the chapters done are kept" in note_text(screen)
        assert "the Rock" not in names_listed(screen)
        await pilot.press("escape")
        assert not isinstance(app.screen, XRayScreen)
    assert len(server.chat_requests()) == 2
    rows = services.db.conn.execute("SELECT scope FROM concept_refinements WHERE book_id = ?", (book.id,))
    first = refine_sections(services.books.chapters(book.id), book.page_count, book.story_start, 5)[0]
    assert [r[0] for r in rows.fetchall()] == [first.scope]  # the first chapter, kept


async def test_the_palette_refines_and_offline_the_dialog_says_how_to_set_a_model() -> None:
    services, _ = sample_services(5)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        commands = {c.title: c for c in app.get_system_commands(app.screen)}
        commands["X-Ray: refine with the model"].callback()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, XRayScreen)
        await wait_until(pilot, lambda: "[chat] model" in note_text(screen))
        assert screen.refining is None and "Gull Rock" in names_listed(screen)
        await pilot.press("escape")
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = " ".join(str(s.content) for s in app.screen.query(Static))
        assert "Refine with the model" in text
