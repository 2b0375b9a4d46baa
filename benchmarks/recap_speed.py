"""The story so far of a long book with parts: War and Peace read to p. 1000, cold and from the cache.

Imports ../shared/books/war-and-peace.epub into a fresh library, sets the reading position and times
`SummariesUseCase.story_so_far` offline (extractive) the first time and from the cache, then the whole
`reader recap --offline` command in a fresh process (Python start-up included) with an empty and a
filled cache, then the map-reduce path with a stand-in model that answers at once (to time the
bookkeeping and the cache, not a model). Targets: cold offline under 3 s, from cache under 50 ms.

Usage: python benchmarks/recap_speed.py [--book PATH] [--page 1000] [--workdir DIR]
"""

from __future__ import annotations

import argparse
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

from benchmarks.instant_model import InstantModel  # noqa: E402

BOOK = ROOT.parent / "shared" / "books" / "war-and-peace.epub"


def timed(fn: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    """The median seconds of `repeat` runs and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def command_seconds(book_id: str) -> float:
    """Wall time of `reader recap BOOK --offline` in a fresh process."""
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "reader.cli.main", "recap", book_id, "--offline"],
        check=True,
        stdout=subprocess.DEVNULL,
        cwd=ROOT,
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--book", type=Path, default=BOOK)
    parser.add_argument("--page", type=int, default=1000)
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="reader-recap-"))
    os.environ["READER_DB"] = str(work / "library.db")

    from reader.adapters.sqlite.summary_repository import SqliteSummaryRepository
    from reader.app.knowledge.summaries import SummariesUseCase
    from reader.services import Services

    services = Services.open()
    (outcome,) = services.importer.import_paths([args.book])
    book = outcome.book
    assert book is not None, outcome.message
    services.books.set_current_page(book.id, args.page)
    print(
        f"{book.title}: {book.page_count} pages, story pp. {book.story_start}-{book.story_last}, at p. {args.page}"
    )

    summaries = services.summaries_for(offline=True)
    cold, recap = timed(lambda: summaries.story_so_far(book.id, args.page))
    cached_time, cached = timed(lambda: summaries.story_so_far(book.id, args.page), repeat=5)
    assert cached.cached and cached.text == recap.text
    print(
        f"  offline, cold:        {cold:.2f} s ({len(recap.sections)} chapters in {len(recap.parts)} parts, "
        f"{sum(s.text.count('[p.') for s in recap.sections)} sentences, {len(recap.text):,} characters; "
        "target < 3 s)"
    )
    print(f"  offline, from cache:  {cached_time * 1000:.1f} ms (target < 50 ms)")

    services.db.conn.execute("DELETE FROM summaries WHERE book_id = ?", (book.id,))
    print(f"  `reader recap --offline`, cold:       {command_seconds(book.id[:12]):.2f} s (fresh process)")
    print(f"  `reader recap --offline`, from cache: {command_seconds(book.id[:12]):.2f} s (fresh process)")

    with_model = SummariesUseCase(
        services.books, services.chunks, SqliteSummaryRepository(services.db.conn), InstantModel("Something happens [p. 6].")
    )
    cold, recap = timed(lambda: with_model.story_so_far(book.id, args.page))
    cached_time, cached = timed(lambda: with_model.story_so_far(book.id, args.page), repeat=5)
    assert cached.cached and not recap.notes
    print(
        f"  instant model, cold:  {cold:.2f} s ({len(recap.parts)} part summaries); "
        f"from cache {cached_time * 1000:.1f} ms"
    )
    services.close()


if __name__ == "__main__":
    main()
