"""What decoding costs when importing a 1 MB text book: UTF-8, Windows-1252 and Latin-1 files.

Prints, for each encoding, the time `decode_text` takes as a share of importing the same file: warm
(in one process, against `ImportBooksUseCase.import_file`) and cold (the first decode in a fresh
process, where the detector's import and set-up are paid, against a whole `reader import` command).
Target: decoding adds under 5%.

Usage: python benchmarks/text_decoding.py [--mb 1.0] [--repeat 5] [--workdir DIR]
"""

from __future__ import annotations

import argparse
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
NAMES = ["Zoë", "Renée", "José", "Françoise", "Malmö", "Núñez", "Ann", "Tom"]


def novel(size: int, curly: bool) -> str:
    """About `size` characters of chaptered prose with names, quotes and dashes now and then."""
    rng = random.Random(5)
    lq, rq, dash = ("\u201c", "\u201d", "\u2014") if curly else ('"', '"', "--")
    parts, total, chapter = [], 0, 0
    while total < size:
        if chapter == 0 or rng.random() < 0.02:
            chapter += 1
            parts.append(f"CHAPTER {chapter}.")
        words = [rng.choice(WORDS) for _ in range(rng.randint(40, 120))]
        words[3] = rng.choice(NAMES)
        if rng.random() < 0.3:
            words[0] = lq + words[0]
            words[8] = words[8] + rq + dash
        paragraph = " ".join(words).capitalize() + "."
        parts.append(paragraph)
        total += len(paragraph) + 2
    return "\n\n".join(parts) + "\n"


COLD = """
import sys, time
from pathlib import Path
from reader.adapters.extractors.text_decoding import decode_text
from reader.services import Services
data = Path(sys.argv[1]).read_bytes()
start = time.perf_counter()
decode_text(data, sys.argv[1])
print(time.perf_counter() - start)
"""
"""The first decode in a fresh process that has loaded reader (as `reader import` has): the detector's
own import and first-use set-up are paid here."""


def cold_cli_import(path: Path, db: Path) -> float:
    """Wall time of `reader import PATH` in a fresh process (start-up included)."""
    if db.exists():
        db.unlink()
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "reader.cli.main", "--db", str(db), "import", str(path)],
        capture_output=True,
        check=True,
    )
    return time.perf_counter() - start


def median_time(call, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="reader-bench-"))
    work.mkdir(parents=True, exist_ok=True)

    from reader.adapters.extractors.text_decoding import decode_text
    from reader.services import Services

    size = int(args.mb * 1_000_000)
    files = {
        "utf-8": (work / "novel-utf8.txt", novel(size, curly=True).encode("utf-8")),
        "cp1252": (work / "novel-cp1252.txt", novel(size, curly=True).encode("cp1252")),
        "latin-1": (work / "novel-latin1.txt", novel(size, curly=False).encode("latin-1")),
    }
    services = Services.open(work / "bench.db")
    for name, (path, data) in files.items():
        path.write_bytes(data)
        decoded = decode_text(data, str(path))
        assert decoded.encoding == name, (name, decoded.encoding)
        warm = median_time(lambda data=data, path=path: decode_text(data, str(path)), args.repeat)
        whole = median_time(lambda path=path: services.importer.import_file(path, force=True), 3)
        cold = statistics.median(
            float(
                subprocess.run(
                    [sys.executable, "-c", COLD, str(path)], capture_output=True, text=True, check=True
                ).stdout
            )
            for _ in range(3)
        )
        cli = statistics.median(cold_cli_import(path, work / "cli.db") for _ in range(3))
        print(
            f"{name:8} {len(data) / 1e6:.2f} MB: decoding {warm * 1000:.1f} ms of a {whole * 1000:.0f} ms import "
            f"({100 * warm / whole:.1f}%); first decoding in a fresh process {cold * 1000:.1f} ms of a "
            f"{cli * 1000:.0f} ms `reader import` ({100 * cold / cli:.1f}%) (target < 5%)"
        )
    services.close()


if __name__ == "__main__":
    main()
