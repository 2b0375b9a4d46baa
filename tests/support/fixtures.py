"""Pytest fixtures from the test support package (registered in tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.scripted_server import ScriptedServer


@pytest.fixture
def scripted_server() -> Iterator[ScriptedServer]:
    """A running scripted OpenAI-compatible server on 127.0.0.1, stopped after the test."""
    with ScriptedServer() as server:
        yield server
