"""The app under background work: page turns never wait on the database; failed workers say so."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from reader.adapters.sqlite.connection import open_connection
from reader.app.library.import_books import ImportBooksUseCase
from reader.tui.app import ReaderApp
from reader.tui.widgets.import_progress import ImportProgress
from tests.tui_helpers import sample_services, wait_until

SIZE = (120, 36)


async def test_turning_pages_during_an_import_never_waits_on_the_database() -> None:
    services, book = sample_services()
    # an import's write transaction, held for as long as the pages turn (the busy timeout is 10 s)
    importer = open_connection(services.db.path)
    importer.execute("BEGIN IMMEDIATE")
    importer.execute("UPDATE books SET title = title")
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await wait_until(pilot, lambda: app.library.filled)  # start-up's work after the first paint is done
        turns = []
        for _ in range(5):
            started = time.perf_counter()
            await pilot.press("right")
            await pilot.pause()
            turns.append(time.perf_counter() - started)
        number = app.session.number
        assert number == 6 and app.session.horizon == 6
        assert max(turns) < 1.0, turns  # a wait for the lock would take the whole busy timeout
        assert app.writes.deferred >= 5  # each position went to the writer thread
        importer.execute("COMMIT")
        app.writes.flush()
        assert services.books.get(book.id).current_page == 6
        await pilot.press("right")  # the queue is empty again: written at once
        await pilot.pause()
        assert services.books.get(book.id).current_page == 7
    importer.close()


async def test_a_failing_import_worker_shows_a_notice_and_clears_its_progress(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def broken(self: ImportBooksUseCase, paths: object) -> list[Path]:
        raise RuntimeError("the disk went away")

    monkeypatch.setattr(ImportBooksUseCase, "expand", broken)
    services, _ = sample_services()
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        app.library.import_paths([tmp_path])
        await wait_until(pilot, lambda: any("failed" in n.message for n in app._notifications))
        messages = [n.message for n in app._notifications]
        assert "Importing failed: RuntimeError: the disk went away" in messages
        assert not app.query_one(ImportProgress).display


async def test_a_failing_search_worker_reaches_the_apps_one_line_notice() -> None:
    from reader.tui.screens.search_screen import SearchScreen

    class Broken:  # fails after the search, outside the dialog's own error handling
        @property
        def results(self) -> list[object]:
            raise RuntimeError("the index went away")

    services, _ = sample_services()
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        screen = SearchScreen(lambda query: Broken(), "5")
        await app.push_screen(screen)
        screen._run("lamp")
        await wait_until(pilot, lambda: any("failed" in n.message for n in app._notifications))
        messages = [n.message for n in app._notifications]
        assert "The search failed: RuntimeError: the index went away" in messages
        assert app.screen is screen  # the dialog stays open


async def test_a_failing_reading_pace_read_reaches_the_apps_one_line_notice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from reader.app.notes.reading_time import ReadingTimeUseCase

    def broken(self: ReadingTimeUseCase) -> object:
        raise RuntimeError("no pace today")

    monkeypatch.setattr(ReadingTimeUseCase, "pace", broken)
    services, _ = sample_services()
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await wait_until(pilot, lambda: any("failed" in n.message for n in app._notifications))
        messages = [n.message for n in app._notifications]
        assert "Loading the reading pace failed: RuntimeError: no pace today" in messages


async def test_a_queued_write_failing_while_the_app_closes_does_not_hold_the_close() -> None:
    """The writer thread reports a failure without waiting for the UI thread, which is joining it."""
    services, book = sample_services()
    importer = open_connection(services.db.path)  # the library is busy: the write goes to the writer
    importer.execute("BEGIN IMMEDIATE")
    importer.execute("UPDATE books SET title = title")
    running, release = threading.Event(), threading.Event()

    def failing_write() -> None:
        if threading.current_thread() is threading.main_thread():
            services.books.set_current_page(book.id, 3)  # "locked" at once: queued for the writer
        running.set()
        release.wait(5)
        raise RuntimeError("disk gone")

    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        pilot.app.writes.write(failing_write)
        importer.execute("COMMIT")  # the writer thread does the queued writes, then this one
        assert running.wait(5)
        threading.Timer(0.3, release.set).start()  # fails once the app is closing
        closing = time.perf_counter()
    assert time.perf_counter() - closing < 5  # a wait on the UI thread would end only at the 15 s limit
    importer.close()
