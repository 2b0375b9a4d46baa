"""The app's parsed CSS is kept between runs: a second start reads it instead of parsing, and looks the same."""

from __future__ import annotations

import pickle

from reader.locations import saved_css_path
from reader.tui.app import ReaderApp
from reader.tui.saved_css import SavedCss
from tests.tui_helpers import sample_services, wait_until

SIZE = (120, 36)


async def run_once() -> tuple[SavedCss, str]:
    """Start the app until start-up is over; what its CSS cache did, and the screen it showed."""
    services, _ = sample_services()
    app = ReaderApp(services)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.library.filled and app.chat.filled)
        await pilot.pause()
        screen = app.export_screenshot()
    return app.saved_css, screen


async def test_a_second_start_reads_the_rules_instead_of_parsing_them() -> None:
    assert not saved_css_path().exists()
    first, first_screen = await run_once()
    assert first.read == 0 and first.parsed > 10  # app.tcss and the widgets' default CSS
    assert saved_css_path().exists()

    second, second_screen = await run_once()
    assert second.parsed == 0
    assert second.read >= first.parsed  # (the dialogs' CSS is not parsed at start)
    assert second_screen == first_screen


async def test_a_corrupt_or_foreign_file_is_parsed_over() -> None:
    path = saved_css_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a pickle")
    corrupt, _ = await run_once()
    assert corrupt.read == 0 and corrupt.parsed > 10

    identity, variables, rules = pickle.loads(path.read_bytes())  # rewritten whole
    assert rules and variables
    path.write_bytes(pickle.dumps((("another textual", *identity[1:]), variables, rules)))
    foreign, _ = await run_once()
    assert foreign.read == 0 and foreign.parsed > 10

    identity, variables, rules = pickle.loads(path.read_bytes())
    path.write_bytes(pickle.dumps((identity, {**variables, "primary": "#123456"}, rules)))  # another theme's
    other_theme, _ = await run_once()
    assert other_theme.read == 0 and other_theme.parsed > 10
