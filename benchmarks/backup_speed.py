"""Backing up a big library while the app reads it: how long `reader backup` takes, and whether page
turns stay quick meanwhile.

Usage: python benchmarks/backup_speed.py [--books 1000] [--turns 300] [--runs 3] [--workdir DIR]
       [--shared /work/shared]

Builds (once per --workdir) a library holding War and Peace (imported from shared/books like any
book) and `--books` small books of four pages (written with the import's own repository and
chunking), plus highlights on War and Peace. Then:
  - page turns alone: what the app reads for a page turn (the page's text, `pages.range_text`, and
    its highlights, `annotations.on_page`), on pages not read before, p50/p90/max;
  - `reader backup FILE` in its own process (as a person runs it while the app is open): its time
    (as it reports it, and the process's wall time), the copy's size, and the page turns made in this
    process while it ran, p50/p90/max; each turn forward also saves the reading position the way the
    app does (`Services.try_write`: at once when the file is free), and how many of those found the
    file busy is reported;
  - the same with the backup in a thread of the app's own process (the copy made before a schema
    migration runs there);
  - every copy passes SQLite's integrity check;
  - for comparison, page turns while `reader import --force` rebuilds War and Peace in another process
    (its write transaction holds the library's write lock for a second or two): reads never wait for
    it, and the positions that find the file busy are the ones the app queues.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WORDS = (
    "the keeper lamp rock gull harbour letter island night storm tide village inn boat cove light "
    "window stair rope salt wind fog bell oil wick glass lens ledger shore cliff path sea grey cold"
).split()


def paragraph(rng: random.Random, sentences: int = 4) -> str:
    out = []
    for _ in range(sentences):
        words = [rng.choice(WORDS) for _ in range(rng.randint(8, 18))]
        out.append(" ".join(words).capitalize() + ".")
    return " ".join(out)


def build_library(db_path: Path, shared: Path, books: int) -> str:
    """War and Peace imported, `books` small books written; returns War and Peace's id."""
    from reader.app.pages.chunking import make_chunks
    from reader.domain.models import Book, Chapter, Page
    from reader.services import Services

    services = Services.open(db_path)
    try:
        started = time.perf_counter()
        outcome = services.importer.import_file(shared / "books" / "war-and-peace.epub")
        assert outcome.book is not None, outcome.message
        war = outcome.book
        print(f"imported War and Peace ({war.page_count} pages) in {time.perf_counter() - started:.1f} s")
        rng = random.Random(7)
        repo = services.books
        started = time.perf_counter()
        for n in range(books):
            book_id = hashlib.sha256(f"small {n}".encode()).hexdigest()
            texts = ["\n\n".join(paragraph(rng) for _ in range(3)) for _ in range(4)]
            pages = [Page(i, str(i)) for i in range(1, 5)]
            chapters = [Chapter(0, "One", 1, 2), Chapter(1, "Two", 3, 4)]
            book = Book(
                book_id, f"Small Book {n}", "Bench", "en", "text", f"/bench/{n}.txt", 4, 1, "synthetic",
                "2026-01-01T00:00:00Z",
            )  # fmt: skip
            repo.replace(book, 4000, 5, pages, chapters, make_chunks(book_id, texts))
        print(f"wrote {books} small books in {time.perf_counter() - started:.1f} s")
        for page in range(2, 400, 2):  # a reader's highlights on War and Peace
            text = services.pages.range_text(war.id, page, page)
            if len(text) > 40:
                services.annotations.highlight(war.id, page, text, 10, 30, "a note" if page % 10 == 0 else "")
        services.books.set_current_page(war.id, 1)
        return war.id
    finally:
        services.close()


class Turner:
    """Turns War and Peace's pages the way the app reads them, never the same page twice."""

    def __init__(self, db_path: Path, book_id: str) -> None:
        from reader.services import Services

        self.services = Services.open(db_path)
        self.book_id = book_id
        book = self.services.books.get(book_id)
        assert book is not None
        self.page_count = book.page_count
        self.page = 1
        self.busy = 0
        self.saved = 0

    def turn(self) -> float:
        """One page turn forward: its read time in ms (the position is saved as the app does)."""
        self.page = self.page % self.page_count + 1
        started = time.perf_counter()
        self.services.pages.range_text(self.book_id, self.page, self.page)
        self.services.annotations.on_page(self.book_id, self.page)
        elapsed = (time.perf_counter() - started) * 1000
        page, services, book_id = self.page, self.services, self.book_id
        if services.try_write(lambda: services.books.set_current_page(book_id, page)):
            self.saved += 1
        else:
            self.busy += 1  # the app would queue it on its writer thread
        return elapsed

    def close(self) -> None:
        self.services.close()


def figures(times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    return f"p50 {statistics.median(ordered):.2f} ms, p90 {p90:.2f} ms, max {ordered[-1]:.2f} ms ({len(ordered)} turns)"


def check_copy(path: Path) -> str:
    import sqlean

    conn = sqlean.connect(str(path))
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


def turns_while(
    turner: Turner, running: threading.Event | subprocess.Popen[bytes], gap: float
) -> list[float]:
    times: list[float] = []
    while (running.poll() is None) if isinstance(running, subprocess.Popen) else not running.is_set():
        times.append(turner.turn())
        time.sleep(gap)  # a fast reader: a page every few ms
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--books", type=int, default=1000)
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--gap", type=float, default=0.005, help="seconds between page turns")
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--shared", type=Path, default=Path(os.environ.get("READER_SHARED", "/work/shared")))
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="reader-backup-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    db_path = workdir / "library.db"
    marker = workdir / "war-and-peace.id"
    if not marker.exists():
        marker.write_text(build_library(db_path, args.shared, args.books))
    book_id = marker.read_text().strip()
    size = db_path.stat().st_size
    print(f"library: {db_path} ({size / 1e6:.1f} MB, War and Peace + {args.books} small books)")

    turner = Turner(db_path, book_id)
    try:
        baseline = [turner.turn() for _ in range(args.turns)]
        print(f"page turns alone: {figures(baseline)}")
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        for run in range(1, args.runs + 1):
            target = workdir / f"copy-process-{run}.db"
            target.unlink(missing_ok=True)
            turner.busy = turner.saved = 0
            started = time.perf_counter()
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "reader.cli.main",
                    "--db",
                    str(db_path),
                    "backup",
                    str(target),
                    "--json",
                ],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            during = turns_while(turner, process, args.gap)
            out, err = process.communicate()
            wall = time.perf_counter() - started
            assert process.returncode == 0, err.decode()
            report = json.loads(out)
            print(
                f"run {run}: `reader backup` {report['seconds']:.2f} s (process {wall:.2f} s with Python's start), "
                f"{report['bytes'] / 1e6:.1f} MB, integrity {check_copy(target)}; page turns meanwhile: "
                f"{figures(during)}; positions saved at once {turner.saved}, found the file busy {turner.busy}"
            )
        from reader.services import Services

        for run in range(1, args.runs + 1):
            target = workdir / f"copy-thread-{run}.db"
            target.unlink(missing_ok=True)
            done = threading.Event()
            result: list[float] = []

            def backup(
                target: Path = target, done: threading.Event = done, result: list[float] = result
            ) -> None:
                services = Services.open(db_path)
                try:
                    result.append(services.backup(target).seconds)
                finally:
                    services.close()
                    done.set()

            worker = threading.Thread(target=backup)
            worker.start()
            during = turns_while(turner, done, args.gap)
            worker.join()
            print(
                f"run {run}: backup in the app's process {result[0]:.2f} s, integrity {check_copy(target)}; "
                f"page turns meanwhile: {figures(during)}"
            )
        started = time.perf_counter()
        turner.busy = turner.saved = 0
        process = subprocess.Popen(
            [sys.executable, "-m", "reader.cli.main", "--db", str(db_path), "import", "--force",
             str(args.shared / "books" / "war-and-peace.epub")],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )  # fmt: skip
        during = turns_while(turner, process, args.gap)
        _out, err = process.communicate()
        assert process.returncode == 0, err.decode()
        print(
            f"`reader import --force` of War and Peace alongside ({time.perf_counter() - started:.1f} s): page turns "
            f"{figures(during)}; positions saved at once {turner.saved}, found the file busy {turner.busy}"
        )
    finally:
        turner.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
