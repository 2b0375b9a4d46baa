"""Shared fixtures: every test gets its own library file and config; no network, no real model."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.fixtures import scripted_server  # noqa: F401 - a fixture for every test

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point the library, the config, the caches and the platform dirs at a temporary folder."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("READER_DB", str(home / "library.db"))
    monkeypatch.setenv("READER_CONFIG", str(home / "config.toml"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE"):
        monkeypatch.delenv(name, raising=False)
    return home
