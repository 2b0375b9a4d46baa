"""Import speed and memory: PDF pages/s, EPUB time, peak memory, re-import, page lookup.

Usage: python benchmarks/import_speed.py [--pages 500] [--big-pages 1000] [--workdir DIR]
Needs fpdf2 (a test dependency) to generate the PDFs.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WORDS = (
    "the keeper lamp rock gull harbour letter island night storm tide village inn boat cove light "
    "window stair rope salt wind fog bell oil wick glass lens ledger shore cliff path sea grey cold"
).split()


def sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(8, 18))]
    return " ".join(words).capitalize() + "."


def make_pdf(path: Path, pages: int) -> None:
    from fpdf import FPDF

    rng = random.Random(7)
    pdf = FPDF()
    pdf.set_font("Helvetica", size=10)
    for number in range(pages):
        pdf.add_page()
        if number % 20 == 0:
            pdf.start_section(f"Chapter {number // 20 + 1}")
        for _ in range(5):
            pdf.multi_cell(0, 5, " ".join(sentence(rng) for _ in range(5)))
            pdf.ln(3)
    pdf.output(str(path))


def make_epub(path: Path, chars: int) -> None:
    from ebooklib import epub

    rng = random.Random(11)
    book = epub.EpubBook()
    book.set_identifier("bench-epub")
    book.set_title("Benchmark EPUB")
    book.set_language("en")
    book.add_author("Bench")
    chapters, total, number = [], 0, 0
    while total < chars:
        number += 1
        paragraphs = [" ".join(sentence(rng) for _ in range(6)) for _ in range(60)]
        total += sum(len(p) for p in paragraphs)
        body = "".join(f"<p>{p}</p>" for p in paragraphs)
        item = epub.EpubHtml(title=f"Chapter {number}", file_name=f"c{number}.xhtml", lang="en")
        item.content = f"<h1>Chapter {number}</h1>{body}"
        book.add_item(item)
        chapters.append(item)
    book.toc = chapters
    book.spine = ["nav", *chapters]
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    epub.write_epub(str(path), book)


IMPORT_CHILD = """
import json, resource, sys, time
from pathlib import Path
from reader.services import Services
services = Services.open(sys.argv[1])
start = time.perf_counter()
outcome = services.importer.import_file(Path(sys.argv[2]), force=True)
elapsed = time.perf_counter() - start
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps({"status": outcome.status, "pages": outcome.book.page_count if outcome.book else 0,
                  "seconds": elapsed, "peak_mb": own, "child_peak_mb": kids, "message": outcome.message}))
"""


def import_in_child(db: Path, book: Path) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", IMPORT_CHILD, str(db), str(book)], capture_output=True, text=True
    )
    if out.returncode != 0:
        raise SystemExit(out.stderr)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=500)
    parser.add_argument("--big-pages", type=int, default=1000)
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="reader-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    db = work / "bench.db"
    if db.exists():
        db.unlink()

    pdf = work / f"text-{args.pages}.pdf"
    big = work / f"text-{args.big_pages}.pdf"
    epub_path = work / "text-2mb.epub"
    for path, make in (
        (pdf, lambda p: make_pdf(p, args.pages)),
        (big, lambda p: make_pdf(p, args.big_pages)),
        (epub_path, lambda p: make_epub(p, 2_000_000)),
    ):
        if not path.exists():
            t = time.perf_counter()
            make(path)
            print(f"generated {path.name} in {time.perf_counter() - t:.1f} s")

    r = import_in_child(db, pdf)
    print(
        f"PDF import, {r['pages']} pages: {r['seconds']:.2f} s = {r['pages'] / r['seconds']:.0f} pages/s "
        f"(target >= 100 pages/s)"
    )
    r = import_in_child(db, epub_path)
    size_mb = os.path.getsize(epub_path) / 1e6
    print(
        f"EPUB import, ~2 MB of text ({size_mb:.1f} MB file, {r['pages']} pages): {r['seconds']:.2f} s "
        f"(target < 1 s)"
    )
    r = import_in_child(db, big)
    print(
        f"PDF import, {r['pages']} pages: {r['seconds']:.2f} s; peak memory {r['peak_mb']:.0f} MB "
        f"(largest worker {r['child_peak_mb']:.0f} MB) (target < 250 MB)"
    )

    from reader.services import Services

    services = Services.open(db)
    start = time.perf_counter()
    outcome = services.importer.import_file(big)
    print(
        f"re-import unchanged {big.name}: {time.perf_counter() - start:.3f} s, status {outcome.status} "
        f"(target < 0.2 s)"
    )
    assert outcome.book is not None
    book_id, count = outcome.book.id, outcome.book.page_count
    chunks = services.chunks
    rng = random.Random(3)
    times = []
    for _ in range(2000):
        page = rng.randint(1, count)
        t = time.perf_counter()
        chunks.get_by_page_range(book_id, page, page)
        times.append(time.perf_counter() - t)
    times.sort()
    print(
        f"get_by_page_range, one page of {count}: p50 {statistics.median(times) * 1000:.3f} ms, "
        f"p99 {times[int(len(times) * 0.99)] * 1000:.3f} ms (target p50 < 1 ms)"
    )
    services.close()


if __name__ == "__main__":
    main()
