"""Companion knowledge speed: concept-map build vs import time, X-Ray open, recap from cache.

Usage: python benchmarks/concepts_speed.py [--workdir DIR]

Books are made from the sample novella's paragraphs plus a cast of generated people and places,
so a long book has a realistic number of concepts (hundreds), not just the novella's twenty.
Needs fpdf2 (a test dependency) for the PDF import comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from benchmarks.instant_model import InstantModel  # noqa: E402

FIRST = "Ada Basil Cora Dorian Edith Felix Greta Hugo Iris Jasper Kit Lionel Maud Nell Otto Pearl Rufus Sybil".split()
LAST = "Ashdown Briar Calloway Dunmore Everly Fenwick Garrow Hollis Ingram Jessop Kestrel Lowry Marsh Nettle".split()
PLACES = (
    "Saltmarsh Quay,Blackwater Cove,Hallow Head,Fennick Rock,Grimsby Hill,Oakley Bay,Thornfield Hall".split(
        ","
    )
)


def cast(rng: random.Random, people: int, places: int) -> tuple[list[str], list[str]]:
    names = sorted({f"{rng.choice(FIRST)} {rng.choice(LAST)}" for _ in range(people * 3)})[:people]
    towns = [f"{p} {i}" if i else p for i in range(places // len(PLACES) + 1) for p in PLACES][:places]
    return names, towns


def synthetic_markdown(path: Path, pages: int, seed: int = 3) -> Path:
    """A Markdown novel of about `pages` synthetic pages (about 2,000 characters each)."""
    from reader.services import SAMPLE_BOOK

    rng = random.Random(seed)
    body = SAMPLE_BOOK.read_text(encoding="utf-8").split("---", 2)[2]
    paragraphs = [p for p in body.split("\n\n") if p.strip() and not p.startswith("#")]
    people, places = cast(rng, max(20, pages // 4), max(10, pages // 20))
    parts: list[str] = []
    size, chapter = 0, 0
    while size < pages * 2000:
        chapter += 1
        text = [f"# Chapter {chapter}: Part {chapter}"]
        for _ in range(40):
            text.append(rng.choice(paragraphs))
            if rng.random() < 0.6:
                a, b = rng.sample(people, 2)
                text.append(
                    f"That evening {a} walked to {rng.choice(places)} with {b}, and Mr. {b.split()[1]} said little."
                )
        chunk = "\n\n".join(text)
        size += len(chunk)
        parts.append(chunk)
    path.write_text(
        "---\ntitle: Synthetic Harbour\nauthor: Bench\n---\n\n" + "\n\n".join(parts), encoding="utf-8"
    )
    return path


def synthetic_pdf(path: Path, markdown: Path, pages: int) -> Path:
    from fpdf import FPDF

    text = markdown.read_text(encoding="utf-8").split("---", 2)[2]
    paragraphs = [
        p.replace("’", "'").replace("“", '"').replace("”", '"').replace("—", "-") for p in text.split("\n\n")
    ]
    pdf = FPDF()
    pdf.set_font("Helvetica", size=10)
    pdf.add_page()
    for paragraph in paragraphs:
        if pdf.page_no() > pages:
            break
        pdf.multi_cell(0, 5, paragraph.encode("latin-1", "replace").decode("latin-1"))
        pdf.ln(2)
    pdf.output(str(path))
    return path


def timed(fn: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    """The median seconds of `repeat` runs and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def page_texts(services: Any, book: Any) -> tuple[list[str], dict[int, list[str]]]:
    from reader.domain.models import join_chunks

    by_page: dict[int, list[Any]] = {}
    for chunk in services.chunks.get_by_page_range(book.id, 1, book.page_count):
        by_page.setdefault(chunk.start_page, []).append(chunk)
    texts = [join_chunks(by_page.get(n, [])) for n in range(1, book.page_count + 1)]
    headings: dict[int, list[str]] = {}
    for chapter in services.books.chapters(book.id):
        headings.setdefault(chapter.start_page, []).append(chapter.title)
    return texts, headings


def build_vs_import(services: Any, path: Path, label: str) -> Any:
    from reader.app.knowledge.concept_map import build_concept_map

    seconds, outcome = timed(lambda: services.importer.import_file(path, force=True), repeat=3)
    book = outcome.book
    texts, headings = page_texts(services, book)
    build, concepts = timed(lambda: build_concept_map(texts, headings), repeat=3)
    per100 = 100 / book.page_count
    print(
        f"{label:<28} {book.page_count:>5} pages  import {seconds * per100 * 1000:7.1f} ms/100 p  "
        f"concept map {build * per100 * 1000:6.1f} ms/100 p  = {100 * build / seconds:4.1f}% of import  "
        f"({len(concepts)} concepts)"
    )
    return book


async def open_dialog(services: Any, book: Any, runs: int, action: str) -> list[float]:
    """Seconds from the app's `action` (what its key runs) until the dialog is mounted with its data."""
    from textual.widgets import OptionList

    from reader.tui.app import ReaderApp

    times = []
    async with ReaderApp(services, book_id=book.id).run_test(size=(130, 40)) as pilot:
        app = pilot.app
        await pilot.pause()
        base = app.screen
        for _ in range(runs):
            start = time.perf_counter()
            getattr(app, action)()
            while app.screen is base or not app.screen.is_mounted:
                await asyncio.sleep(0.001)
            lists = list(app.screen.query(OptionList))
            while not lists or not all(o.is_mounted for o in lists):
                await asyncio.sleep(0.001)
                lists = list(app.screen.query(OptionList))
            times.append(time.perf_counter() - start)
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="reader-concepts-"))
    os.environ["READER_DB"] = str(work / "library.db")
    os.environ["READER_CONFIG"] = str(work / "none.toml")
    from reader.services import SAMPLE_BOOK, Services

    services = Services.open()
    print("Concept-map build vs import (median of 3; the map is built inside the import):")
    build_vs_import(services, SAMPLE_BOOK, "sample novella (Markdown)")
    md300 = synthetic_markdown(work / "book300.md", 300)
    book300 = build_vs_import(services, md300, "synthetic (Markdown)")
    md1000 = synthetic_markdown(work / "book1000.md", 1000, seed=5)
    book1000 = build_vs_import(services, md1000, "synthetic (Markdown)")
    try:
        pdf = synthetic_pdf(work / "book100.pdf", md300, 100)
        build_vs_import(services, pdf, "synthetic (PDF)")
    except ImportError:
        print("  (fpdf2 not installed: no PDF comparison)")

    print("\nX-Ray on the 1,000-page book, reader on the last page:")
    services.books.set_current_page(book1000.id, book1000.page_count)
    xray = services.xray
    query, entries = timed(lambda: xray.entries(book1000.id, book1000.page_count), repeat=5)
    print(f"  concept list query: {query * 1000:.1f} ms ({len(entries)} concepts)")
    detail, _ = timed(lambda: xray.detail(book1000.id, entries[0], book1000.page_count), repeat=5)
    print(f"  one concept's detail ({entries[0].name}, {entries[0].pages} pages): {detail * 1000:.1f} ms")
    opened = asyncio.run(open_dialog(services, book1000, 7, "action_xray"))
    contents = asyncio.run(open_dialog(services, book1000, 7, "action_contents"))
    print(
        f"  X-Ray panel open in the app (x's action to the panel mounted with the list and the first "
        f"entry): median "
        f"{statistics.median(opened) * 1000:.0f} ms, max {max(opened) * 1000:.0f} ms (target < 100 ms)"
    )
    print(
        f"  for scale, the table of contents dialog (t), measured the same way: median "
        f"{statistics.median(contents) * 1000:.0f} ms"
    )

    print("\nRecap of the 300-page book, reader on the last page:")
    services.books.set_current_page(book300.id, book300.page_count)
    summaries = services.summaries_for(offline=True)
    cold, recap = timed(lambda: summaries.story_so_far(book300.id, book300.page_count))
    warm, cached = timed(lambda: summaries.story_so_far(book300.id, book300.page_count), repeat=5)
    assert cached.cached
    print(f"  extractive, first time: {cold * 1000:.0f} ms ({len(recap.sections)} chapters)")
    print(f"  extractive, from cache: {warm * 1000:.1f} ms (target < 50 ms)")
    from reader.adapters.sqlite.summary_repository import SqliteSummaryRepository
    from reader.app.knowledge.summaries import SummariesUseCase

    with_model = SummariesUseCase(
        services.books, services.chunks, SqliteSummaryRepository(services.db.conn), InstantModel()
    )
    cold, _ = timed(lambda: with_model.story_so_far(book300.id, book300.page_count))
    warm, cached = timed(lambda: with_model.story_so_far(book300.id, book300.page_count), repeat=5)
    assert cached.cached
    print(
        f"  with a model, from cache: {warm * 1000:.1f} ms (first time {cold * 1000:.0f} ms with an instant model)"
    )
    services.close()


if __name__ == "__main__":
    main()
