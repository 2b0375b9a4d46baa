"""The reader's pace from page turns (idle gaps and skimming left out) and the time left."""

from __future__ import annotations

from datetime import date

from reader.adapters.sqlite.migrations import PAGE_WORDS_FROM
from reader.adapters.sqlite.page_text_repository import SqlitePageTextStore
from reader.app.notes.reading_pace import (
    DEFAULT_WPM,
    Pace,
    PageClock,
    counts_as_reading,
    format_minutes,
    time_left,
)
from reader.services import Services
from reader.tui.app import ReaderApp
from reader.tui.widgets.page_header import PageHeader
from tests.support.schema_history import roll_back
from tests.tui_helpers import sample_services

SIZE = (160, 36)


def test_pace_starts_from_the_default_and_moves_to_the_readers_own() -> None:
    assert Pace().wpm == DEFAULT_WPM
    slow = Pace(words=150 * 60, seconds=60 * 60)  # an hour at 150 words a minute
    assert 150 < slow.wpm < 170
    assert 150 < Pace(words=150 * 5, seconds=5 * 60).wpm < DEFAULT_WPM  # five minutes: still near the default


def test_idle_gaps_and_skimming_do_not_count_as_reading() -> None:
    assert counts_as_reading(300, 80)  # 225 words a minute
    assert not counts_as_reading(300, 5)  # 3,600 words a minute: skimmed
    assert not counts_as_reading(300, 20 * 60)  # twenty minutes on one page: left open
    assert counts_as_reading(40, 100)  # a short page read slowly is still reading (under two minutes)
    assert not counts_as_reading(0, 60)  # a blank page tells nothing


def test_page_clock_times_only_forward_turns_by_one_page() -> None:
    clock = PageClock()
    assert clock.shown(5, 0.0) is None
    assert clock.shown(6, 70.0) == (5, 70.0)
    assert clock.shown(9, 80.0) is None  # a jump
    assert clock.shown(8, 90.0) is None  # back
    assert clock.shown(9, 150.0) == (8, 60.0)


def test_time_left_in_chapter_and_book() -> None:
    words = [250] * 10
    left = time_left(3, words, chapter_end=4, story_last=10, wpm=250)
    assert left.chapter_minutes == 2 and left.book_minutes == 8
    assert format_minutes(0.2) == "<1 min" and format_minutes(12.4) == "12 min"
    assert format_minutes(185) == "3 h 5 min" and format_minutes(120) == "2 h"


def test_the_log_keeps_reading_and_skips_idle_pages() -> None:
    services, book = sample_services()
    reading = services.reading_time
    assert reading.record(book.id, 250, 60, day=date(2026, 3, 1))
    assert not reading.record(book.id, 250, 3600, day=date(2026, 3, 1))  # idle
    assert not reading.record(book.id, 250, 2, day=date(2026, 3, 1))  # skimmed
    [day] = reading.log.days(book.id)
    assert (day.day, day.seconds, day.pages, day.words) == ("2026-03-01", 60, 1, 250)
    assert reading.pace(today=date(2026, 3, 2)).words == 250


async def test_page_turns_set_the_pace_and_the_header_shows_time_left() -> None:
    services, book = sample_services()
    now = [1000.0]
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        viewer = app.viewer
        viewer.clock.now = lambda: now[0]
        viewer.clock.shown(1)
        await pilot.press("ctrl+b", "ctrl+t")  # the page alone: the header has room for both
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert viewer.clock.words is not None
        position = app.query_one(PageHeader).line.position
        assert "left in chapter" in position and "left in book" in position
        words = viewer.clock.words
        for page in range(1, 7):  # a slow reader: 100 words a minute; one idle gap on page 3
            now[0] += 3600 if page == 3 else words[page - 1] / 100 * 60
            await pilot.press("right")
            await pilot.pause()
        assert 100 < viewer.clock.wpm < DEFAULT_WPM
        await app.workers.wait_for_complete()
        [day] = services.reading_time.log.days(book.id)
        assert day.pages == 5 and day.words == sum(words[:6]) - words[2]
    assert "left in book" in position


def test_words_per_page_are_counted_in_the_library_file() -> None:
    services, book = sample_services()
    counted = services.reading_time.page_words(book)
    split = [0] * book.page_count
    for chunk in services.chunks.get_by_page_range(book.id, 1, book.page_count):
        split[chunk.start_page - 1] += len(chunk.text.split())
    assert len(counted) == book.page_count and sum(counted) > 1000
    # the gaps between words, counted where the text is: within a word in a hundred of a Python split
    assert all(abs(c - s) <= max(2, s // 100) for c, s in zip(counted, split, strict=True))


def test_the_words_per_page_follow_every_change_to_the_pages_text() -> None:
    services, book = sample_services()
    conn = services.db.conn
    before = services.reading_time.page_words(book)
    SqlitePageTextStore(conn).save_page_text(
        book.id, 2, "ocr", "Four words, read again.", [("Four words, read again.", False)]
    )
    after = services.reading_time.page_words(book)
    assert after[1] == 4 and after[:1] + after[2:] == before[:1] + before[2:]
    (chunk_id,) = conn.execute(
        "SELECT id FROM chunks WHERE book_id = ? AND start_page = 2", (book.id,)
    ).fetchone()
    conn.execute("UPDATE chunks SET text = 'Now\n\ntwo.' WHERE id = ?", (chunk_id,))
    assert services.reading_time.page_words(book)[1] == 2
    conn.execute("UPDATE chunks SET start_page = 3 WHERE id = ?", (chunk_id,))  # moved to the next page
    moved = services.reading_time.page_words(book)
    assert moved[1] == 0 and moved[2] == before[2] + 2
    conn.execute("DELETE FROM chunks WHERE id = ?", (chunk_id,))
    assert services.reading_time.page_words(book)[2] == before[2]


def test_the_schema_step_counts_the_words_of_the_books_already_stored() -> None:
    import sqlean

    services, book = sample_services()
    counted = services.reading_time.page_words(book)
    path = services.db.path
    services.db.close()
    old = sqlean.connect(str(path), isolation_level=None)
    roll_back(old, PAGE_WORDS_FROM)
    assert "word_count" not in {row[1] for row in old.execute("PRAGMA table_info(pages)")}
    old.close()
    assert sum(counted) > 1000
    assert Services.open(path).reading_time.page_words(book) == counted
