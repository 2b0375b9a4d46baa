"""A page opened from a chat citation shows the cited passage's words highlighted, like a search hit."""

from __future__ import annotations

from textual.widgets import Button

from reader.tui.app import ReaderApp
from reader.tui.citations import cited_words
from reader.tui.panes.chat_pane import ChatPane
from reader.tui.widgets.page_text import PageText
from tests.support import scripted_server as scripted
from tests.support.scripted_server import ScriptedServer
from tests.test_tui_chat import answered, model_services
from tests.tui_helpers import wait_until

SIZE = (120, 36)
CURRENT_HIT = "bold reverse"
HIT = "bold on $page-search-hit"


def hits(app: ReaderApp) -> list[str]:
    content = app.query_one(PageText).content
    return [content.plain[s.start : s.end] for s in content.spans if str(s.style) in (CURRENT_HIT, HIT)]


def test_cited_words_are_the_sentences_citing_the_page_without_citations() -> None:
    answer = "Imogen came to the Rock for her *uncle's* funeral [p. 2]. The letter was sealed [pp. 5-6]."
    assert cited_words(answer, "2") == "Imogen came to the Rock for her uncle's funeral"
    assert cited_words(answer, "5") == "The letter was sealed"
    assert cited_words(answer, "9") == ""


async def test_a_citation_opens_its_page_with_the_sentence_words_found_there(
    scripted_server: ScriptedServer,
) -> None:
    scripted_server.script_chat(scripted.text("Imogen heard about her uncle from Crane [p. 2]."))
    services, _ = model_services(scripted_server.base_url, page=6)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await answered(pilot, pane, "who told her")
        await pilot.click(next(b for b in pane.query(Button) if "citation" in b.classes))
        await wait_until(pilot, lambda: app.session.number == 2)
        await pilot.pause()
        shown = hits(app)
        assert shown and {word.lower().rstrip("'s") for word in shown} <= {"imogen", "uncle", "crane", "heard"}
        assert "Crane" in shown  # on the page: "Crane's voice did not change"
        viewer = app.viewer
        assert viewer.hits is not None and viewer.hits.index == 0
        text = app.query_one(PageText)
        count = len(viewer.hits.spans)
        for _ in range(count - 1):
            await pilot.press("n")
        await pilot.pause()
        last = viewer.hits.spans[-1][0]
        line = text.lines().line_of(last)
        assert viewer.hits.index == count - 1
        assert text.scroll_offset.y <= line < text.scroll_offset.y + text.scrollable_content_region.height
        await pilot.press("N")
        assert viewer.hits.index == count - 2
        assert app.session.number == 2 and app.session.horizon == 6


async def test_a_citation_whose_sentence_is_not_on_the_page_shows_the_search_that_found_it(
    scripted_server: ScriptedServer,
) -> None:
    scripted_server.script_chat(
        scripted.tool_calls(scripted.call("search_book", {"query": "uncle"})),
        scripted.text("She wept, grieving [p. 5]."),
    )
    services, _ = model_services(scripted_server.base_url, page=6)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await answered(pilot, pane, "how did she feel")
        answer = pane.query_one("AnswerItem")
        assert answer.searches.get(5) == "uncle"  # type: ignore[attr-defined]
        await pilot.click(next(b for b in pane.query(Button) if "citation" in b.classes))
        await wait_until(pilot, lambda: app.session.number == 5)
        await pilot.pause()
        shown = hits(app)
        assert shown and all(word.lower().startswith("uncle") for word in shown)


async def test_a_citation_with_no_words_on_its_page_just_opens_it(scripted_server: ScriptedServer) -> None:
    scripted_server.script_chat(scripted.text("She wept, grieving [p. 5]."))
    services, _ = model_services(scripted_server.base_url, page=6)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await answered(pilot, pane, "how did she feel")
        await pilot.click(next(b for b in pane.query(Button) if "citation" in b.classes))
        await wait_until(pilot, lambda: app.session.number == 5)
        assert app.viewer.hits is None and hits(app) == []


async def test_offline_passages_open_with_their_answering_words_highlighted_from_enter_and_click() -> None:
    from tests.tui_helpers import sample_services

    services, _ = sample_services(12)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await answered(pilot, pane, "what did Imogen find in the keeper's ledger")
        buttons = [b for b in pane.query(Button) if "citation" in b.classes]
        assert len(buttons) >= 2
        buttons[0].focus()
        await pilot.press("enter")  # from the keyboard
        first = int(buttons[0].name or 0)
        await wait_until(pilot, lambda: app.session.number == first and app.viewer.hits is not None)
        await pilot.pause()
        viewer = app.viewer
        assert app.focused is viewer and viewer.hits is not None and viewer.hits.spans and hits(app)
        if len(viewer.hits.spans) > 1:
            await pilot.press("n")
            assert viewer.hits.index == 1
            await pilot.press("N")
            assert viewer.hits.index == 0
        await pilot.press("a", "up")  # back to the conversation, then a click on another citation
        await pilot.click(buttons[1])
        second = int(buttons[1].name or 0)
        await wait_until(pilot, lambda: app.session.number == second and app.focused is viewer)
        await pilot.pause()
        assert viewer.hits is not None and viewer.hits.spans and hits(app)
        assert app.session.horizon == 12
