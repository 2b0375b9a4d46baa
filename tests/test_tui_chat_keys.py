"""Reading the chat from the keyboard with no model configured: scrolling a long offline answer, Tab
between citations, the wide chat, leaving the ask box, the offline answer's blocks and its config block."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, Input, Markdown

from reader.tui.app import ReaderApp
from reader.tui.panes.chat_pane import CONFIG_EXAMPLE, ChatPane
from reader.tui.widgets.chat_log import ChatLog
from reader.tui.widgets.chat_notices import CodeItem, NoticeItem
from reader.tui.widgets.key_hints import KeyHints
from tests.test_tui_chat import answered
from tests.tui_helpers import sample_services, wait_until

QUESTION = "what did Imogen find in the keeper's ledger"


def hints(app: ReaderApp) -> str:
    return str(app.query_one(KeyHints).content)


async def scrolled(pilot: Pilot[object], *keys: str) -> None:
    """Press `keys`, then wait until the scrolls they start have finished."""
    await pilot.press(*keys)
    await pilot.wait_for_scheduled_animations()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_long_offline_answer_scrolls_from_the_keyboard(size: tuple[int, int]) -> None:
    services, _ = sample_services(12)
    async with ReaderApp(services).run_test(size=size) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await answered(pilot, pane, QUESTION)
        log = pane.query_one(ChatLog)
        assert log.max_scroll_y > 0  # the answer is longer than the pane
        # it arrived whole: its question is at the top, not pushed off-screen by its end (the log scrolls
        # there once the answer is laid out: under load that can come a few frames after the answer)
        question = pane.query_one(".chat-question")
        await pilot.wait_for_scheduled_animations()
        await wait_until(pilot, lambda: 0 <= question.region.y - log.region.y <= 1)
        await pilot.press("up")  # from the ask box up into the conversation
        assert app.focused is log
        assert "Scroll" in hints(app) and "Next citation" in hints(app)
        # Textual animates these scrolls: each check waits for its animation to end (under load it lags)
        await scrolled(pilot, "end")
        assert log.scroll_y == log.max_scroll_y
        await scrolled(pilot, "home")
        assert log.scroll_y == 0
        await scrolled(pilot, "pagedown")
        assert log.scroll_y > 1
        down = log.scroll_y
        await scrolled(pilot, "pageup")
        assert log.scroll_y < down
        await scrolled(pilot, "j", "j")
        assert log.scroll_y >= 2
        await scrolled(pilot, "k")
        assert log.scroll_y >= 1
        # Tab walks the citations (past the config block); each focused one is scrolled into view
        citations = [b for b in pane.query(Button) if "citation" in b.classes]
        assert citations
        for _ in range(6):
            await pilot.press("tab")
            if app.focused is citations[0]:
                break
        assert app.focused is citations[0]
        await pilot.press("tab")
        assert len(citations) == 1 or app.focused is citations[1]
        focused = app.focused
        assert focused is not None and log.region.contains_region(focused.region)


async def test_escape_leaves_the_ask_box_and_the_footer_says_so() -> None:
    services, _ = sample_services(6)
    async with ReaderApp(services).run_test(size=(120, 40)) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await pilot.press("a")
        await wait_until(pilot, lambda: app.focused is not None and app.focused.id == "chat-input")
        assert "Leave the ask box" in hints(app)
        await pilot.press("1", "2")
        assert app.query_one("#chat-input", Input).value == "12"  # digits are text here, not page jumps
        await pilot.press("escape")
        assert app.focused is app.viewer
        assert "Leave the ask box" not in hints(app)
        assert pane.display


async def test_w_gives_the_chat_the_screen_and_back() -> None:
    services, _ = sample_services(6)
    async with ReaderApp(services).run_test(size=(120, 40)) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await answered(pilot, pane, QUESTION)
        narrow_width = pane.size.width
        await pilot.press("up", "w")
        await pilot.pause()
        assert not app.viewer.display and not app.library.display
        assert pane.outer_size.width == 120 and pane.size.width > narrow_width
        assert pane.has_focus_within
        await pilot.press("w")
        await pilot.pause()
        assert app.viewer.display and pane.size.width == narrow_width
        await pilot.press("w", "escape")  # Esc from the wide chat gives the page back too
        await pilot.pause()
        assert app.viewer.display and app.focused is app.viewer and pane.size.width == narrow_width


async def test_offline_answers_are_blocks_and_the_no_model_note_is_said_once() -> None:
    services, _ = sample_services(12)
    async with ReaderApp(services).run_test(size=(120, 40)) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await answered(pilot, pane, "Who is Imogen?")
        await answered(pilot, pane, QUESTION)
        notes = [n for n in pane.query(NoticeItem) if "No model is configured" in str(n.content)]
        assert len(notes) == 1
        first = pane.query(Markdown).first().source
        blocks = first.split("\n\n")
        assert blocks[0] == "**What the X-Ray knows**"
        assert blocks[1].startswith("**Imogen")
        assert "**Passages up to p. 12 that best match your question**" in blocks
        passages = blocks[blocks.index("**Passages up to p. 12 that best match your question**") + 1 :]
        assert passages and all(block.startswith("> ") and "[p. " in block for block in passages)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_config_block_wraps_inside_the_pane_and_copies_whole(size: tuple[int, int]) -> None:
    services, _ = sample_services(6)
    async with ReaderApp(services).run_test(size=size) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await pilot.press("a")
        await wait_until(pilot, lambda: pane.filled and bool(pane.query(CodeItem)))
        await pilot.pause()
        code = pane.query_one(CodeItem)
        assert code.code == CONFIG_EXAMPLE
        assert code.region.right <= pane.content_region.right  # inside the pane
        shown = "".join(
            "".join(segment.text for segment in line).strip("│╭╮╰╯─ ")
            for line in code.render_lines(code.region.reset_offset)
        )
        for line in CONFIG_EXAMPLE.splitlines():  # every character is on screen, none cut at the edge
            assert "".join(line.split()) in "".join(shown.split())
        code.focus()
        await pilot.press("c")
        assert app.clipboard == CONFIG_EXAMPLE


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_notices_do_not_cover_the_ask_box(size: tuple[int, int]) -> None:
    from textual.widgets._toast import Toast

    services, _ = sample_services(6)
    async with ReaderApp(services).run_test(size=size, notifications=True) as pilot:
        app = pilot.app
        await pilot.press("a")
        await wait_until(pilot, lambda: app.focused is not None and app.focused.id == "chat-input")
        app.notify("A notice of some length that takes two lines or so in the toast", timeout=5)
        await wait_until(pilot, lambda: bool(app.screen.query(Toast)))
        await pilot.pause()
        ask = app.query_one("#chat-input").region
        for toast in app.screen.query(Toast):
            assert not toast.region.overlaps(ask), (toast.region, ask)


async def test_while_an_answer_comes_the_footer_says_esc_cancels_it(scripted_server) -> None:  # noqa: ANN001
    import threading

    from tests.support import scripted_server as scripted
    from tests.test_tui_chat import ask, held, model_services

    release = threading.Event()
    scripted_server.script_chat(held(scripted.text("The keeper lit it [p. 2]."), release))
    services, _ = model_services(scripted_server.base_url)
    async with ReaderApp(services).run_test(size=(120, 40)) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await ask(pilot, "who lit the lamp")
        await wait_until(pilot, lambda: pane.running is not None)
        await pilot.pause()
        assert "Cancel answer" in hints(app) and "Leave the ask box" not in hints(app)
        release.set()
        await wait_until(pilot, lambda: pane.running is None)
        await pilot.pause()
        assert "Leave the ask box" in hints(app) and "Cancel answer" not in hints(app)
