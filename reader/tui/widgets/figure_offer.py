"""Under an answer: the cited pages that have pictures or figures, each a button that shows it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Button, Static

from reader.domain.errors import ReaderError
from reader.tui.widgets.citation_bar import CitationFollowed

WHOLE_PAGE_IMPORTANCE = 4
"""A cited PDF page this much about its figures is shown as printed (as `p` shows it)."""


class FigureOffer(Horizontal):
    """ "▣ Figures:" and a "show p. N" button per cited page with pictures."""

    DEFAULT_CSS = """
    FigureOffer {
        height: auto;
        padding: 0 1;
    }
    FigureOffer > Static {
        width: auto;
        color: $text-muted;
        padding-right: 1;
    }
    FigureOffer > Button {
        margin-right: 1;
    }
    """

    def __init__(self, pages: list[tuple[str, int, bool]]) -> None:
        super().__init__(classes="figure-offer")
        self.pages = pages
        """(label, page, shown as printed) per cited page with pictures."""

    def compose(self) -> ComposeResult:
        yield Static("▣ Figures:")
        for label, page, _ in self.pages:
            yield Button(f"show p. {label}", name=str(page), classes="figure-show", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        page = int(event.button.name or 0)
        label, _, whole = next(entry for entry in self.pages if entry[1] == page)
        viewer = getattr(self.app, "viewer", None)
        if viewer is not None:
            viewer.whole_page = whole
        self.post_message(CitationFollowed(label, page))


def pages_with_figures(app: Any, citations: Mapping[str, int | None]) -> list[tuple[str, int, bool]]:
    """The cited pages (at or before the reading position) that have pictures or figures."""
    session = getattr(app, "session", None)
    services = getattr(app, "services", None)
    if session is None:
        return []
    found = []
    for label, page in citations.items():
        try:
            number = page or session.resolve(label)
        except ReaderError:
            continue
        if not 1 <= number <= min(session.horizon, len(session.pages)):
            continue
        stored = session.pages[number - 1]
        pdf = session.book.format == "pdf"
        pictured = stored.has_figures or (
            not pdf and services is not None and bool(services.images.on_page(session.book.id, number))
        )
        if pictured:
            found.append((label, number, pdf and stored.visual_importance >= WHOLE_PAGE_IMPORTANCE))
    return found


async def offer_figures(answer: Any, citations: Mapping[str, int | None]) -> None:
    """Put (or replace) the offer under `answer` for its cited pages with pictures."""
    await answer.query(FigureOffer).remove()
    pages = pages_with_figures(answer.app, citations)
    if pages:
        await answer.mount(FigureOffer(pages))
