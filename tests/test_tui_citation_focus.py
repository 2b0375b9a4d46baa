"""The focused citation button stands out in every shipped theme: its text reads against its block, and
its block is far from how the other citations look."""

from __future__ import annotations

import pytest
from rich.style import Style
from textual.geometry import Region
from textual.widgets import Button

from reader.tui.app import ReaderApp
from reader.tui.panes.chat_pane import ChatPane
from reader.tui.themes import STOCK_THEMES, builtin_themes_dir, load_themes
from tests.test_tui_chat import answered
from tests.tui_helpers import sample_services

THEMES = sorted({theme.name for theme in load_themes([builtin_themes_dir()]).themes} | set(STOCK_THEMES))
READABLE = 4.5
"""WCAG AA contrast for text."""
APART = 3.0
"""Contrast between the focused citation's block and an unfocused one's background."""

RGB = tuple[int, int, int]


def luminance(rgb: RGB) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: RGB, other: RGB) -> float:
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def label_colours(button: Button) -> tuple[RGB, RGB]:
    """(text, background) of the button's label as painted."""
    line = button.render_lines(Region(0, 0, button.size.width, 1))[0]
    label = str(button.label)
    style = next(s.style for s in line if s.text.strip() and s.text.strip() in label and s.style)
    assert isinstance(style, Style) and style.color is not None and style.bgcolor is not None
    fg, bg = style.color.get_truecolor(), style.bgcolor.get_truecolor()
    text, back = (tuple(fg), tuple(bg)) if not style.reverse else (tuple(bg), tuple(fg))
    return text, back  # type: ignore[return-value]


@pytest.mark.parametrize("theme", THEMES)
async def test_the_focused_citation_is_unmistakable(theme: str) -> None:
    services, _ = sample_services(12)
    services.settings.set("theme", theme)
    async with ReaderApp(services).run_test(size=(120, 40)) as pilot:
        app = pilot.app
        assert app.theme == theme
        pane = app.query_one(ChatPane)
        await answered(pilot, pane, "what did Imogen find in the keeper's ledger")
        buttons = [b for b in pane.query(Button) if "citation" in b.classes]
        assert len(buttons) >= 2
        buttons[0].focus()
        await pilot.pause()
        text, block = label_colours(buttons[0])
        other_text, other_back = label_colours(buttons[1])
        assert contrast(text, block) >= READABLE, (theme, text, block)
        assert contrast(other_text, other_back) >= READABLE, (theme, other_text, other_back)
        assert contrast(block, other_back) >= APART, (theme, block, other_back)
