"""SVG snapshots of the main screen in every theme (pytest-textual-snapshot, fixed size)."""

from __future__ import annotations

import pytest

from reader.tui.app import ReaderApp
from tests.tui_helpers import sample_services

THEMES = ["reader-dark", "reader-light", "reader-sepia", "reader-high-contrast"]


async def settled(pilot) -> None:  # noqa: ANN001 - Pilot
    """Let the workers finish (the time left in the header loads in one) so every run draws the same."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.fixture
def fixed_config_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chat's how-to-configure notice shows the config path; keep it the same in every run."""
    monkeypatch.setenv("READER_CONFIG", "/home/reader/.config/reader/config.toml")


@pytest.mark.parametrize("theme", THEMES)
def test_main_screen(theme: str, snap_compare, fixed_config_path: None) -> None:  # noqa: ANN001
    services, book = sample_services()
    services.settings.set("theme", theme)
    services.books.set_current_page(book.id, 2)
    assert snap_compare(ReaderApp(services), terminal_size=(100, 30), run_before=settled)


def test_narrow_terminal_shows_the_page_alone(snap_compare, fixed_config_path: None) -> None:  # noqa: ANN001
    services, _ = sample_services()
    assert snap_compare(ReaderApp(services), terminal_size=(80, 24), run_before=settled)


def test_page_with_a_highlight_and_a_note(snap_compare, fixed_config_path: None) -> None:  # noqa: ANN001
    services, book = sample_services(2)
    text = services.pages.range_text(book.id, 2, 2)
    start = text.index("Crane's voice")
    services.annotations.highlight(book.id, 2, text, start, start + len("Crane's voice did not change"))
    start = text.index("his hand on the tiller")
    services.annotations.highlight(
        book.id, 2, text, start, start + len("his hand on the tiller"), note="nerves"
    )
    services.bookmarks.name(book.id, 2, "the wreck")
    assert snap_compare(ReaderApp(services), terminal_size=(100, 30), run_before=settled)


def test_page_opened_from_a_search_with_its_hits(snap_compare, fixed_config_path: None) -> None:  # noqa: ANN001
    services, book = sample_services(6)

    async def open_hit(pilot) -> None:  # noqa: ANN001 - Pilot
        await settled(pilot)
        pilot.app.viewer.show_search_hits(5, "Thorne", [5])
        await pilot.pause()

    assert snap_compare(ReaderApp(services), terminal_size=(100, 30), run_before=open_hit)
