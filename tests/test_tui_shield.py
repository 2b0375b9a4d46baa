"""The spoiler shield in the app: a leaky scripted model, the held-back line, Ctrl+R, a restart, a move."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Markdown

from reader.services import Services
from reader.tui.app import ReaderApp
from reader.tui.panes.chat_pane import ChatPane
from reader.tui.screens.confirm_screen import ConfirmScreen
from reader.tui.widgets.answer_item import AnswerItem, HeldNotice
from tests.support import scripted_server as scripted
from tests.test_tui_chat_model import configure_model
from tests.tui_helpers import sample_services, wait_until

LEAK = "Imogen Vale came to Gull Rock [p. 1]. Then she rows to Morvoren Quay. It ends well."


def answers(pane: ChatPane) -> list[str]:
    """Each answer's Markdown source ("" while an item's Markdown is not mounted yet)."""
    return [next((md.source for md in item.query(Markdown)), "") for item in pane.query(AnswerItem)]


async def ask(pilot: Any, pane: ChatPane, question: str) -> None:
    await pilot.press("a", *question, "enter")
    await wait_until(pilot, lambda: pane.running is None and bool(pane.query(AnswerItem)), timeout=60)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def test_held_back_answer_reveals_after_a_confirmation_and_stays_revealed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with scripted.ScriptedServer() as server:
        server.script_chat(scripted.text(LEAK))
        configure_model(server.base_url, monkeypatch)
        services, _ = sample_services(10)
        async with ReaderApp(services).run_test(size=(120, 36)) as pilot:
            pane = pilot.app.query_one(ChatPane)
            await ask(pilot, pane, "what happens next?")
            (shown,) = answers(pane)
            assert "Gull Rock" in shown and "Morvoren" not in shown
            assert pane.query(HeldNotice)
            await pilot.press("ctrl+r")
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
            await pilot.press("y")
            await wait_until(pilot, lambda: "Morvoren Quay" in answers(pane)[0])
            assert not pane.query(HeldNotice)
            conversation = pane.conversation_id
        services.close()

        again = Services.open()
        async with ReaderApp(again).run_test(size=(120, 36)) as pilot:
            pane = pilot.app.query_one(ChatPane)
            assert conversation is not None
            pane.open_conversation(conversation)
            # the answer's Markdown fills after the item mounts: wait for its text, not just the item
            await wait_until(pilot, lambda: bool(pane.query(AnswerItem)) and bool(answers(pane)[0]))
            assert "Morvoren Quay" in answers(pane)[0] and not pane.query(HeldNotice)


async def test_moving_the_position_past_the_spoiler_shows_it(monkeypatch: pytest.MonkeyPatch) -> None:
    with scripted.ScriptedServer() as server:
        server.script_chat(scripted.text(LEAK))
        configure_model(server.base_url, monkeypatch)
        services, _ = sample_services(10)
        async with ReaderApp(services).run_test(size=(120, 36)) as pilot:
            app = pilot.app
            pane = app.query_one(ChatPane)
            await ask(pilot, pane, "what happens next?")
            assert "Morvoren" not in answers(pane)[0] and pane.query(HeldNotice)
            await pilot.press("escape")
            app.viewer.jump_to(26)
            await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("y")
            await wait_until(pilot, lambda: "Morvoren Quay" in answers(pane)[0], timeout=10)
            assert not pane.query(HeldNotice)
