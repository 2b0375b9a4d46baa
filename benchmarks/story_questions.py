"""Story questions: does search find the page that answers a reader's question about a story?

FairytaleQA stories (train and val splits; the test split is held out) are bound as anthologies, one
story section a page, a story's title heading its first page, and imported through the real pipeline
as PDFs (fpdf2, an outline entry a story) and EPUBs (a print page-list, one page a section). Each
question has the section(s) that answer it; a hit is a result on one of those pages. R@1 and R@5
(k=5) are printed for the reader on the answer's page, ten pages further on, and at the end of the
book, explicit and implicit questions apart, for each mode next to a plain BM25 over the same pages.
The leak check puts the reader on the page before the answer's first page: no result may end later.
Then search latency on War and Peace (lexical, and hybrid with the in-process model when given).

Usage (from the project root):

    python benchmarks/story_questions.py --split val                        # checking half
    python benchmarks/story_questions.py --split train --books 3            # tuning half (a part of it)
    python benchmarks/story_questions.py --split val --model-dir ../shared/models/minilm-l6-int8
    python ../shared/tools/embedding_server.py --port 8765 &
    python benchmarks/story_questions.py --split val --embeddings-url http://127.0.0.1:8765/v1

Targets (offline default): on the answer's page R@1 >= 0.85, R@5 >= 0.97; at the end of the book
R@1 >= 0.75, R@5 >= 0.95; 0 leaks; War and Peace p50 under 30 ms.

A question FairytaleQA answers with several sections counts as a hit on any of them; the reader is put
on the last of them, and the leak check on the page before the first.

Measured (PDF, R@1/R@5 on the answer's page / ten pages on / at the end; 0 leaks everywhere, 0 short),
with the learned page re-ranker (reader/app/search/page_ranker.py, fitted by benchmarks/story_ranker.py
on all 10 train anthologies):
  train, 3 anthologies, 2,564 questions (tuning half):
    lexical 0.920/0.986  0.673/0.913  0.670/0.905;  hybrid (MiniLM) 0.923/0.988  0.683/0.920  0.680/0.914
    plain BM25 0.742/0.931  0.657/0.895  0.630/0.874
    (before the re-ranker: lexical 0.899/0.979  0.669/0.906  0.656/0.893; hybrid 0.888/0.980
    0.676/0.918  0.667/0.904)
  val, 1 anthology, 1,025 questions (checking half):
    lexical 0.861/0.975  0.633/0.863  0.641/0.849;  hybrid (MiniLM, in-process) 0.864/0.982  0.635/0.876
    0.651/0.864;  plain BM25 0.675/0.884  0.616/0.852  0.587/0.831
    (before the re-ranker: lexical 0.848/0.960  0.622/0.866  0.619/0.843; hybrid 0.842/0.962
    0.630/0.879  0.632/0.862)
  War and Peace (1,772 pages), on a shared 2-core machine at load 2.6 (figures move by 2x with the load):
    lexical p50 26-33 ms with the re-ranker against 25-30 ms without, in alternating runs (the features
    of 20 pages cost about 3-4 ms); hybrid p50 29-53 ms before the re-ranker (not re-measured).
With an irregular verb counted in all its forms (reader/app/search/verb_forms.py; same weights):
  train, 3 anthologies: lexical 0.931/0.986  0.684/0.925  0.683/0.917
  val: lexical 0.865/0.979  0.640/0.866  0.649/0.853; as EPUBs 0.867/0.975  0.651/0.875  0.656/0.859
  (re-fitting the weights on the new rankings changed the checking half by under 0.004: not written)
Hybrid (the learned re-ranker with each page's closeness to the question from the stored vectors)
now beats lexical at every position on the checking half, narrowly; it stays off by default
(search_books.HYBRID_BY_DEFAULT) until that switch is made on its own.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from story_books import Anthology, anthologies, load_split, write_epub, write_pdf  # noqa: E402

if TYPE_CHECKING:
    from reader.services import Services

SHARED = Path(os.environ.get("READER_SHARED", Path(__file__).resolve().parents[2] / "shared"))
K = 5
POSITIONS = ("answer", "+10", "end")
_WORD = re.compile(r"[^\W_]+")


@dataclass
class Asked:
    """A question bound to its book: the answer's pages in the book."""

    book: Anthology
    text: str
    pages: frozenset[int]
    explicit: bool


@dataclass
class Tally:
    """Ranks of the first hit (0: a miss) per position and kind."""

    ranks: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    seconds: list[float] = field(default_factory=list)
    short: int = 0
    """Searches that returned fewer than k results although k visible pages hold a question word."""

    def add(self, position: str, explicit: bool, rank: int) -> None:
        for kind in ("all", "explicit" if explicit else "implicit"):
            self.ranks.setdefault((position, kind), []).append(rank)

    def recall(self, position: str, kind: str, k: int) -> float:
        ranks = self.ranks.get((position, kind), [])
        return sum(1 for r in ranks if 0 < r <= k) / max(1, len(ranks))


def bind(books: Sequence[Anthology]) -> list[Asked]:
    asked = []
    for book in books:
        for story, first in zip(book.stories, book.first_page, strict=True):
            for q in story.questions:
                asked.append(Asked(book, q.text, frozenset(first + s - 1 for s in q.sections), q.explicit))
    return asked


def position(question: Asked, where: str) -> int:
    last = max(question.pages)
    if where == "answer":
        return last
    if where == "+10":
        return min(question.book.page_count, last + 10)
    return question.book.page_count


def first_hit(results: Sequence[Any], pages: frozenset[int]) -> int:
    for rank, result in enumerate(results, 1):
        if any(result.start_page <= p <= result.end_page for p in pages):
            return rank
    return 0


def import_books(services: Services, books: Sequence[Anthology], folder: Path, fmt: str) -> None:
    """Write and import every anthology; check that page p holds the section bound to it."""
    for number, book in enumerate(books, 1):
        path = folder / f"{number:02d}-{book.title.lower().replace(' ', '-')}.{fmt}"
        (write_pdf if fmt == "pdf" else write_epub)(book, path)
        outcome = services.importer.import_file(path)
        if not outcome.ok or outcome.book is None:
            raise SystemExit(f"import of {path.name} failed: {outcome.message}")
        book.book_id = outcome.book.id
        if outcome.book.page_count != book.page_count:
            raise SystemExit(f"{path.name}: {outcome.book.page_count} pages, expected {book.page_count}")
        services.books.set_current_page(book.book_id, book.page_count)


class PlainBM25:
    """Okapi BM25 (k1 1.2, b 0.75) over whole pages, lowercased words, the search's stopwords dropped."""

    def __init__(self, pages: Sequence[str]) -> None:
        from reader.app.search.search_terms import STOPWORDS

        self.stop = STOPWORDS
        self.docs = [Counter(w.lower() for w in _WORD.findall(p)) for p in pages]
        self.lengths = [sum(d.values()) for d in self.docs]

    def search(self, query: str, last: int, k: int) -> list[int]:
        docs, lengths = self.docs[:last], self.lengths[:last]
        average = sum(lengths) / max(1, len(lengths))
        terms = [w for w in dict.fromkeys(w.lower() for w in _WORD.findall(query)) if w not in self.stop]
        scores = [0.0] * len(docs)
        for term in terms:
            df = sum(1 for d in docs if term in d)
            if not df:
                continue
            idf = math.log(1 + (len(docs) - df + 0.5) / (df + 0.5))
            for i, d in enumerate(docs):
                tf = d.get(term, 0)
                if tf:
                    scores[i] += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * lengths[i] / average))
        order = sorted((i for i in range(len(docs)) if scores[i] > 0), key=lambda i: -scores[i])
        return [i + 1 for i in order[:k]]


@dataclass
class PageHit:
    start_page: int
    end_page: int


_PAGE_WORDS: dict[str, list[set[str]]] = {}


def matching_pages(services: Services, question: Asked, page: int) -> int:
    """How many pages up to `page` hold one of the question's search words as it is written."""
    from reader.app.search.search_terms import query_terms
    from reader.domain.models import join_chunks

    book = question.book
    if book.book_id not in _PAGE_WORDS:
        chunks = services.chunks.get_by_page_range(book.book_id, 1, book.page_count)
        _PAGE_WORDS[book.book_id] = [
            {w.lower() for w in _WORD.findall(join_chunks(c for c in chunks if c.start_page == p))}
            for p in range(1, book.page_count + 1)
        ]
    terms = set(query_terms(question.text))
    return sum(1 for words in _PAGE_WORDS[book.book_id][:page] if terms & words)


def run_mode(services: Services, asked: Sequence[Asked], mode: str, search: Any) -> tuple[Tally, int, int]:
    """Recall per position, then the leak check; returns (tally, leaks, results checked for leaks)."""
    tally = Tally()
    for where in POSITIONS:
        for q in asked:
            page = position(q, where)
            start = time.perf_counter()
            response = search.search(q.book.book_id, q.text, page, K, mode)
            tally.seconds.append(time.perf_counter() - start)
            tally.add(where, q.explicit, first_hit(response.results, q.pages))
            if len(response.results) < min(K, matching_pages(services, q, page)):
                tally.short += 1
    leaks = checked = 0
    for q in asked:
        horizon = min(q.pages) - 1
        if horizon < 1:
            continue
        response = search.search(q.book.book_id, q.text, horizon, K, mode)
        checked += len(response.results)
        leaks += sum(1 for r in response.results if r.end_page > horizon)
    return tally, leaks, checked


def run_bm25(services: Services, asked: Sequence[Asked]) -> Tally:
    from reader.domain.models import join_chunks

    tally = Tally()
    engines: dict[str, PlainBM25] = {}
    for q in asked:
        if q.book.book_id not in engines:
            chunks = services.chunks.get_by_page_range(q.book.book_id, 1, q.book.page_count)
            pages = [join_chunks(c for c in chunks if c.start_page == p) for p in range(1, q.book.page_count + 1)]
            engines[q.book.book_id] = PlainBM25(pages)
        for where in POSITIONS:
            found = engines[q.book.book_id].search(q.text, position(q, where), K)
            tally.add(where, q.explicit, first_hit([PageHit(p, p) for p in found], q.pages))
    return tally


def print_table(title: str, rows: dict[str, tuple[Tally, int | None, int | None]]) -> None:
    print(f"\n{title} (k={K}; hit: a result on a page that answers; R@1 / R@5)")
    head = f"{'mode':<16} {'kind':<9} {'n':>5}" + "".join(f" {w + ' R@1':>11} {'R@5':>6}" for w in POSITIONS)
    head += f" {'leaks':>9} {'short':>6} {'p50 ms':>7}"
    print(head)
    print("-" * len(head))
    for name, (tally, leaks, checked) in rows.items():
        for kind in ("all", "explicit", "implicit"):
            n = len(tally.ranks.get(("end", kind), []))
            line = f"{name:<16} {kind:<9} {n:>5}"
            line += "".join(f" {tally.recall(w, kind, 1):>11.3f} {tally.recall(w, kind, 5):>6.3f}" for w in POSITIONS)
            if kind == "all":
                leak = f"{leaks}/{checked}" if leaks is not None else "-"
                p50 = statistics.median(tally.seconds) * 1000 if tally.seconds else 0.0
                line += f" {leak:>9} {tally.short:>6} {p50:>7.1f}"
            print(line)


def random_vectors(services: Services, book_id: str, pages: int) -> None:
    """Random unit vectors for every chunk in the in-process model's space: embedding 10,000 chunks on
    this machine takes most of an hour, and KNN time does not depend on what the vectors hold (the
    query is still embedded by the real model, loaded once)."""
    from reader.domain.search import EmbeddingVector

    provider = services.embedding_provider
    assert provider is not None
    dimension = len(provider.embed_query("warm up"))
    space = services.vectors.space(provider.name, dimension)
    rng = random.Random(3)
    chunks = services.vectors.missing_chunks(book_id, space)
    for start in range(0, len(chunks), 500):
        batch = []
        for chunk in chunks[start : start + 500]:
            raw = [rng.gauss(0, 1) for _ in range(dimension)]
            norm = math.sqrt(sum(x * x for x in raw))
            batch.append(EmbeddingVector(chunk.id, [x / norm for x in raw], chunk.start_page, chunk.end_page))
        services.vectors.add(space, book_id, batch)
    services.vectors.mark_embedded(book_id, space)
    print(f"  War and Peace: random vectors for {len(chunks)} chunks in {provider.name} ({dimension} dimensions)")


def war_and_peace(services: Services, path: Path, queries: int, modes: Sequence[str]) -> None:
    """p50/p95 search time on War and Peace at random positions with story-style questions."""
    outcome = services.importer.import_file(path)
    if not outcome.ok or outcome.book is None:
        print(f"War and Peace: import failed: {outcome.message}")
        return
    book = outcome.book
    if "hybrid" in modes:
        random_vectors(services, book.id, book.page_count)
    rng = random.Random(7)
    frames = [
        "How did {a} feel when {b} left?",
        "Why did {a} refuse to see {b}?",
        "What will {a} do after {b} returns?",
        "Where did {a} meet {b}?",
        "Who was with {a} at the ball?",
    ]
    names = ["Pierre", "Natasha", "Andrew", "Nicholas", "Mary", "Sonya", "Boris", "Dolokhov", "Kutuzov", "Napoleon"]
    search = services.search
    for mode in modes:
        times = []
        for _ in range(queries):
            question = rng.choice(frames).format(a=rng.choice(names), b=rng.choice(names))
            page = rng.randint(50, book.page_count)
            start = time.perf_counter()
            search.search(book.id, question, page, K, mode)
            times.append(time.perf_counter() - start)
        times.sort()
        print(
            f"  War and Peace ({book.page_count} pages) {mode}: p50 {times[len(times) // 2] * 1000:.1f} ms, "
            f"p95 {times[int(len(times) * 0.95)] * 1000:.1f} ms over {queries} searches"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=SHARED / "bench" / "fairytaleqa")
    parser.add_argument("--split", choices=("train", "val"), default="val")
    parser.add_argument("--size", type=int, default=23, help="stories per anthology")
    parser.add_argument("--books", type=int, default=None, help="only the first N anthologies")
    parser.add_argument("--format", choices=("pdf", "epub"), default="pdf")
    parser.add_argument("--model-dir", type=Path, default=None, help="in-process ONNX embedding model folder")
    parser.add_argument("--embeddings-url", default="", help="OpenAI-compatible api_base (the shared server)")
    parser.add_argument("--embeddings-model", default="openai/minilm")
    parser.add_argument(
        "--war-and-peace", type=lambda s: Path(s) if s else None, default=None, help="EPUB for the latency check"
    )
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--only-war-and-peace", action="store_true", help="skip the anthologies")
    parser.add_argument("--workdir", type=Path, default=None, help="keep and reuse the library here")
    args = parser.parse_args(argv)

    from reader.config import Config, EmbeddingsConfig
    from reader.services import Services

    stories = load_split(args.data, args.split)
    books = anthologies(stories, args.size, args.split.title())[: args.books]
    asked = bind(books)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="reader-story-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)

    def open_library(name: str, embeddings: Any) -> Services:
        db = workdir / f"{name}.db"
        fresh = not db.exists()
        services = Services.open(db, Config(embeddings=embeddings))
        if fresh:
            start = time.perf_counter()
            import_books(services, books, workdir, args.format)
            print(f"imported {len(books)} {args.format.upper()} anthologies in {time.perf_counter() - start:.0f} s ({name})")
        else:
            by_title = {b.title: b for b in services.books.list()}
            for book in books:
                book.book_id = by_title[book.title].id
        return services

    pages = sum(b.page_count for b in books)
    print(
        f"{args.split}: {len(books)} anthologies, {sum(len(b.stories) for b in books)} stories, {pages} pages, "
        f"{len(asked)} questions ({sum(q.explicit for q in asked)} explicit)"
    )
    rows: dict[str, tuple[Tally, int | None, int | None]] = {}
    if args.only_war_and_peace:
        books, asked = [], []
    services = open_library(f"{args.split}-{args.format}-lexical", EmbeddingsConfig())
    rows["lexical"] = run_mode(services, asked, "lexical", services.search)
    rows["plain BM25"] = (run_bm25(services, asked), None, None)
    services.close()
    if args.model_dir:
        local = EmbeddingsConfig(model=f"local:{args.model_dir}")
        services = open_library(f"{args.split}-{args.format}-local", local)
        start = time.perf_counter()
        for book in books:
            services.embed_use_case.embed_book(book.book_id)
        print(f"embedded in-process in {time.perf_counter() - start:.0f} s")
        rows["hybrid (local)"] = run_mode(services, asked, "hybrid", services.search)
        services.close()
    if args.embeddings_url:
        served = EmbeddingsConfig(model=args.embeddings_model, api_base=args.embeddings_url, batch_size=64)
        services = open_library(f"{args.split}-{args.format}-server", served)
        for book in books:
            services.embed_use_case.embed_book(book.book_id)
        rows["hybrid (server)"] = run_mode(services, asked, "hybrid", services.search)
        services.close()
    if books:
        print_table(f"{args.split} split, {args.format.upper()}", rows)
    if args.war_and_peace:
        embeddings = EmbeddingsConfig(model=f"local:{args.model_dir}") if args.model_dir else EmbeddingsConfig()
        services = Services.open(workdir / "war-and-peace.db", Config(embeddings=embeddings))
        war_and_peace(services, args.war_and_peace, args.queries, ["lexical", "hybrid"] if args.model_dir else ["lexical"])
        services.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
