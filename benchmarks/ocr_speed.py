"""OCR speed and memory: pages per second on a generated scanned PDF, peak memory, the extra's size.

Usage: python benchmarks/ocr_speed.py [--pages 20] [--workdir DIR]
Needs the ocr extra (pip install -e '.[ocr]') and fpdf2 and Pillow (test dependencies).
"""

from __future__ import annotations

import argparse
import io
import json
import random
import re
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

WORDS = (
    "the keeper lamp rock gull harbour letter island night storm tide village inn boat cove light "
    "window stair rope salt wind fog bell oil wick glass lens ledger shore cliff path sea grey cold"
).split()
LINES_PER_PAGE = 28


def make_scanned_pdf(path: Path, pages: int) -> None:
    """`pages` pages, each one 150 dpi A4 picture of 28 lines of text and no text layer."""
    from fpdf import FPDF
    from PIL import Image, ImageDraw, ImageFont

    rng = random.Random(5)
    font = ImageFont.load_default(size=30)
    pdf = FPDF()
    for _ in range(pages):
        image = Image.new("L", (1240, 1754), 255)
        draw = ImageDraw.Draw(image)
        for line in range(LINES_PER_PAGE):
            text = " ".join(rng.choice(WORDS) for _ in range(9)).capitalize() + "."
            draw.text((100, 100 + line * 54), text, fill=0, font=font)
        buffer = io.BytesIO()
        image.save(buffer, "PNG")
        pdf.add_page()
        pdf.image(buffer, x=0, y=0, w=pdf.w, h=pdf.h)
    pdf.output(str(path))


OCR_CHILD = """
import json, resource, sys, time
from pathlib import Path
from reader.services import Services
services = Services.open(sys.argv[1])
outcome = services.importer.import_file(Path(sys.argv[2]), force=True)
book = outcome.book
start = time.perf_counter()
first = []
def on_page(page):
    if not first:
        first.append(time.perf_counter() - start)
result = services.ocr.ocr_book(book.id, on_page=on_page)
elapsed = time.perf_counter() - start
text = services.chunks.get_by_page_range(book.id, 1, book.page_count)
print(json.dumps({"pages": result.read, "seconds": elapsed, "first_page": first[0],
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "chars": sum(len(c.text) for c in text)}))
"""


def _name(requirement: str) -> str:
    return re.split(r"[\s;<>=!~\[(]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def closure(names: list[str]) -> set[str]:
    """Installed distributions `names` need, themselves included (extras' markers ignored)."""
    seen: set[str] = set()
    todo = [n.lower() for n in names]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        seen.add(name)
        todo.extend(_name(r) for r in dist.requires or [] if "extra ==" not in r)
    return seen


def install_size_mb(names: set[str]) -> float:
    total = 0
    for name in names:
        for file in metadata.distribution(name).files or []:
            path = Path(str(file.locate()))
            if path.is_file():
                total += path.stat().st_size
    return total / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="reader-ocr-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    pdf = work / f"scanned-{args.pages}.pdf"
    if not pdf.exists():
        t = time.perf_counter()
        make_scanned_pdf(pdf, args.pages)
        print(f"generated {pdf.name} ({pdf.stat().st_size / 1e6:.1f} MB) in {time.perf_counter() - t:.1f} s")
    db = work / "bench.db"
    db.unlink(missing_ok=True)
    out = subprocess.run([sys.executable, "-c", OCR_CHILD, str(db), str(pdf)], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(out.stderr)
    r = json.loads(out.stdout)
    print(
        f"OCR, {r['pages']} scanned pages ({LINES_PER_PAGE} lines each): {r['seconds']:.1f} s = "
        f"{r['pages'] / r['seconds']:.2f} pages/s (first page, with the model load: {r['first_page']:.1f} s); "
        f"{r['chars']} characters read; peak memory {r['peak_mb']:.0f} MB"
    )
    core = closure(["reader"]) - {"reader"}
    extra = closure(["rapidocr-onnxruntime", "pypdfium2"]) - core
    print(
        f"the ocr extra: {len(extra)} distributions beyond reader's own, {install_size_mb(extra):.0f} MB "
        f"installed ({', '.join(sorted(extra))})"
    )


if __name__ == "__main__":
    main()
