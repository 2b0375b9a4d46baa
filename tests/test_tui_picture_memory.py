"""What drawn pictures leave for the garbage collector: pictures in half-block cells are kept as their
pixels and made into strips only for the page shown, the escape codes memoised for their styles are
dropped once their page is left, and a due full collection runs while a page is read, not in a turn."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

from rich.color import ColorSystem
from rich.style import Style
from textual.strip import Strip

from reader.services import Services
from reader.startup import IDLE_COLLECT_FROM, collect_if_due
from reader.tui.app import ReaderApp
from reader.tui.images.cells import UPPER_HALF, CellPicture, halfblock_strips
from reader.tui.images.illustrated_text import IllustratedPageText
from reader.tui.images.picture_cache import PictureCache
from reader.tui.images.render import draw_picture
from tests.fixtures_images import write_picture_book
from tests.tui_helpers import wait_until

SIZE = (120, 40)


def imported(path: Path) -> tuple[Services, str]:
    services = Services.open()
    book = services.importer.import_file(path).book
    assert book is not None
    return services, book.id


def test_a_picture_in_cells_is_kept_as_its_pixels_and_drawn_the_same() -> None:
    from PIL import Image

    image = Image.effect_noise((6, 8), 60).convert("RGB")
    drawn = draw_picture("cells", image, 6, 4, 3)
    assert drawn.strips == [] and isinstance(drawn.cells, CellPicture)
    assert isinstance(drawn.cells.pixels, bytes) and not gc.is_tracked(drawn.cells.pixels)
    made = drawn.lines()
    expected = halfblock_strips(image, 6, 4, pad_left=3)
    assert [list(strip) for strip in made] == [list(strip) for strip in expected]
    assert all(strip.text == " " * 3 + UPPER_HALF * 6 for strip in made)
    cache = PictureCache(max_cells=100)
    cache.put(("picture", 6, 4, "cells"), drawn)
    assert cache.cells == (3 + 6) * 4  # counted by the cells it covers, as when it was strips


async def test_a_page_shows_its_picture_from_the_compact_cache_and_turning_back_redraws_it(tmp_path: Path) -> None:
    services, book_id = imported(write_picture_book(tmp_path / "plates.epub", 4))
    async with ReaderApp(services, book_id=book_id).run_test(size=SIZE) as pilot:
        app = pilot.app
        text = app.query_one(IllustratedPageText)
        await wait_until(pilot, text.settled)  # drawn, or in the cache shared by the tests
        first = [strip.text for strip in text._strips]
        assert any(UPPER_HALF * 4 in line for line in first)
        app.query_one("#viewer").focus()
        await pilot.pause()
        await pilot.press("right")
        await wait_until(pilot, lambda: app.session is not None and app.session.number == 2 and text.settled())
        drawn = text.pictures_drawn
        await pilot.press("left")  # back: drawn from the cache at once, no new drawing
        await wait_until(pilot, lambda: app.session is not None and app.session.number == 1)
        await pilot.pause()
        assert [strip.text for strip in text._strips] == first
        assert text.pictures_drawn == drawn
        assert len(text._shown_lines) == 1  # strips are made for the page shown only


async def test_leaving_a_page_of_pictures_drops_their_memoised_escape_codes(tmp_path: Path) -> None:
    services, book_id = imported(write_picture_book(tmp_path / "plates.epub", 4))
    async with ReaderApp(services, book_id=book_id).run_test(size=SIZE) as pilot:
        app = pilot.app
        text = app.query_one(IllustratedPageText)
        await wait_until(pilot, text.settled)  # drawn, or in the cache shared by the tests
        left_behind = Style(color="#123456", bgcolor="#654321")
        Strip.render_ansi(left_behind, ColorSystem.TRUECOLOR)
        hits = Strip.render_ansi.cache_info().hits
        Strip.render_ansi(left_behind, ColorSystem.TRUECOLOR)
        assert Strip.render_ansi.cache_info().hits == hits + 1  # memoised
        app.query_one("#viewer").focus()
        await pilot.press("right")
        await pilot.pause()
        await wait_until(pilot, lambda: app.session is not None and app.session.number == 2)
        hits = Strip.render_ansi.cache_info().hits
        Strip.render_ansi(left_behind, ColorSystem.TRUECOLOR)
        assert Strip.render_ansi.cache_info().hits == hits  # made again: the memo was cleared


def push_towards_a_full_collection() -> list[Any]:
    """Make (and keep) objects until the collector's middle generation has run IDLE_COLLECT_FROM times."""
    kept: list[Any] = []
    gc.collect()
    while gc.get_count()[2] < IDLE_COLLECT_FROM:
        kept.append([[] for _ in range(100)])
        assert len(kept) < 100_000
    return kept


def test_collect_if_due_runs_a_full_collection_only_when_one_is_near() -> None:
    gc.collect()
    assert not collect_if_due()
    kept = push_towards_a_full_collection()
    assert collect_if_due()
    assert gc.get_count()[2] == 0
    assert not collect_if_due()
    kept += push_towards_a_full_collection()
    gc.disable()  # as during start-up (reader.startup.pause_collector): never collects then
    try:
        assert not collect_if_due()
    finally:
        gc.enable()
    del kept


async def test_a_due_collection_runs_once_the_turned_page_is_on_screen(tmp_path: Path) -> None:
    services, book_id = imported(write_picture_book(tmp_path / "plates.epub", 4))
    async with ReaderApp(services, book_id=book_id).run_test(size=SIZE) as pilot:
        app = pilot.app
        text = app.query_one(IllustratedPageText)
        await wait_until(pilot, text.settled)  # drawn, or in the cache shared by the tests
        app.query_one("#viewer").focus()
        await pilot.pause()
        full: list[tuple[int, bool]] = []  # (page on screen, its picture drawn) at each full collection

        def record(phase: str, info: dict[str, int]) -> None:
            if phase == "start" and info["generation"] == 2 and app.session is not None:
                full.append((app.session.number, text.settled()))

        kept = push_towards_a_full_collection()
        gc.callbacks.append(record)
        try:
            await pilot.press("right")
            await wait_until(pilot, lambda: bool(full))
        finally:
            gc.callbacks.remove(record)
        assert full[0] == (2, True)  # after the new page and its picture were drawn
        del kept


async def test_the_young_generations_are_collected_once_the_turned_page_and_its_picture_are_drawn(
    tmp_path: Path,
) -> None:
    services, book_id = imported(write_picture_book(tmp_path / "plates.epub", 4))
    async with ReaderApp(services, book_id=book_id).run_test(size=SIZE) as pilot:
        app = pilot.app
        text = app.query_one(IllustratedPageText)
        await wait_until(pilot, text.settled)
        app.query_one("#viewer").focus()
        await pilot.pause()
        gc.collect()  # no full collection due: the turned page's collection is one of the young generations
        young: list[tuple[int, bool]] = []  # (page on screen, its picture drawn) at each such collection

        def record(phase: str, info: dict[str, int]) -> None:
            if phase == "start" and info["generation"] == 1 and app.session is not None:
                young.append((app.session.number, text.settled()))

        gc.callbacks.append(record)
        try:
            await pilot.press("right")
            await wait_until(pilot, lambda: (2, True) in young)
        finally:
            gc.callbacks.remove(record)
        await pilot.pause()
        assert gc.get_count()[1] <= 1  # what the drawn page made was moved out of the young generations
