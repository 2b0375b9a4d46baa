"""Visual scoring's cost at import, and `reader enrich`'s own overhead per page.

1. PDF import with and without the visual measurements (same files, alternating runs, median of
   --repeats): a text-only book and a book with a figure, a chart or an image on half its pages.
   Target: visual scoring adds under 15% to PDF import time. Both wall time and CPU time (this
   process plus the PDF worker processes) are shown: on a busy 2-core machine wall time swings by
   20% from run to run, CPU time much less.
2. `reader enrich` over a book against the scripted OpenAI-compatible server answering instantly,
   through the real litellm client: wall time per page, the part spent inside the model call
   (litellm + HTTP + the server), and the rest, which is enrich's own overhead (reading the page,
   hashing, building the request, validating, storing). Target: own overhead under 20 ms a page.

Usage: python benchmarks/visuals_speed.py [--pages 300] [--repeats 5] [--enrich-pages 100] [--workdir DIR]
Needs fpdf2 and Pillow (test dependencies) to generate the PDFs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

MIXED_CYCLE = ("prose", "captioned", "prose", "vector", "prose", "prose+small", "prose", "figure")


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (the PDF workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def import_seconds(db: Path, pdf: Path, measure: bool) -> tuple[float, float]:
    """(wall, CPU) seconds of one forced import of `pdf` into a fresh library, with or without visual scoring."""
    from reader.adapters.extractors.pdf import PdfExtractor
    from reader.adapters.sqlite.book_repository import SqliteBookRepository
    from reader.adapters.sqlite.connection import Database
    from reader.adapters.sqlite.migrations import INDEX_VERSION
    from reader.app.library.import_books import ImportBooksUseCase

    if db.exists():
        db.unlink()
    database = Database(db)
    extractor = PdfExtractor(measure_visuals=measure)
    importer = ImportBooksUseCase(SqliteBookRepository(database.conn), lambda _: extractor, INDEX_VERSION)
    start, cpu = time.perf_counter(), cpu_seconds()
    outcome = importer.import_file(pdf, force=True)
    elapsed, used = time.perf_counter() - start, cpu_seconds() - cpu
    database.close()
    if not outcome.ok:
        raise SystemExit(outcome.message)
    return elapsed, used


def compare(work: Path, pdf: Path, repeats: int) -> tuple[tuple[float, float], tuple[float, float], int]:
    """Median (wall, CPU) seconds without and with visual scoring, and how many pages scored 3 or more."""
    import_seconds(work / "warm.db", pdf, True)  # warm the file cache and imports
    plain: list[tuple[float, float]] = []
    measured: list[tuple[float, float]] = []
    for _ in range(repeats):
        plain.append(import_seconds(work / "bench.db", pdf, False))
        measured.append(import_seconds(work / "bench.db", pdf, True))
    from reader.adapters.sqlite.connection import Database

    database = Database(work / "bench.db")
    figures = database.conn.execute("SELECT count(*) FROM pages WHERE visual_importance >= 3").fetchone()[0]
    database.close()

    def medians(runs: list[tuple[float, float]]) -> tuple[float, float]:
        return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)

    return medians(plain), medians(measured), figures


class TimedModel:
    """A chat model wrapper that adds up the time spent inside its calls."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.seconds = 0.0
        self.calls = 0

    @property
    def name(self) -> str:
        return str(self.model.name)

    def supports_tools(self) -> bool:
        return bool(self.model.supports_tools())

    def supports_pdf_input(self) -> bool:
        return bool(self.model.supports_pdf_input())

    def context_window(self) -> int:
        return int(self.model.context_window())

    def stream(
        self, messages: Sequence[dict[str, Any]], tools: Any = None, *, json_object: Any = False
    ) -> Iterator[Any]:
        start = time.perf_counter()
        try:
            yield from self.model.stream(messages, tools, json_object=json_object)
        finally:
            self.seconds += time.perf_counter() - start
            self.calls += 1


def enrich_overhead(work: Path, pdf: Path) -> dict[str, float]:
    from reader.app.pages.enrich_pages import EnrichPagesUseCase
    from reader.config import ChatConfig, Config
    from reader.domain.chat_model import RetryPolicy
    from reader.services import Services
    from tests.support import scripted_server as scripted

    db = work / "enrich.db"
    if db.exists():
        db.unlink()
    with scripted.ScriptedServer() as server:
        chat = ChatConfig(model="openai/scripted", api_base=server.base_url, timeout=10.0)
        services = Services.open(db, Config(chat=chat))
        book = services.importer.import_file(pdf).book
        assert book is not None
        reply = json.dumps(
            {
                "summary": "The keeper trims the wick and watches the harbour.",
                "sections": ["The Lamp"],
                "visuals": [{"type": "figure", "description": "the lamp", "relevance": "supporting"}],
                "visual_importance": 2,
                "full_text": "",
            }
        )
        model = services.chat_model
        assert model is not None
        server.script_chat(scripted.text(reply))
        list(model.stream([{"role": "user", "content": "warm up"}]))  # litellm's first call loads a lot
        timed = TimedModel(model)
        use_case = EnrichPagesUseCase(
            services.books, services.chunks, services.enrichments, timed, retry=RetryPolicy(0, 0.0)
        )
        server.script_chat(*[scripted.text(reply) for _ in range(book.page_count)])
        start = time.perf_counter()
        outcome = use_case.enrich_book(book.id)
        wall = time.perf_counter() - start
        rerun_start = time.perf_counter()
        again = use_case.enrich_book(book.id)
        rerun = time.perf_counter() - rerun_start
        services.close()
    pages = outcome.enriched
    assert pages == book.page_count and not outcome.failures and again.skipped == pages
    return {
        "pages": pages,
        "wall_ms": 1000 * wall / pages,
        "model_ms": 1000 * timed.seconds / pages,
        "own_ms": 1000 * (wall - timed.seconds) / pages,
        "rerun_ms": 1000 * rerun / pages,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--enrich-pages", type=int, default=100)
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="reader-visuals-"))
    work.mkdir(parents=True, exist_ok=True)

    from import_speed import make_pdf

    from tests.fixtures_books import write_figure_pdf

    text_pdf = work / f"text-{args.pages}.pdf"
    mixed_pdf = work / f"mixed-{args.pages}.pdf"
    enrich_pdf = work / f"enrich-{args.enrich_pages}.pdf"
    layouts = [MIXED_CYCLE[i % len(MIXED_CYCLE)] for i in range(args.pages)]
    for path, make in (
        (text_pdf, lambda p: make_pdf(p, args.pages)),
        (mixed_pdf, lambda p: write_figure_pdf(p, layouts)),
        (enrich_pdf, lambda p: write_figure_pdf(p, [MIXED_CYCLE[i % 8] for i in range(args.enrich_pages)])),
    ):
        if not path.exists():
            started = time.perf_counter()
            make(path)
            print(f"generated {path.name} in {time.perf_counter() - started:.1f} s")

    for name, pdf in (("text-only", text_pdf), ("with figures", mixed_pdf)):
        plain, measured, figures = compare(work, pdf, args.repeats)
        wall = 100 * (measured[0] / plain[0] - 1)
        cpu = 100 * (measured[1] / plain[1] - 1)
        print(
            f"PDF import, {args.pages} pages {name} ({figures} pages scored 3 or more), median of {args.repeats}: "
            f"wall {plain[0]:.3f} s without visual scoring, {measured[0]:.3f} s with ({wall:+.1f}%); "
            f"CPU {plain[1]:.3f} s without, {measured[1]:.3f} s with ({cpu:+.1f}%) (target < +15%)"
        )

    r = enrich_overhead(work, enrich_pdf)
    print(
        f"enrich, {r['pages']:.0f} pages, instant scripted model: {r['wall_ms']:.1f} ms a page in all, "
        f"{r['model_ms']:.1f} ms in the model call (litellm + HTTP), {r['own_ms']:.2f} ms enrich's own "
        f"overhead (target < 20 ms); re-run with every page done: {r['rerun_ms']:.2f} ms a page"
    )


if __name__ == "__main__":
    main()
