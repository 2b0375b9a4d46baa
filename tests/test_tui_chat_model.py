"""The chat pane against the real chat use case and the scripted OpenAI-compatible server."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.widgets import Button, Markdown

from reader.tui.app import ReaderApp
from reader.tui.panes.chat_pane import ChatPane
from tests.support import scripted_server as scripted
from tests.tui_helpers import sample_services, wait_until


def configure_model(base_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCRIPTED_KEY", "test-key")
    Path(os.environ["READER_CONFIG"]).write_text(
        "[chat]\n"
        'model = "openai/scripted"\n'
        f'api_base = "{base_url}"\n'
        'api_key_env = "SCRIPTED_KEY"\n'
        'tool_calling = "on"\n',
        encoding="utf-8",
    )


async def test_ask_the_scripted_model_and_follow_its_citation(monkeypatch: pytest.MonkeyPatch) -> None:
    with scripted.ScriptedServer() as server:
        server.script_chat(scripted.text("Imogen Vale crossed to Gull Rock with Silas Crane [p. 2]."))
        configure_model(server.base_url, monkeypatch)
        services, book = sample_services(3)
        async with ReaderApp(services).run_test(size=(120, 36)) as pilot:
            app = pilot.app
            pane = app.query_one(ChatPane)
            await pilot.press("a", *"who took her across?", "enter")
            await wait_until(pilot, lambda: pane.running is None and bool(pane.query(Markdown)), timeout=60)
            await app.workers.wait_for_complete()
            await pilot.pause()
            source = pane.query_one(Markdown).source
            assert "Silas Crane" in source and "(page:2)" in source
            buttons = [b for b in pane.query(Button) if "citation" in b.classes]
            assert buttons and str(buttons[0].label) == "p. 2"
            await pilot.click(buttons[0])
            await pilot.pause()
            assert app.session.number == 2
