"""App speed: cold start to a settled first page, key press to repainted page, memory.

Usage: python benchmarks/tui_speed.py [--books 1000] [--big-pages 1000] [--turns 200] [--runs 5]
       [--no-tmux] [--start-only] [--workdir DIR]

Builds a library of `--books` small books plus one book of `--big-pages` pages (written straight into
the SQLite file), then measures:
  - the first page in a real terminal (tmux at 100x30), the start-up target: from launching
    `reader open` to the big book's first page on screen (its header and its first words), and the
    same for a bare Textual app showing the same page text in one scrolling Static
    (benchmarks/bare_page_app.py, which imports nothing else); runs interleaved, compared as the median of the app/bare ratios of back-to-back runs (target:
    within 1.3x). The first run then waits a second and checks that the page did not move while the
    library list and the chat filled in around it;
  - cold start until the whole screen is idle (headless): a new Python process running the app until
    the page, the library list and the chat are all in place and the app has nothing left to do
    (Pilot.pause), against the bare app in the same way: what start-up costs in all;
  - key press to repainted page: a Right key posted to the app until the screen update for the new
    page is rendered to terminal bytes (headless driver, `--turns` turns, p50/p90/max);
  - holding a key: 50 Right keys posted at once render far fewer pages (coalesced) and end on the
    right page;
  - key press to repaint in tmux: `send-keys Right` until the screen shows the new page number (read
    each time the pane writes; includes tmux's own latency);
  - memory: resident set size with the 1,000-page book open, after the turns;
  - highlights: every even page of the big book up to --highlight-pages pages carries --highlights
    highlights (every fifth with a note); turns to a highlighted page and to a plain page are reported
    apart (p50 under 15 ms either way);
  - listing notes: all of them (--highlights x --highlight-pages, 10,000 by default) read from the file
    (whole, and as the list's lines), and `"` pressed until the dialog is painted, until it is painted
    with the rows on screen (read as it opens), and until the worker has read the rest.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import queue
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORDS = (
    "the keeper lamp rock gull harbour letter island night storm tide village inn boat cove light "
    "window stair rope salt wind fog bell oil wick glass lens ledger shore cliff path sea grey cold"
).split()
BIG_TITLE = "The Long Book of the Lighthouse"
SIZE = (100, 30)


def paragraph(rng: random.Random, sentences: int = 5) -> str:
    out = []
    for _ in range(sentences):
        words = [rng.choice(WORDS) for _ in range(rng.randint(8, 18))]
        out.append(" ".join(words).capitalize() + ".")
    return " ".join(out)


def build_library(db_path: Path, books: int, big_pages: int) -> str:
    """Write `books` small books and one big book; returns the big book's id."""
    from reader.adapters.sqlite.book_repository import SqliteBookRepository
    from reader.adapters.sqlite.connection import Database
    from reader.app.pages.chunking import make_chunks
    from reader.domain.models import Book, Chapter, Page

    rng = random.Random(5)
    db = Database(db_path)
    repo = SqliteBookRepository(db.conn)

    def add(book_id: str, title: str, page_texts: list[str], chapter_every: int) -> None:
        count = len(page_texts)
        pages = [Page(i, str(i)) for i in range(1, count + 1)]
        chapters = [
            Chapter(n, f"Chapter {n + 1}", start, min(count, start + chapter_every - 1))
            for n, start in enumerate(range(1, count + 1, chapter_every))
        ]
        book = Book(
            book_id,
            title,
            "Bench Author",
            "en",
            "text",
            f"/bench/{book_id}.txt",
            count,
            1,
            "synthetic",
            "2024-01-01T00:00:00Z",
        )
        repo.replace(book, 1000, 1, pages, chapters, make_chunks(book_id, page_texts))

    for n in range(books):
        texts = [paragraph(rng, 3) for _ in range(4)]
        add(
            hashlib.sha256(str(n).encode()).hexdigest(),
            f"Small Book {n} {rng.choice(WORDS).title()}",
            texts,
            2,
        )
    big_id = "f" * 64
    texts = ["\n\n".join(paragraph(rng) for _ in range(4)) for _ in range(big_pages)]
    add(big_id, BIG_TITLE, texts, 20)
    repo.mark_read(big_id)
    db.close()
    return big_id


def add_highlights(db_path: Path, book_id: str, per_page: int, pages: int) -> int:
    """`per_page` highlights of three words on each of `pages` even pages (every fifth with a note)."""
    import re

    from reader.adapters.sqlite.annotation_repository import SqliteAnnotationRepository
    from reader.adapters.sqlite.chunk_repository import SqliteChunkRepository
    from reader.adapters.sqlite.connection import Database
    from reader.app.notes.anchoring import make_anchor
    from reader.domain.models import join_chunks

    db = Database(db_path)
    chunks, notes = SqliteChunkRepository(db.conn), SqliteAnnotationRepository(db.conn)
    db.conn.execute("DELETE FROM annotations WHERE book_id = ?", (book_id,))
    db.conn.execute("BEGIN")
    made = 0
    for page in range(2, 2 * pages + 1, 2):
        text = join_chunks(chunks.get_by_page_range(book_id, page, page))
        words = [m.span() for m in re.finditer(r"\S+", text)]
        step = max(3, len(words) // per_page)
        for n, index in enumerate(range(0, len(words) - 2, step)[:per_page]):
            anchor = make_anchor(page, text, words[index][0], words[index + 2][1])
            notes.add(book_id, anchor, f"note {n}" if n % 5 == 0 else "")
            made += 1
    db.conn.execute("COMMIT")
    db.close()
    return made


# --- the child process: one cold start, optionally followed by page turns ------------------------


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def child(db_path: str, turns: int, started: float) -> None:
    """Run in a fresh process: time to the settled first page, then (optionally) page turns."""
    from reader.saved_code import use_saved_code
    from reader.startup import pause_collector

    pause_collector()  # as `reader open` does from its first import (reader.cli)
    use_saved_code()  # and its dataclasses' methods compiled once (reader.saved_code)
    from reader.services import Services
    from reader.tui.app import ReaderApp

    services = Services.open(db_path)
    app = ReaderApp(services)
    result: dict[str, float | int | list[float]] = {}

    async def drive(pilot) -> None:  # noqa: ANN001 - Pilot
        await pilot.pause()
        result["settled"] = time.time() - started
        result["cpu"] = time.process_time()
        result["import_litellm"] = int("litellm" in sys.modules)
        result["rss_start_mb"] = rss_mb()
        if turns:
            await turn_pages(app, turns, result)
            await hold_key(app, pilot, result)
            await list_notes(app, services, result)
        result["rss_end_mb"] = rss_mb()
        app.exit()

    app.run(headless=True, size=SIZE, auto_pilot=drive)
    services.close()
    print(json.dumps(result))


def bare_child(db_path: str, started: float) -> None:
    """Run in a fresh process: a bare Textual app showing the big book's first page, until settled."""
    from bare_page_app import BarePage, first_page_text

    app = BarePage(first_page_text(db_path))
    result: dict[str, float] = {}

    async def drive(pilot) -> None:  # noqa: ANN001 - Pilot
        await pilot.pause()
        result["settled"] = time.time() - started
        result["cpu"] = time.process_time()
        pilot.app.exit()

    app.run(headless=True, size=SIZE, auto_pilot=drive)
    print(json.dumps(result))


async def turn_pages(app, turns: int, result: dict) -> None:  # noqa: ANN001
    """Post Right keys one at a time; time each until its screen update is rendered to bytes."""
    from textual import events

    painted = asyncio.Event()
    original = app._display
    console = app.console

    framed = [0.0]

    def display(screen, renderable) -> None:  # noqa: ANN001
        if renderable is not None and hasattr(renderable, "render_segments"):
            renderable.render_segments(console)  # what a real driver would write to the terminal
        original(screen, renderable)
        framed[0] = time.perf_counter()
        painted.set()

    app._display = display
    viewer = app.viewer
    latencies, targets = [], []
    for _ in range(turns):
        before = viewer.session.number
        if before >= viewer.session.page_count:
            break
        painted.clear()
        start = time.perf_counter()
        app._driver.send_message(events.Key("right", None))
        while True:
            await painted.wait()
            if viewer.session.number != before:
                break
            painted.clear()
        latencies.append((framed[0] - start) * 1000)  # until the frame, not until this loop runs again
        targets.append(viewer.session.number)
        await asyncio.sleep(0.005)  # a human-ish gap between presses; the app is idle again
    app._display = original
    result["turn_ms"] = latencies
    result["turn_pages"] = targets
    result["highlights_on"] = [len(viewer.page_annotations(page)) for page in targets]


def rows_painted(screen) -> bool:  # noqa: ANN001 - a MarksScreen
    """Whether the rows on screen of the marks list are read (not drawn as the unread "…")."""
    from reader.tui.widgets.mark_list import MarkList

    marks = screen.query_one(MarkList)
    rows = marks.row_height  # lines a row takes (a highlight's quote, then its note)
    top, height = marks.scroll_offset.y // rows, -(-marks.scrollable_content_region.height // rows)
    shown = screen.items[top : top + height]
    return bool(shown) and all(item is not None for item in shown)


async def list_notes(app, services, result: dict) -> None:  # noqa: ANN001
    """Read every highlight and note of the big book, then press `"` and time three paints of the list:
    the dialog, the dialog with the rows on screen in it, and the dialog once the worker read the rest."""
    from textual import events

    from reader.tui.screens.marks_screen import MarksScreen

    book_id = app.session.book.id
    start = time.perf_counter()
    notes = services.annotations.list(book_id)
    result["notes_query_ms"] = (time.perf_counter() - start) * 1000
    result["notes"] = len(notes)
    start = time.perf_counter()
    lines = services.annotations.lines(book_id)
    result["notes_lines_ms"] = (time.perf_counter() - start) * 1000
    assert len(lines) == len(notes)
    dialog, filled, whole = asyncio.Event(), asyncio.Event(), asyncio.Event()
    original = app._display
    console = app.console

    def display(screen, renderable) -> None:  # noqa: ANN001
        if renderable is not None and hasattr(renderable, "render_segments"):
            renderable.render_segments(console)
        original(screen, renderable)
        if isinstance(screen, MarksScreen):  # the dialog's own paint, not the page's under it
            dialog.set()
            if rows_painted(screen):
                filled.set()
            if screen.loaded:
                whole.set()

    app._display = display
    start = time.perf_counter()
    app._driver.send_message(events.Key("quotation_mark", '"'))
    for event, key in ((dialog, "notes_dialog_ms"), (filled, "notes_list_ms"), (whole, "notes_whole_ms")):
        await event.wait()
        result[key] = (time.perf_counter() - start) * 1000
    app._display = original
    app.pop_screen()


async def hold_key(app, pilot, result: dict) -> None:  # noqa: ANN001
    """50 Right keys arriving at once (a held key outrunning the screen) render only a few pages."""
    from textual import events

    viewer = app.viewer
    start_page, start_renders = viewer.session.number, viewer.renders
    start = time.perf_counter()
    for _ in range(50):
        app._driver.send_message(events.Key("right", None))
    await pilot.pause()
    result["hold_ms"] = (time.perf_counter() - start) * 1000
    result["hold_pages"] = viewer.session.number - start_page
    result["hold_renders"] = viewer.renders - start_renders


def reset_position(db_path: Path) -> None:
    """Put every book back on page 1 (and forget the pages last viewed) so each run turns the same pages."""
    import sqlean

    conn = sqlean.connect(str(db_path))
    conn.execute("UPDATE books SET current_page = 1")
    conn.execute("DELETE FROM settings WHERE key LIKE 'viewed_page:%'")
    conn.commit()
    conn.close()


def run_child(db_path: Path, turns: int, env: dict[str, str], *, bare: bool = False) -> dict:
    reset_position(db_path)
    started = time.time()
    out = subprocess.run(
        [
            sys.executable,
            __file__,
            "--bare-child" if bare else "--child",
            str(db_path),
            "--turns",
            str(turns),
            "--started",
            repr(started),
        ],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


# --- tmux: a real terminal -----------------------------------------------------------------------


TMUX_SERVER = f"reader-tui-speed-{os.getpid()}"
"""This run's own tmux server (`tmux -L`), not the default one that everything on the machine running tmux
as this user shares (another run's sessions ending could end it under ours)."""


def tmux(*args: str) -> str:
    if args[0] == "new-session" and "keep" not in tmux_kept:
        # a session that outlives the measured ones: the server exits with its last session, and a
        # session started while it was exiting died with it (seen: "tmux could not attach")
        tmux_kept.add("keep")
        tmux("new-session", "-d", "-s", "keep", "sleep 86400")
    return subprocess.run(["tmux", "-L", TMUX_SERVER, *args], capture_output=True, text=True, check=False).stdout


tmux_kept: set[str] = set()


def page_needle(db_path: Path) -> str:
    """The first words of the big book's first page: on the first line of the page in any layout."""
    from bare_page_app import first_page_text

    return " ".join(first_page_text(str(db_path)).split()[:3])


class PaneWatcher:
    """Reads a tmux pane's screen each time the pane writes something, not in a loop.

    A tmux control-mode client attached read-only reports every output of the pane (a thread reads
    its reports as they come, so tmux never waits on us); the screen is captured only then. Polling
    capture-pane every 2 ms kept a core of this 2-core machine busy, taking it from tmux and the app,
    and so delayed most what keeps working after its first frame (measured: the app's first frame
    reached tmux's screen 40-60 ms after it was written, the bare app's 3 ms).
    """

    def __init__(self, session: str, timeout: float = 20.0) -> None:
        self.session = session
        self.timeout = timeout
        self.process = subprocess.Popen(
            ["tmux", "-L", TMUX_SERVER, "-C", "attach", "-t", session, "-f", "ignore-size,read-only"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,  # bytes: tmux may split a character's bytes between two lines
        )
        self.outputs: queue.SimpleQueue[bool] = queue.SimpleQueue()  # True: the pane wrote; False: tmux ended
        self.ended = False
        attached = threading.Event()
        self.reader = threading.Thread(target=self._read, args=(attached,), daemon=True)
        self.reader.start()
        if not attached.wait(timeout) or self.ended:
            self.close()
            raise RuntimeError(f"tmux could not attach to {session}")

    def _read(self, attached: threading.Event) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith(b"%end"):  # the reply to attaching
                attached.set()
            elif line.startswith(b"%output"):
                self.outputs.put(True)
        self.ended = True
        attached.set()
        self.outputs.put(False)

    def forget(self) -> None:
        """Drop the outputs reported so far (before a key press: only what follows it counts)."""
        while not self.outputs.empty():
            if not self.outputs.get_nowait():
                self.outputs.put(False)  # tmux ended: keep saying so
                return

    def wait(self, needles: list[str]) -> float:
        """perf_counter() when every needle is on screen (read at the first output that shows them, and
        every 50 ms without output in case tmux reported the last output before drawing it)."""
        deadline = time.perf_counter() + self.timeout
        while time.perf_counter() < deadline:
            try:
                if not self.outputs.get(timeout=0.05):
                    raise RuntimeError(f"tmux session {self.session} ended before {needles} appeared")
            except queue.Empty:
                pass
            screen = tmux("capture-pane", "-t", self.session, "-p")
            if all(needle in screen for needle in needles):
                return time.perf_counter()
        raise TimeoutError(f"{needles} did not appear in tmux")

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        self.reader.join(timeout=1.0)  # it reads to the end of the killed client's output
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()


def tmux_start(session: str, command: str, needles: list[str]) -> tuple[float, PaneWatcher]:
    """Launch `command` in a new tmux session; ms until every needle is on screen, and the pane's
    watcher (still attached: the caller closes it). The pane's shell waits for a signal before it
    runs `command`, so the watcher is attached first."""
    go = f"{session}_go"
    tmux("new-session", "-d", "-s", session, "-x", str(SIZE[0]), "-y", str(SIZE[1]), f"tmux wait-for {go}; exec {command}")
    watcher = PaneWatcher(session)
    try:
        launched = time.perf_counter()
        tmux("wait-for", "-S", go)
        return (watcher.wait(needles) - launched) * 1000, watcher
    except BaseException:
        watcher.close()
        raise


def page_row(session: str, needle: str) -> int:
    """The screen row the needle is on (-1: not on screen)."""
    lines = tmux("capture-pane", "-t", session, "-p").splitlines()
    return next((row for row, line in enumerate(lines) if needle in line), -1)


def in_tmux(env: dict[str, str], command: str) -> str:
    """`command` as a tmux pane runs it with the headless runs' environment: the tmux server has this
    shell's, which may forbid writing bytecode (then the app's caches, reader.saved_code, were never
    written and every start compiled its dataclasses and patterns) and has no cache folder of the run's."""
    names = ("READER_DB", "READER_CONFIG", "XDG_CONFIG_HOME", "XDG_CACHE_HOME")
    return "env -u PYTHONDONTWRITEBYTECODE " + " ".join(f"{name}={env[name]}" for name in names) + f" {command}"


def tmux_measure(db_path: Path, env: dict[str, str], runs: int, turns: int) -> dict:
    """Launch to first page in a real terminal, the app and the bare app interleaved; turns on run 0."""
    reader = Path(sys.executable).with_name("reader")
    command = in_tmux(env, f"{reader} open '{BIG_TITLE}'")
    bare_command = in_tmux(env, f"{sys.executable} {Path(__file__).with_name('bare_page_app.py')} {db_path}")
    needle = page_needle(db_path)
    starts, bare_starts, turn_ms, moved = [], [], [], False
    for run in range(runs):
        session = f"bench{os.getpid()}_{run}"
        reset_position(db_path)
        try:
            start_ms, watcher = tmux_start(session, command, [" 1 of 1000", needle])
            try:
                starts.append(start_ms)
                if run == 0:
                    row = page_row(session, needle)
                    time.sleep(1.0)  # the library list and the chat fill in: the page must not move
                    moved = page_row(session, needle) != row
                    number = int(tmux_current_page(session))
                    for _ in range(turns):
                        watcher.forget()
                        sent = time.perf_counter()
                        tmux("send-keys", "-t", session, "Right")
                        number += 1
                        turn_ms.append((watcher.wait([f" {number} of "]) - sent) * 1000)
            finally:
                watcher.close()
        finally:
            tmux("kill-session", "-t", session)
        try:
            bare_ms, bare_watcher = tmux_start(f"{session}_bare", bare_command, [needle])
            bare_watcher.close()
            bare_starts.append(bare_ms)
        finally:
            tmux("kill-session", "-t", f"{session}_bare")
    return {"start_ms": starts, "bare_start_ms": bare_starts, "turn_ms": turn_ms, "moved": moved}


def tmux_current_page(session: str) -> str:
    line = tmux("capture-pane", "-t", session, "-p").splitlines()[0]
    match = re.search(r"(\d+) of \d+ ·", line)
    assert match, line
    return match.group(1)


# --- report --------------------------------------------------------------------------------------


def paired_ratio(app: list[float], bare: list[float]) -> float:
    """The median of app/bare over runs made back to back: steadier than a ratio of medians when the
    machine's load changes during the benchmark (both runs of a pair see the same load)."""
    return statistics.median(a / b for a, b in zip(app, bare, strict=True))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report_turns(db_path: Path, env: dict[str, str], args: argparse.Namespace) -> None:
    """Page turns, a held key, the notes list and memory, in one headless run."""
    measured = run_child(db_path, args.turns, env)
    turns = measured["turn_ms"]
    print(f"litellm imported at start-up: {'yes' if measured['import_litellm'] else 'no'}")
    print(
        f"key press to repainted page ({len(turns)} turns): p50 {pct(turns, 0.5):.1f} ms, "
        f"p90 {pct(turns, 0.9):.1f} ms, max {max(turns):.1f} ms"
    )
    marked = [t for t, n in zip(turns, measured["highlights_on"], strict=True) if n]
    plain = [t for t, n in zip(turns, measured["highlights_on"], strict=True) if not n]
    if marked and plain:
        print(
            f"  to a page with {max(measured['highlights_on'])} highlights ({len(marked)} turns): "
            f"p50 {pct(marked, 0.5):.1f} ms, p90 {pct(marked, 0.9):.1f} ms; to a page without "
            f"({len(plain)} turns): p50 {pct(plain, 0.5):.1f} ms, p90 {pct(plain, 0.9):.1f} ms"
        )
    print(
        f"listing {measured['notes']} highlights and notes: read whole from the file in "
        f"{measured['notes_query_ms']:.0f} ms, their list lines in {measured['notes_lines_ms']:.0f} ms; "
        f"\" to the painted dialog {measured['notes_dialog_ms']:.0f} ms, with the rows on screen "
        f"{measured['notes_list_ms']:.0f} ms, with the whole list read {measured['notes_whole_ms']:.0f} ms"
    )
    print(
        f"holding a key (50 presses queued): {measured['hold_pages']} pages turned, "
        f"{measured['hold_renders']} rendered, settled in {measured['hold_ms']:.0f} ms"
    )
    print(
        f"memory (RSS) with the {args.big_pages}-page book open: {measured['rss_start_mb']:.0f} MB at start, "
        f"{measured['rss_end_mb']:.0f} MB after {len(turns)} turns"
    )


def images_child(db_path: str, book_id: str, turns: int, started: float) -> None:
    """Run in a fresh process: open `book_id`, time the first page's text and pictures, then `turns` page
    turns (text painted, pictures drawn), and the memory after them."""
    from reader.saved_code import use_saved_code
    from reader.startup import before_textual, pause_collector

    pause_collector()  # as `reader open` does
    use_saved_code()
    # and TEXTUAL_FPS, which Textual reads once, set before it is imported, as importing reader.tui first
    # does in the app (without it Textual ran at 60 frames a second here: a turn waited up to 17 ms for its
    # frame slot, as no turn in the app does)
    before_textual()
    from textual import events

    from reader.services import Services
    from reader.tui.app import ReaderApp
    from reader.tui.images.illustrated_text import IllustratedPageText

    services = Services.open(db_path)
    app = ReaderApp(services, book_id=book_id)
    result: dict[str, object] = {}

    async def drive(pilot) -> None:  # noqa: ANN001 - Pilot
        await pilot.pause()
        result["settled"] = time.time() - started
        text = app.query_one(IllustratedPageText)
        result["pil_at_start"] = int("PIL.Image" in sys.modules)
        waited = time.perf_counter()
        while text.figures and text.pictures_drawn < 1 and time.perf_counter() - waited < 5:
            await asyncio.sleep(0.002)
        result["first_picture_ms"] = text.last_draw_seconds * 1000 if text.figures else None
        painted = asyncio.Event()
        original, console = app._display, app.console

        framed = [0.0]

        def display(screen, renderable) -> None:  # noqa: ANN001
            if renderable is not None and hasattr(renderable, "render_segments"):
                renderable.render_segments(console)
            original(screen, renderable)
            framed[0] = time.perf_counter()
            painted.set()

        app._display = display
        viewer = app.viewer
        text_ms, picture_ms = [], []
        for _ in range(turns):
            before, drawn = viewer.session.number, text.pictures_drawn
            if before >= viewer.session.page_count:
                break
            painted.clear()
            start = time.perf_counter()
            app._driver.send_message(events.Key("right", None))
            while True:
                await painted.wait()
                if viewer.session.number != before:
                    break
                painted.clear()
            text_ms.append((framed[0] - start) * 1000)  # until its frame, not until this loop runs again
            if text.figures:
                while text.pictures_drawn == drawn and time.perf_counter() - start < 5:
                    await asyncio.sleep(0.001)
                picture_ms.append(text.last_draw_seconds * 1000)
            await asyncio.sleep(0.05)  # a reader's gap between presses: the picture is on screen, the app idle
        app._display = original
        result["turn_ms"], result["picture_ms"] = text_ms, picture_ms
        result["cached_pictures"] = len(text.cache)
        result["pil_after_turns"] = int("PIL.Image" in sys.modules)
        result["rss_end_mb"] = rss_mb()
        app.exit()

    app.run(headless=True, size=SIZE, auto_pilot=drive)
    services.close()
    print(json.dumps(result))


def tmux_pictures(db_path: Path, env: dict[str, str], title: str, needle: str, runs: int) -> dict:
    """`reader open TITLE` in tmux: ms from launch until `needle` (the page's text) is on screen, then until
    half-block cells of its picture are; and the screen's rows then (to check where the picture stands)."""
    reader = Path(sys.executable).with_name("reader")
    command = in_tmux(env, f"{reader} open '{title}'")
    texts, pictures, screen = [], [], ""
    for run in range(runs):
        session = f"pictures{os.getpid()}_{run}"
        try:
            text_ms, watcher = tmux_start(session, command, [needle])
            shown = time.perf_counter()
            try:
                picture_ms = text_ms + (watcher.wait(["▀▀▀▀"]) - shown) * 1000
            finally:
                watcher.close()
            texts.append(text_ms)
            pictures.append(picture_ms)
            screen = tmux("capture-pane", "-p", "-t", session)
        finally:
            tmux("kill-session", "-t", session)
    return {"text_ms": texts, "picture_ms": pictures, "screen": screen}


def report_images(workdir: Path, env: dict[str, str], args: argparse.Namespace) -> None:
    """Pictures on the page: the same book with a 1 MP picture on every page against none."""
    sys.path.insert(0, str(Path(__file__).parent))
    from picture_pages import write_book

    db_path = workdir / "pictures.db"
    local = {**env, "READER_DB": str(db_path)}
    ids = {}
    for pictures in (True, False):
        book = write_book(workdir / f"{'plates' if pictures else 'plain'}.epub", args.picture_pages, pictures=pictures)
        started = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", "import sys, json; from reader.services import Services; "
             "b = Services.open(sys.argv[1]).importer.import_file(__import__('pathlib').Path(sys.argv[2])).book; "
             "print(b.id)", str(db_path), str(book)],
            env=local, capture_output=True, text=True, check=True,
        )
        ids[pictures] = out.stdout.strip().splitlines()[-1]
        print(
            f"import {book.name} ({args.picture_pages} pages{', a 1 MP JPEG on each' if pictures else ''}, "
            f"{book.stat().st_size / 1e6:.1f} MB): {time.perf_counter() - started:.1f} s"
        )

    def run(book_id: str, turns: int) -> dict:
        command = [sys.executable, __file__, "--images-child", str(db_path), "--book", book_id,
                   "--turns", str(turns), "--started", str(time.time())]
        out = subprocess.run(command, env=local, capture_output=True, text=True, check=True)
        return json.loads(out.stdout.strip().splitlines()[-1])

    reset_position(db_path)
    run(ids[True], 0)  # warm the file cache
    starts: dict[bool, list[float]] = {True: [], False: []}
    first_picture: list[float] = []
    for _ in range(args.runs):
        for pictures in (True, False):
            result = run(ids[pictures], 0)
            starts[pictures].append(result["settled"] * 1000)
            if pictures:
                first_picture.append(result["first_picture_ms"])
    print(
        f"first page, until the screen is idle (median of {args.runs}): with a picture "
        f"{statistics.median(starts[True]):.0f} ms, without {statistics.median(starts[False]):.0f} ms "
        f"({paired_ratio(starts[True], starts[False]):.2f}x; target within 1.10x); its 1 MP picture drawn "
        f"{statistics.median(first_picture):.0f} ms after the text (target 100 ms; runs: "
        f"{', '.join(f'{p:.0f}' for p in first_picture)})"
    )
    plain_start = run(ids[False], 0)
    print(f"PIL imported by the time a page without pictures is idle: {'yes' if plain_start['pil_at_start'] else 'no'}")
    # rounds of the same turns with pictures and without, one after the other, so both see the machine's
    # load of the moment (one run of each, minutes apart on a shared machine, compared its load as well)
    rounds: list[dict[bool, dict]] = []
    for _ in range(args.picture_rounds):
        rounds.append({})
        for pictures in (True, False):
            reset_position(db_path)
            rounds[-1][pictures] = run(ids[pictures], args.picture_turns)
    with_pictures, plain = rounds[0][True], rounds[0][False]
    t = [ms for one in rounds for ms in one[True]["turn_ms"]]
    p = [ms for one in rounds for ms in one[True]["picture_ms"]]
    q = [ms for one in rounds for ms in one[False]["turn_ms"]]
    p90s = ", ".join(f"{pct(one[True]['turn_ms'], 0.9) / pct(one[False]['turn_ms'], 0.9):.2f}x" for one in rounds)
    print(
        f"page turn to new text painted ({len(t)} turns in {len(rounds)} rounds): with pictures p50 "
        f"{pct(t, 0.5):.1f} ms, p90 {pct(t, 0.9):.1f} ms; without p50 {pct(q, 0.5):.1f} ms, p90 "
        f"{pct(q, 0.9):.1f} ms ({pct(t, 0.5) / pct(q, 0.5):.2f}x at p50, {pct(t, 0.9) / pct(q, 0.9):.2f}x at "
        f"p90; target within 1.10x; p90 by round: {p90s})"
    )
    print(
        f"picture drawn after the turn's text: p50 {pct(p, 0.5):.0f} ms, p90 {pct(p, 0.9):.0f} ms, "
        f"max {max(p):.0f} ms (a 1 MP JPEG in half-block cells)"
    )
    if not args.no_tmux and shutil.which("tmux") and Path(sys.executable).with_name("reader").exists():
        needle = "Chapter 1"
        reset_position(db_path)
        real = tmux_pictures(db_path, local, "Plates", needle, args.runs)
        rows = real["screen"].splitlines()
        blocks = sum("▀▀▀▀" in row for row in rows)
        print(
            f"tmux {SIZE[0]}x{SIZE[1]} (half-block cells; tmux passes no graphics protocol through): launch to the "
            f"page's text {statistics.median(real['text_ms']):.0f} ms, to its picture "
            f"{statistics.median(real['picture_ms']):.0f} ms (median of {args.runs}); {blocks} rows of the picture "
            "on screen under its first paragraph"
        )
    print(
        f"RSS after {len(with_pictures['turn_ms'])} illustrated turns: {with_pictures['rss_end_mb']:.0f} MB "
        f"({with_pictures['cached_pictures']} pictures cached; target under 150 MB); the same turns without "
        f"pictures: {plain['rss_end_mb']:.0f} MB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--books", type=int, default=1000)
    parser.add_argument("--big-pages", type=int, default=1000)
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--highlights", type=int, default=50, help="highlights on each highlighted page")
    parser.add_argument("--highlight-pages", type=int, default=200, help="even pages that get highlights")
    parser.add_argument("--no-tmux", action="store_true")
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--start-only", action="store_true", help="measure the cold starts only")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--bare-child", help=argparse.SUPPRESS)
    parser.add_argument("--started", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--images", action="store_true", help="measure pages with pictures only")
    parser.add_argument("--picture-pages", type=int, default=220)
    parser.add_argument("--picture-turns", type=int, default=200)
    parser.add_argument(
        "--picture-rounds", type=int, default=3, help="rounds of page turns with pictures, then without"
    )
    parser.add_argument("--images-child", help=argparse.SUPPRESS)
    parser.add_argument("--book", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.images_child:
        images_child(args.images_child, args.book, args.turns, args.started)
        return
    if args.child:
        child(args.child, args.turns, args.started)
        return
    if args.bare_child:
        bare_child(args.bare_child, args.started)
        return

    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="reader-tui-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    db_path = workdir / "library.db"
    # Without .pyc files every start compiles reader's ~100 modules from source (measured: ~75 ms a
    # start), while Textual, installed by pip, is compiled: an unfair floor. The warm-up runs below
    # write them, as a first run does on a user's machine, unless PYTHONDONTWRITEBYTECODE forbids it.
    env = {
        **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
        "READER_DB": str(db_path),
        "READER_CONFIG": str(workdir / "config.toml"),
        "XDG_CONFIG_HOME": str(workdir / "config"),
        # the app's own cache (its parsed CSS, reader.tui.saved_css), as on a user's machine: the shared
        # ~/.cache/reader is rewritten by every other checkout's tests and benchmarks run on this machine
        # (the rules are saved by where their CSS was read from), so a start often found it stale and
        # parsed all the CSS again
        "XDG_CACHE_HOME": str(workdir / "cache"),
        "PYTHONPATH": str(ROOT),
    }
    if args.images:
        report_images(workdir, env, args)
        tmux("kill-server")
        if not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)
        return
    if not db_path.exists():
        started = time.perf_counter()
        build_library(db_path, args.books, args.big_pages)
        print(
            f"library: {args.books} books + one of {args.big_pages} pages, built in "
            f"{time.perf_counter() - started:.1f} s ({db_path.stat().st_size / 1e6:.0f} MB)"
        )
    made = add_highlights(db_path, "f" * 64, args.highlights, args.highlight_pages)
    print(f"highlights: {made} on {args.highlight_pages} even pages of the big book ({args.highlights} a page)")

    run_child(db_path, 0, env)  # warm the OS file cache and .pyc files
    run_child(db_path, 0, env, bare=True)
    starts: list[float] = []
    bare: list[float] = []
    for _ in range(args.runs):  # interleaved, so both see the same machine load
        starts.append(run_child(db_path, 0, env)["settled"] * 1000)
        bare.append(run_child(db_path, 0, env, bare=True)["settled"] * 1000)
    print(
        f"cold start until the whole screen is idle (headless, {args.books + 1} books, median of {args.runs}): "
        f"{statistics.median(starts):.0f} ms  (runs: {', '.join(f'{s:.0f}' for s in starts)})"
    )
    print(
        f"  a bare Textual app showing the same page text: {statistics.median(bare):.0f} ms  (runs: "
        f"{', '.join(f'{s:.0f}' for s in bare)}); the app takes {paired_ratio(starts, bare):.2f}x"
    )
    if not args.start_only:
        report_turns(db_path, env, args)
    if not args.no_tmux and shutil.which("tmux") and Path(sys.executable).with_name("reader").exists():
        real = tmux_measure(db_path, env, args.runs, 0 if args.start_only else min(args.turns, 50))
        app_ms, bare_ms = statistics.median(real["start_ms"]), statistics.median(real["bare_start_ms"])
        print(
            f"tmux {SIZE[0]}x{SIZE[1]}: launch to the first page on screen, median of {args.runs}: {app_ms:.0f} ms "
            f"(runs: {', '.join(f'{s:.0f}' for s in real['start_ms'])}); the bare app: {bare_ms:.0f} ms "
            f"(runs: {', '.join(f'{s:.0f}' for s in real['bare_start_ms'])}); the app takes "
            f"{paired_ratio(real['start_ms'], real['bare_start_ms']):.2f}x (target: within 1.3x); the page "
            f"{'MOVED' if real['moved'] else 'stayed where it was'} while the rest filled in"
        )
        if real["turn_ms"]:
            t = real["turn_ms"]
            print(
                f"tmux: send-keys Right to new page visible ({len(t)} turns, includes tmux's latency): "
                f"p50 {pct(t, 0.5):.1f} ms, p90 {pct(t, 0.9):.1f} ms"
            )
    tmux("kill-server")
    if not args.workdir:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
