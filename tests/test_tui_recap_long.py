"""A long story so far paints its start at once and appends the rest; its page buttons are the latest."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Button, Markdown, Static

from reader.domain.knowledge import Recap, SectionSummary
from reader.tui.citations import linkify_citations
from reader.tui.screens.recap_screen import RECENT_CITATIONS, RecapScreen, markdown_pieces
from tests.tui_helpers import wait_until


def long_recap(chapters: int = 120) -> Recap:
    sections, parts = [], []
    for index in range(chapters):
        text = " ".join(
            f"Sentence {n} of chapter {index} tells of the harbour [p. {index + 1}]." for n in range(6)
        )
        sections.append(SectionSummary(index, f"Chapter {index}", index + 1, index + 1, text, "extractive"))
        parts.append(f"### Chapter {index} (p. {index + 1})\n\n{text}")
    return Recap(chapters, "\n\n".join(parts), tuple(sections), "extractive")


def test_pieces_cut_between_blocks_and_join_to_the_text() -> None:
    text = long_recap().text
    pieces = markdown_pieces(text, 4_000, 8_000)
    assert "".join(pieces) == text and len(pieces) > 3
    assert all(piece.endswith("\n\n") for piece in pieces[:-1])
    assert 4_000 <= len(pieces[0]) < 4_000 + 1_000
    assert markdown_pieces("short") == ["short"]


class Host(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("the page")


async def test_a_long_recap_shows_its_start_then_all_of_it_with_the_latest_pages() -> None:
    recap = long_recap()
    app = Host()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = RecapScreen(lambda: recap, "120")
        await app.push_screen(screen)
        markdown = screen.query_one("#recap-text", Markdown)
        await wait_until(pilot, lambda: screen.recap is not None and bool(markdown.source))
        assert len(markdown.source) < len(recap.text)  # the start first
        labels = [button.name for button in screen.query(Button)]
        assert labels == [str(page) for page in range(120 - RECENT_CITATIONS + 1, 121)]
        await wait_until(pilot, lambda: screen.complete, timeout=30)
        assert markdown.source == linkify_citations(recap.text)
        await pilot.press("escape")
        assert not isinstance(app.screen, RecapScreen)
