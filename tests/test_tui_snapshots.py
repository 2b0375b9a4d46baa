"""SVG snapshots of the main screen in every theme (pytest-textual-snapshot, fixed size)."""

from __future__ import annotations

import pytest

from reader.tui.app import ReaderApp
from tests.tui_helpers import sample_services

THEMES = ["reader-dark", "reader-light", "reader-sepia", "reader-high-contrast"]


@pytest.fixture
def fixed_config_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chat's how-to-configure notice shows the config path; keep it the same in every run."""
    monkeypatch.setenv("READER_CONFIG", "/home/reader/.config/reader/config.toml")


@pytest.mark.parametrize("theme", THEMES)
def test_main_screen(theme: str, snap_compare, fixed_config_path: None) -> None:  # noqa: ANN001
    services, book = sample_services()
    services.settings.set("theme", theme)
    services.books.set_current_page(book.id, 2)
    assert snap_compare(ReaderApp(services), terminal_size=(100, 30))


def test_narrow_terminal_shows_the_page_alone(snap_compare, fixed_config_path: None) -> None:  # noqa: ANN001
    services, _ = sample_services()
    assert snap_compare(ReaderApp(services), terminal_size=(80, 24))
