"""Search latency on War and Peace as the reader meets it: in the app (the model loaded) and as a
`reader search` process, wall and CPU time, with a check that the rankings stay the same.

Parts:
  - app: `services.search.search(...)` as the app calls it (a use case per search, in one process
    with the in-process model loaded), story-style questions, lexical and hybrid, the reader at a new
    random page for every question, then five questions at each of a few pages. p50/p90 wall time and
    CPU time of the process (the query embedder's thread included).
  - cli: `reader search --mode hybrid` (and lexical) as new processes, end to end: wall time and the
    child's CPU time (user + system).
  - rankings: `--record FILE` writes every search's results (chunk, page, score to 6 places, answer
    spans); `--check FILE` compares against them and fails on any difference.

Before/after on a loaded machine: `--baseline DIR` (a checkout of the earlier tree, e.g. from `git
archive`) runs each part for that tree and this one in turns, round after round (`--rounds`), so both
see the same load.

The library (War and Peace imported, vectors for every chunk in the model's space) is built once in
`--workdir`; the vectors are random unit vectors unless the book is already embedded (search time does
not depend on what the vectors hold; the query is embedded by the real model).

Usage (from the project root):

    python benchmarks/search_latency.py --workdir /tmp/wp --record /tmp/wp/rankings.json
    python benchmarks/search_latency.py --workdir /tmp/wp --baseline /tmp/base --rounds 3 --check /tmp/wp/rankings.json

Targets (issue 24): p50 under 30 ms lexical and hybrid in the app; a hybrid process under 1 s.

Measured on the shared 2-core machine at load 3-5, 3 rounds in turns, p50/p90 (ms), before -> after
SearchMemory, the index's kept spans and counts, the kept optimised model graph and lazy imports; the
rankings of the 600 searches checked (300 a mode) the same:
  app lexical      wall 23.4/40.1 -> 15.2/26.7    CPU 15.3/21.6 -> 10.2/14.6
  app hybrid       wall 34.3/58.5 -> 27.5/44.7    CPU 26.6/35.0 -> 21.4/27.0
  process hybrid   wall 990/1163  -> 655/830      CPU 617/785   -> 408/541
  process lexical  wall 232/296   -> 169/260      CPU 154/211   -> 123/173
"""

from __future__ import annotations

import argparse
import compileall
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

HERE = Path(__file__).resolve().parent
SHARED = Path(os.environ.get("READER_SHARED", HERE.parents[1] / "shared"))
if TYPE_CHECKING:
    from reader.services import Services

FRAMES = (
    "How did {a} feel when {b} left?",
    "Why did {a} refuse to see {b}?",
    "What will {a} do after {b} returns?",
    "Where did {a} meet {b}?",
    "Who was with {a} at the ball?",
    "what happened at the battle near the river",
)
NAMES = ("Pierre", "Natasha", "Andrew", "Nicholas", "Mary", "Sonya", "Boris", "Dolokhov", "Kutuzov", "Napoleon")
K = 5


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else math.nan


def questions(count: int, pages: int, seed: int = 7) -> list[tuple[str, int]]:
    """(question, page): a new random page for each, then five questions at each of a few pages."""
    rng = random.Random(seed)

    def question() -> str:
        return rng.choice(FRAMES).format(a=rng.choice(NAMES), b=rng.choice(NAMES))

    out = [(question(), rng.randint(50, pages)) for _ in range(count)]
    for _ in range(max(1, count // 10)):
        page = rng.randint(50, pages)
        out += [(question(), page) for _ in range(5)]
    return out


def _config(workdir: Path, model_dir: Path) -> Path:
    path = workdir / "config.toml"
    path.write_text(f'[embeddings]\nmodel = "local:{model_dir}"\n', encoding="utf-8")
    return path


def build(workdir: Path, book_path: Path, model_dir: Path) -> None:
    """The library: the book imported and every chunk holding a vector in the model's space."""
    from reader.config import Config, EmbeddingsConfig
    from reader.domain.search import EmbeddingVector
    from reader.services import Services

    services = Services.open(workdir / "library.db", Config(embeddings=EmbeddingsConfig(model=f"local:{model_dir}")))
    if not services.books.list():
        outcome = services.importer.import_file(book_path)
        if not outcome.ok or outcome.book is None:
            raise SystemExit(f"import failed: {outcome.message}")
    book = services.books.list()[0]
    provider = services.embedding_provider
    assert provider is not None
    dimension = len(provider.embed_query("warm up"))
    space = services.vectors.space(provider.name, dimension)
    missing = services.vectors.missing_chunks(book.id, space)
    rng = random.Random(3)
    for start in range(0, len(missing), 500):
        batch = []
        for chunk in missing[start : start + 500]:
            raw = [rng.gauss(0, 1) for _ in range(dimension)]
            norm = math.sqrt(sum(x * x for x in raw))
            batch.append(EmbeddingVector(chunk.id, [x / norm for x in raw], chunk.start_page, chunk.end_page))
        services.vectors.add(space, book.id, batch)
    services.vectors.mark_embedded(book.id, space)
    services.books.set_current_page(book.id, book.page_count * 2 // 3)
    services.close()
    _config(workdir, model_dir)


def _ranking(response: Any) -> list[Any]:
    return [
        [r.chunk_id, r.start_page, round(r.score, 6), [list(s) for s in r.answer_spans], list(r.retrievers)]
        for r in response.results
    ]


def app_part(workdir: Path, model_dir: Path, count: int) -> dict[str, Any]:
    """Searches timed as the app makes them; prints one JSON object (timings and rankings)."""
    from reader.config import Config, EmbeddingsConfig
    from reader.services import Services

    services: Services = Services.open(
        workdir / "library.db", Config(embeddings=EmbeddingsConfig(model=f"local:{model_dir}"))
    )
    book = services.books.list()[0]
    provider = services.embedding_provider
    assert provider is not None
    provider.embed_query("warm up")  # the model loaded, as in the app after its first search
    asked = questions(count, book.page_count)
    out: dict[str, Any] = {"wall": {}, "cpu": {}, "rankings": {}}
    for mode in ("lexical", "hybrid"):
        for question, page in asked[:3]:  # first-call costs are not search latency
            services.search.search(book.id, question, page, K, mode)
        walls, cpus, rankings = [], [], []
        for question, page in asked:
            wall, cpu = time.perf_counter(), time.process_time()
            response = services.search.search(book.id, question, page, K, mode)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
            if response.mode != mode:
                raise SystemExit(f"{mode} search ran as {response.mode}: {response.warnings}")
            rankings.append([question, page, _ranking(response)])
        out["wall"][mode], out["cpu"][mode], out["rankings"][mode] = walls, cpus, rankings
    services.close()
    return out


def cli_part(workdir: Path, src: Path, mode: str, question: str) -> tuple[float, float]:
    """One `reader search` process: (wall, CPU) seconds."""
    env = dict(os.environ, READER_DB=str(workdir / "library.db"), READER_CONFIG=str(workdir / "config.toml"))
    env["PYTHONPATH"] = str(src)
    env["XDG_CACHE_HOME"] = str(workdir / "cache")
    command = [sys.executable, "-c", "import sys; from reader.cli.main import run; sys.exit(run())"]
    command += ["search", "--mode", mode, "War", question]
    start = time.perf_counter()
    # run from the library's folder: `-c` puts the working directory first on sys.path
    process = subprocess.Popen(command, env=env, cwd=workdir, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    stdout, stderr = process.communicate()
    if process.returncode != 0 or b"hybrid" not in stdout and mode == "hybrid":
        raise SystemExit(f"reader search failed ({src}): {stderr.decode()[-500:]}")
    return wall, usage.ru_utime + usage.ru_stime


def _child(src: Path, args: argparse.Namespace) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(src), XDG_CACHE_HOME=str(args.workdir / "cache"))
    command = [sys.executable, str(HERE / "search_latency.py"), "--part", "app", "--workdir", str(args.workdir)]
    command += ["--model-dir", str(args.model_dir), "--queries", str(args.queries), "--src", str(src)]
    done = subprocess.run(command, env=env, cwd=args.workdir, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"app part failed ({src}):\n{done.stderr[-2000:]}")
    return dict(json.loads(done.stdout))


def _row(label: str, values: Sequence[float]) -> str:
    return f"  {label:<40} p50 {percentile(values, 0.5) * 1000:7.1f}  p90 {percentile(values, 0.9) * 1000:7.1f} ms  (n={len(values)})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--book", type=Path, default=SHARED / "books" / "war-and-peace.epub")
    parser.add_argument("--model-dir", type=Path, default=SHARED / "models" / "minilm-l6-int8")
    parser.add_argument("--workdir", type=Path, default=None, help="keep and reuse the library here")
    parser.add_argument("--queries", type=int, default=200, help="questions at new pages (plus 10%% x 5 at one page)")
    parser.add_argument("--cli", type=int, default=8, help="`reader search` processes per mode and round")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--baseline", type=Path, default=None, help="an earlier tree to measure in turns")
    parser.add_argument("--record", type=Path, default=None, help="write the rankings here")
    parser.add_argument("--check", type=Path, default=None, help="compare the rankings with these")
    parser.add_argument("--part", choices=("all", "app"), default="all", help=argparse.SUPPRESS)
    parser.add_argument("--src", type=Path, default=HERE.parent, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.src))
    args.workdir = (args.workdir or Path(tempfile.mkdtemp(prefix="reader-latency-"))).resolve()
    args.workdir.mkdir(parents=True, exist_ok=True)
    if args.part == "app":
        print(json.dumps(app_part(args.workdir, args.model_dir, args.queries)))
        return 0
    if not (args.workdir / "library.db").exists():
        start = time.perf_counter()
        build(args.workdir, args.book, args.model_dir)
        print(f"library built in {time.perf_counter() - start:.0f} s ({args.workdir})")
    _config(args.workdir, args.model_dir)
    trees = {"before": args.baseline.resolve()} if args.baseline else {}
    trees["now"] = HERE.parent
    for src in trees.values():  # byte-compiled, as an installed package is
        compileall.compile_dir(src / "reader", quiet=1)
    app: dict[str, dict[str, dict[str, list[float]]]] = {t: {"wall": {}, "cpu": {}} for t in trees}
    cli: dict[str, dict[str, list[tuple[float, float]]]] = {t: {"hybrid": [], "lexical": []} for t in trees}
    rankings: dict[str, Any] = {}
    rng = random.Random(11)
    for _ in range(args.rounds):
        for tree, src in trees.items():
            got = _child(src, args)
            for kind in ("wall", "cpu"):
                for mode, values in got[kind].items():
                    app[tree][kind].setdefault(mode, []).extend(values)
            rankings[tree] = got["rankings"]
        for _ in range(args.cli):
            question = rng.choice(FRAMES).format(a=rng.choice(NAMES), b=rng.choice(NAMES))
            for mode in ("hybrid", "lexical"):
                for tree, src in trees.items():
                    cli[tree][mode].append(cli_part(args.workdir, src, mode, question))
    load = os.getloadavg()[0]
    print(f"War and Peace, k={K}, {args.rounds} round(s), load {load:.1f} at the end")
    for tree in trees:
        print(f"{tree} ({trees[tree]}):")
        for mode in ("lexical", "hybrid"):
            print(_row(f"app {mode}, wall", app[tree]["wall"][mode]))
            print(_row(f"app {mode}, CPU", app[tree]["cpu"][mode]))
        for mode in ("hybrid", "lexical"):
            runs = cli[tree][mode]
            if runs:
                print(_row(f"`reader search --mode {mode}`, wall", [w for w, _ in runs]))
                print(_row(f"`reader search --mode {mode}`, CPU", [c for _, c in runs]))
    failed = False
    if args.baseline and rankings["before"] != rankings["now"]:
        failed = True
        print("rankings differ between the trees:", _differences(rankings["before"], rankings["now"]))
    if args.record:
        args.record.write_text(json.dumps({"queries": args.queries, "rankings": rankings["now"]}), encoding="utf-8")
    if args.check:
        recorded = json.loads(args.check.read_text(encoding="utf-8"))
        if recorded.get("queries") != args.queries:
            raise SystemExit(f"{args.check} holds rankings for --queries {recorded.get('queries')}")
        expected = recorded["rankings"]
        same = expected == rankings["now"]
        failed |= not same
        print(f"rankings against {args.check}: {'the same' if same else _differences(expected, rankings['now'])}")
    return 1 if failed else 0


def _differences(before: dict[str, Any], now: dict[str, Any]) -> str:
    changed = [
        f"{mode} '{b[0]}' p. {b[1]}"
        for mode in before
        for b, n in zip(before[mode], now.get(mode, []), strict=False)
        if b != n
    ]
    return f"{len(changed)} searches, e.g. {changed[:3]}"


if __name__ == "__main__":
    sys.exit(main())
