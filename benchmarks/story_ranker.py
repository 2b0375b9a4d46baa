"""Train the learned page re-ranker (reader/app/search/page_ranker.py) on FairytaleQA's train split.

`collect` imports the anthologies of a split (PDF, as story_questions.py does) and records, for every
question with the reader on the answer's page, ten pages on and at the end of the book, the lexical
ranking's best pages before re-ranking (their text and how their score was made). `fit` turns them
into features, fits a listwise logistic model (softmax over each question's pages; numpy, L2) on the
train split, prints R@1/R@5 of the lexical ranking and of the re-ranked one on both splits, and
writes the weights the product reads. The test split is never read.

Usage (from the project root):

    python benchmarks/story_ranker.py collect --split train --workdir /tmp/story/train10
    python benchmarks/story_ranker.py collect --split val --workdir /tmp/story/val
    python benchmarks/story_ranker.py fit --train /tmp/story/train10/candidates.pkl \\
        --check /tmp/story/val/candidates.pkl --write
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from story_books import anthologies, load_split  # noqa: E402
from story_questions import POSITIONS, SHARED, Asked, bind, import_books, position  # noqa: E402

DEPTH = 30
"""Pages of the lexical ranking recorded for each question (the re-ranker sees page_ranker.DEPTH)."""


@dataclass
class Case:
    """One question at one reading position: the lexical ranking's best pages before re-ranking."""

    question: str
    where: str
    explicit: bool
    gold: frozenset[int]
    current_page: int
    ranking: Any
    """page_ranker.Ranking: what the re-ranker is given."""


def collect(args: argparse.Namespace) -> int:
    from reader.app.search import search_books
    from reader.config import Config, EmbeddingsConfig
    from reader.services import Services

    stories = load_split(args.data, args.split)
    books = anthologies(stories, args.size, args.split.title())[: args.books]
    asked: list[Asked] = bind(books)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="reader-story-ranker-"))
    workdir.mkdir(parents=True, exist_ok=True)
    kind = "hybrid" if args.model_dir else "lexical"
    db = workdir / f"{args.split}-pdf-{'local' if args.model_dir else 'lexical'}.db"
    fresh = not db.exists()
    embeddings = EmbeddingsConfig(model=f"local:{args.model_dir}") if args.model_dir else EmbeddingsConfig()
    services = Services.open(db, Config(embeddings=embeddings))
    if fresh:
        import_books(services, books, workdir, "pdf")
    else:
        by_title = {b.title: b for b in services.books.list()}
        for book in books:
            book.book_id = by_title[book.title].id
    if args.model_dir:
        for book in books:
            services.embed_use_case.embed_book(book.book_id)
    seen: list[Any] = []
    original = search_books.learned_order

    def capture(ranking: Any, *rest: Any, **options: Any) -> Any:
        seen.append(ranking)
        return list(ranking.passages)  # the lexical order: what the re-ranker is fitted to re-order

    search_books.learned_order = capture
    search_books.RERANK_DEPTH = DEPTH
    cases: list[Case] = []
    start = time.perf_counter()
    try:
        for where in POSITIONS:
            for q in asked:
                page = position(q, where)
                seen.clear()
                services.search.search(q.book.book_id, q.text, page, 5, kind)
                if seen:
                    cases.append(Case(q.text, where, q.explicit, q.pages, page, seen[-1]))
    finally:
        search_books.learned_order = original
        services.close()
    out = workdir / f"candidates-{kind}.pkl"
    with out.open("wb") as handle:
        pickle.dump(cases, handle)
    print(f"{len(cases)} cases from {len(asked)} questions in {time.perf_counter() - start:.0f} s -> {out}")
    return 0


def _load(path: Path) -> list[Case]:
    with path.open("rb") as handle:
        cases: list[Case] = pickle.load(handle)
    from reader.app.search.passages import Matcher

    for case in cases:  # recorded before the ranking knew the named chapter and closeness
        for name, value in (("named", None), ("closeness", {})):
            if name not in vars(case.ranking):
                object.__setattr__(case.ranking, name, value)
        matcher = Matcher(case.ranking.terms) if case.ranking.terms else None
        for passage in case.ranking.passages:  # or the terms each page holds
            if passage.parts is not None and "found" not in vars(passage.parts) and matcher is not None:
                found = frozenset(i for _, _, i in matcher.found(passage.text))
                object.__setattr__(passage.parts, "found", found)
    return cases


def _matrix(cases: Sequence[Case], depth: int, path: Path) -> tuple[list[Any], list[list[int]]]:
    """Each case's feature rows (numpy, one a page) and the indices of its gold pages among them
    (kept beside the cases until the feature code changes)."""
    import hashlib

    import numpy as np

    from reader.app.search import answer_cues, page_ranker
    from reader.app.search.page_ranker import page_features

    source = b"".join(Path(m.__file__ or "").read_bytes() for m in (page_ranker, answer_cues))
    digest = hashlib.sha256(source + str(depth).encode()).hexdigest()[:16]
    cached = path.with_suffix(f".{digest}.features")
    if cached.exists():
        with cached.open("rb") as handle:
            kept: tuple[list[Any], list[list[int]]] = pickle.load(handle)
        return kept
    rows, golds = [], []
    for case in cases:
        head = case.ranking.passages[:depth]
        features = page_features(case.ranking, depth)
        rows.append(np.array(features, dtype=float).reshape(len(head), len(page_ranker.FEATURES)))
        golds.append([i for i, p in enumerate(head) if p.page in case.gold])
    with cached.open("wb") as handle:
        pickle.dump((rows, golds), handle)
    return rows, golds


def _fit(
    rows: Sequence[Any], offsets: Sequence[Any], golds: Sequence[list[int]], l2: float, steps: int
) -> Any:
    """Weights of a linear scorer maximising each case's softmax probability of its gold pages (Adam,
    full batch; cases padded to one size and masked)."""
    import numpy as np

    usable = [(x, o, g) for x, o, g in zip(rows, offsets, golds, strict=True) if g and len(x) > 1]
    size = max(len(x) for x, _, _ in usable)
    width = usable[0][0].shape[1]
    xs = np.zeros((len(usable), size, width))
    base = np.zeros((len(usable), size))
    mask = np.zeros((len(usable), size), dtype=bool)
    target = np.zeros((len(usable), size))
    for n, (x, o, g) in enumerate(usable):
        xs[n, : len(x)] = x
        base[n, : len(x)] = o
        mask[n, : len(x)] = True
        target[n, g] = 1.0 / len(g)
    weights = np.zeros(width)
    moment = np.zeros(width)
    square = np.zeros(width)
    for step in range(1, steps + 1):
        s = np.where(mask, xs @ weights + base, -np.inf)
        p = np.exp(s - s.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        grad = np.einsum("nsf,ns->f", xs, p - target) / len(usable) + l2 * weights
        moment = 0.9 * moment + 0.1 * grad
        square = 0.999 * square + 0.001 * grad * grad
        weights -= 0.05 * (moment / (1 - 0.9**step)) / (np.sqrt(square / (1 - 0.999**step)) + 1e-8)
    return weights


def _recall(
    cases: Sequence[Case], rows: Sequence[Any], weights: Any | None, depth: int
) -> dict[tuple[str, str], tuple[float, float, int]]:
    """R@1 and R@5 per (position, kind) of the lexical order (weights None) or the re-ranked one."""
    out: dict[tuple[str, str], list[int]] = {}
    for case, x in zip(cases, rows, strict=True):
        pages = [p.page for p in case.ranking.passages]
        if weights is not None and len(x):
            scores = x @ weights
            order = sorted(range(len(x)), key=lambda i: (-scores[i], i))
            pages = [pages[i] for i in order] + pages[depth:]
        rank = next((i + 1 for i, p in enumerate(pages[:5]) if p in case.gold), 0)
        for kind in ("all", "explicit" if case.explicit else "implicit"):
            out.setdefault((case.where, kind), []).append(rank)
    return {
        key: (
            sum(0 < r <= 1 for r in ranks) / len(ranks),
            sum(0 < r <= 5 for r in ranks) / len(ranks),
            len(ranks),
        )
        for key, ranks in out.items()
    }


def _print(
    title: str,
    lexical: dict[tuple[str, str], tuple[float, float, int]],
    learned: dict[tuple[str, str], tuple[float, float, int]],
) -> None:
    print(f"\n{title} (R@1 / R@5)")
    print(f"{'order':<9} {'kind':<9} {'n':>5}" + "".join(f" {w + ' R@1':>11} {'R@5':>6}" for w in POSITIONS))
    for name, table in (("lexical", lexical), ("learned", learned)):
        for kind in ("all", "explicit", "implicit"):
            n = table.get(("end", kind), (0, 0, 0))[2]
            line = f"{name:<9} {kind:<9} {n:>5}"
            for where in POSITIONS:
                r1, r5, _ = table.get((where, kind), (0.0, 0.0, 0))
                line += f" {r1:>11.3f} {r5:>6.3f}"
            print(line)


def fit(args: argparse.Namespace) -> int:
    import numpy as np

    from reader.app.search import page_ranker

    depth = page_ranker.DEPTH
    train = _load(args.train)
    rows, golds = _matrix(train, depth, args.train)
    width = rows[0].shape[1]
    stacked = np.vstack([x for x in rows if len(x)])
    mean = stacked.mean(axis=0)
    scale = stacked.std(axis=0)
    scale[scale == 0] = 1.0
    normal = [(x - mean) / scale for x in rows]
    left_out = [name for name in args.without.split(",") if name]
    if args.kind == "lexical":
        left_out += ["closeness", "closeness_gap"]
    dropped = [page_ranker.FEATURES.index(name) for name in left_out]
    fixed = {
        page_ranker.FEATURES.index(n): float(v) for n, v in (f.split("=") for f in args.fix.split(",") if f)
    }
    offsets = [sum((x[:, i] * v for i, v in fixed.items()), np.zeros(len(x))) for x in rows]
    for x in normal:
        x[:, dropped + list(fixed)] = 0.0
    start = time.perf_counter()
    weights = _fit(normal, offsets, golds, args.l2, args.steps)
    print(f"fitted {width} features on {len(train)} cases in {time.perf_counter() - start:.0f} s")
    # back to raw features: w . (x - mean) / scale = (w / scale) . x + constant (the constant does not rank)
    raw = weights / scale
    for i, v in fixed.items():
        raw[i] = v
    for name, value in zip(page_ranker.FEATURES, raw, strict=True):
        print(f"  {name:<22} {value:+.4f}")
    _print(f"tuning half {args.train}", _recall(train, rows, None, depth), _recall(train, rows, raw, depth))
    if args.check:
        check = _load(args.check)
        check_rows, _ = _matrix(check, depth, args.check)
        _print(
            f"checking half {args.check}",
            _recall(check, check_rows, None, depth),
            _recall(check, check_rows, raw, depth),
        )
    if args.write:
        try:
            data = json.loads(page_ranker.WEIGHTS_PATH.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        if data.get("features") != list(page_ranker.FEATURES):
            data = {"features": list(page_ranker.FEATURES), "weights": {}}
        data["about"] = (
            "Learned page re-ranker weights (benchmarks/story_ranker.py fit, FairytaleQA train split)."
        )
        data["weights"][args.kind] = [round(float(v), 6) for v in raw]
        page_ranker.WEIGHTS_PATH.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {page_ranker.WEIGHTS_PATH}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    take = commands.add_parser("collect", help="record the lexical ranking's best pages for every question")
    take.add_argument("--data", type=Path, default=SHARED / "bench" / "fairytaleqa")
    take.add_argument("--split", choices=("train", "val"), default="train")
    take.add_argument("--size", type=int, default=23, help="stories per anthology")
    take.add_argument("--books", type=int, default=None, help="only the first N anthologies")
    take.add_argument("--workdir", type=Path, default=None)
    take.add_argument(
        "--model-dir", type=Path, default=None, help="in-process ONNX model: record hybrid rankings"
    )
    learn = commands.add_parser("fit", help="fit the re-ranker on recorded rankings")
    learn.add_argument("--train", type=Path, required=True)
    learn.add_argument("--check", type=Path, default=None)
    learn.add_argument("--l2", type=float, default=0.01)
    learn.add_argument("--steps", type=int, default=400)
    learn.add_argument("--without", default="", help="comma-separated features left out (fitted as 0)")
    learn.add_argument("--fix", default="", help="comma-separated name=weight: features held at a weight")
    learn.add_argument(
        "--kind", choices=("lexical", "hybrid"), default="lexical", help="which weights to fit"
    )
    learn.add_argument("--write", action="store_true", help="write the weights into the package")
    args = parser.parse_args(argv)
    return collect(args) if args.command == "collect" else fit(args)


if __name__ == "__main__":
    sys.exit(main())
