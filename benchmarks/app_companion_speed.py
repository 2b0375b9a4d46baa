"""The companion's work in the app against the same work from the command line, on a big book.

Imports War and Peace (../shared/books/war-and-peace.epub) into a fresh library, sets the reading
position to --percent of the story, then times, headless at 120x40 (Pilot), from the key press to the
result painted:
  - `r`: the story so far, cold (first time) and again (cached);
  - `s` + a query + Enter: the first results listed;
  - an offline answer (no model configured): a question typed in the chat until its passages show;
  - a page turn (Right, p50 of --turns);
and the same work from the command line in a fresh process (Python start-up included):
`reader recap`, `reader search`, `reader ask`. Targets (issue 27): `r` under 0.5 s cached and 1.5 s
cold, `s` under 0.3 s, an offline answer's first passage under 1 s, page turns unchanged.

Usage: python benchmarks/app_companion_speed.py [--book PATH] [--percent 60] [--runs 3] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

BOOK = Path(os.environ.get("READER_SHARED", "/work/shared")) / "books" / "war-and-peace.epub"
SEARCH = "Natasha at the ball"
QUESTIONS = ("Who is Pierre?", "What did Prince Andrew think at Austerlitz?", "Who is Natasha?")
SIZE = (120, 40)


class Painted:
    """Times a key until a frame showing its result is rendered to terminal bytes (as a driver writes)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.frame = asyncio.Event()
        original, console = app._display, app.console

        def display(screen: Any, renderable: Any) -> None:
            if renderable is not None and hasattr(renderable, "render_segments"):
                renderable.render_segments(console)
            original(screen, renderable)
            self.frame.set()

        app._display = display

    async def key(self, key: str, shown: Callable[[], bool], timeout: float = 60.0) -> float:
        """Seconds from posting `key` until a frame is painted once `shown()` holds."""
        from textual import events

        start = time.perf_counter()
        self.frame.clear()
        self.app._driver.send_message(events.Key(key, None))
        while True:
            await asyncio.wait_for(self.frame.wait(), timeout)
            self.frame.clear()
            if shown():
                return time.perf_counter() - start


async def settle(pilot: Any, condition: Callable[[], bool], timeout: float = 60.0) -> None:
    """Let the app run until `condition()` holds and it is idle."""
    start = time.perf_counter()
    while not condition():
        if time.perf_counter() - start > timeout:
            raise TimeoutError("condition not met")
        await pilot.pause(0.01)
    await pilot.pause()


async def in_app(runs: int, turns: int) -> dict[str, list[float]]:
    from textual.widgets import Input, Markdown, OptionList

    from reader.services import Services
    from reader.tui.app import ReaderApp
    from reader.tui.panes.chat_pane import ChatPane
    from reader.tui.screens.recap_screen import RecapScreen
    from reader.tui.screens.search_screen import SearchScreen
    from reader.tui.widgets.chat_items import QuestionItem

    times: dict[str, list[float]] = {"r": [], "s": [], "answer": [], "turn": []}
    services = Services.open()
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.pause(1.0)
        painted = Painted(app)

        def recap_shown() -> bool:
            screen = app.screen
            return isinstance(screen, RecapScreen) and bool(
                screen.query_one("#recap-text", Markdown).children
            )

        for _ in range(runs):
            times["r"].append(await painted.key("r", recap_shown))
            await settle(
                pilot, lambda: isinstance(app.screen, RecapScreen) and getattr(app.screen, "complete", True)
            )
            await pilot.press("escape")
            await pilot.pause()
        for _ in range(runs):
            await pilot.press("s")
            await settle(pilot, lambda: isinstance(app.screen, SearchScreen))
            app.screen.query_one(Input).value = SEARCH
            times["s"].append(
                await painted.key(
                    "enter", lambda: app.screen.query_one("#search-results", OptionList).option_count > 0
                )
            )
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
        pane = app.query_one(ChatPane)
        await pilot.press("a")
        await settle(pilot, lambda: app.focused is not None and app.focused.id == "chat-input")

        def answered(asked: int) -> Callable[[], bool]:
            return lambda: (
                len(pane.query(QuestionItem)) > asked and "p. " in pane.query(Markdown).last().source
            )

        for question in QUESTIONS[:runs]:
            app.query_one("#chat-input", Input).value = question
            times["answer"].append(await painted.key("enter", answered(len(pane.query(QuestionItem)))))
            await settle(pilot, lambda: pane.running is None)
        await pilot.press("escape")
        await pilot.pause()
        viewer = app.viewer

        def turned(renders: int) -> Callable[[], bool]:
            return lambda: viewer.renders > renders

        for _ in range(turns):
            times["turn"].append(await painted.key("right", turned(viewer.renders)))
            await asyncio.sleep(0.005)
    return times


def command(*args: str) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "reader.cli.main", *args], check=True, stdout=subprocess.DEVNULL, cwd=ROOT
    )
    return time.perf_counter() - start


def report(name: str, values: list[float]) -> None:
    shown = ", ".join(f"{v:.2f}" for v in values)
    print(f"  {name:<34} {shown}  (median {statistics.median(values):.3f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--book", type=Path, default=BOOK)
    parser.add_argument("--percent", type=int, default=60)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="reader-app-speed-"))
    os.environ["READER_DB"] = str(work / "library.db")
    os.environ["READER_CONFIG"] = str(work / "config.toml")  # no model: offline answers
    os.environ["XDG_DATA_HOME"] = str(work / "data")
    os.environ["XDG_CACHE_HOME"] = str(work / "cache")
    fresh = not (work / "library.db").exists()
    if fresh:
        subprocess.run(
            [sys.executable, "-m", "reader.cli.main", "import", str(args.book)],
            check=True,
            stdout=subprocess.DEVNULL,
            cwd=ROOT,
        )
    subprocess.run(
        [sys.executable, "-m", "reader.cli.main", "set-page", "war", f"{args.percent}%"], check=True, cwd=ROOT
    )
    print(f"{args.book.name} at {args.percent}% (library {work})")

    def cli_runs(*command_args: str) -> list[float]:
        return [command(*command_args) for _ in range(args.runs)]

    cli: dict[str, list[float]] = {}
    cli["recap"] = cli_runs("recap", "war")
    cli["search"] = cli_runs("search", "war", SEARCH)
    cli["ask"] = [command("ask", "war", question) for question in QUESTIONS[: args.runs]]
    if fresh:  # the app's cold recap: a new reading position nobody recapped yet
        subprocess.run(
            [sys.executable, "-m", "reader.cli.main", "set-page", "war", f"{args.percent + 1}%"],
            check=True,
            stdout=subprocess.DEVNULL,
            cwd=ROOT,
        )
    app = asyncio.run(in_app(args.runs, args.turns))
    print("the app (key to result painted, seconds; the first `r` is cold):")
    report("r (story so far)", app["r"])
    report(f"s + “{SEARCH}”", app["s"])
    report("offline answer", app["answer"])
    turns = sorted(app["turn"])
    print(
        f"  {'page turn':<34} p50 {turns[len(turns) // 2] * 1000:.1f} ms, max {turns[-1] * 1000:.1f} ms ({len(turns)} turns)"
    )
    print("the command line (a fresh process each, Python start-up included; the first recap is cold):")
    report("reader recap", cli["recap"])
    report("reader search", cli["search"])
    report("reader ask (no model)", cli["ask"])


if __name__ == "__main__":
    main()
