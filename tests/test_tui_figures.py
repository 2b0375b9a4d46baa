"""The app with pages that have figures: the header marker, opening a page in the PDF viewer, enrich status."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader
from textual.widgets import Static

from reader.domain.enrichment import (
    ENRICHMENT_SCHEMA_VERSION,
    Enrichment,
    StoredEnrichment,
    page_content_hash,
)
from reader.services import Services
from reader.tui import open_page
from reader.tui.app import ReaderApp
from reader.tui.screens.help_screen import HelpScreen
from reader.tui.widgets.book_list import BookList
from reader.tui.widgets.key_hints import KeyHints
from reader.tui.widgets.page_header import PageHeader
from reader.tui.widgets.page_text import PageText
from tests.fixtures_books import write_figure_pdf
from tests.tui_helpers import sample_services, wait_until

SIZE = (120, 36)


def header(app: ReaderApp) -> str:
    return app.query_one(PageHeader).line.position


def messages(app: ReaderApp) -> list[str]:
    return [n.message for n in app._notifications]


@pytest.fixture
def figure_library(tmp_path: Path) -> tuple[Services, str]:
    pdf = write_figure_pdf(tmp_path / "figures.pdf", ("prose", "captioned", "figure", "prose"))
    services = Services.open()
    book = services.importer.import_file(pdf).book
    assert book is not None
    return services, book.id


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Files the app asked the system to open (nothing is really opened in tests)."""
    opened: list[Path] = []
    monkeypatch.setattr(open_page, "launch", opened.append)
    return opened


async def test_a_page_with_figures_is_marked_in_the_header(figure_library: tuple[Services, str]) -> None:
    services, book_id = figure_library
    async with ReaderApp(services, book_id=book_id).run_test(size=SIZE) as pilot:
        app = pilot.app
        assert header(app) == "p. 1 · 1 of 4 · 25%"
        await pilot.press("right")
        await pilot.pause()
        assert header(app) == "▣ figures · p. 2 · 2 of 4 · 50%"
        await pilot.press("right", "right")
        await pilot.pause()
        assert "▣ figures" not in header(app) and header(app).startswith("p. 4")


async def test_a_full_page_figure_says_so_and_offers_o(figure_library: tuple[Services, str]) -> None:
    services, book_id = figure_library
    async with ReaderApp(services, book_id=book_id).run_test(size=SIZE) as pilot:
        app = pilot.app
        hints = app.query_one(KeyHints)
        assert "Open in PDF viewer" not in str(hints.content)  # page 1 is prose
        await pilot.press("right", "right")
        await pilot.pause()
        assert app.session.number == 3
        shown = app.query_one(PageText).text
        assert shown == "(This page is a figure with no text. Press p to see it as printed, o to open it in the PDF viewer.)"
        assert "Open in PDF viewer" in str(hints.content)
        await pilot.press("right")
        await pilot.pause()
        assert "Open in PDF viewer" not in str(hints.content)


async def test_o_opens_the_page_on_screen_as_its_own_pdf(
    figure_library: tuple[Services, str], launched: list[Path]
) -> None:
    services, book_id = figure_library
    services.books.set_current_page(book_id, 3)
    async with ReaderApp(services, book_id=book_id).run_test(size=SIZE, notifications=True) as pilot:
        app = pilot.app
        await pilot.press("o")
        await wait_until(pilot, lambda: bool(launched))
        await app.workers.wait_for_complete()
        await pilot.pause()
        (path,) = launched
        reader = PdfReader(io.BytesIO(path.read_bytes()))
        assert len(reader.pages) == 1 and reader.pages[0].images  # the full-page figure
        assert any(m.startswith("Opened p. 3 in the PDF viewer") for m in messages(app))


async def test_o_without_a_viewer_says_where_the_page_is(
    figure_library: tuple[Services, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    services, book_id = figure_library
    monkeypatch.setattr(open_page, "opener_command", lambda: None)
    async with ReaderApp(services, book_id=book_id).run_test(size=SIZE, notifications=True) as pilot:
        app = pilot.app
        await pilot.press("o")
        await wait_until(pilot, lambda: any("No program to open files" in m for m in messages(app)))
        (message,) = [m for m in messages(app) if "No program" in m]
        assert "the page is saved at" in message and message.rstrip(".").endswith(".pdf")


async def test_o_on_a_book_that_is_not_a_pdf_explains_why_nothing_opens(launched: list[Path]) -> None:
    services, _ = sample_services()
    async with ReaderApp(services).run_test(size=SIZE, notifications=True) as pilot:
        app = pilot.app
        await pilot.press("o")
        await pilot.pause()
        assert launched == []
        expected = (
            "The Keeper of Gull Rock is a Markdown book: only PDF books have pages to open in a PDF viewer."
        )
        assert expected in messages(app)


async def test_help_lists_the_open_page_key() -> None:
    services, _ = sample_services()
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, HelpScreen)
        text = " ".join(str(s.content) for s in screen.query(Static))
        assert "Open in PDF viewer" in text


async def test_the_library_shows_how_far_a_book_is_enriched(figure_library: tuple[Services, str]) -> None:
    services, book_id = figure_library
    chunks = services.chunks.get_by_page_range(book_id, 1, 1)
    enrichment = Enrichment("The keeper climbs.", (), (), 4)
    services.enrichments.save(
        StoredEnrichment(
            book_id, 1, ENRICHMENT_SCHEMA_VERSION, page_content_hash(chunks, 1), "openai/scripted", enrichment
        )
    )
    async with ReaderApp(services, book_id=book_id).run_test(size=SIZE) as pilot:
        await pilot.pause()
        book_list = pilot.app.query_one(BookList)
        prompt = str(book_list.get_option(book_id).prompt)
        assert "enriched 1/4" in prompt  # every page has text or a figure
        # the model's visual importance replaced the measured one: page 1 now shows the marker
        assert header(pilot.app).startswith("▣ figures · p. 1")
