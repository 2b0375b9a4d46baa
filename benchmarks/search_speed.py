"""Search latency: p50/p95/p99 of SearchBooksUseCase.search per mode, plus the typo-correction path.

The library holds a few SQuAD articles laid out as books and a generated book of about 1,000 pages
(paragraphs recombined from SQuAD sentences, a chapter every 20 pages), all imported through the real
pipeline. Queries are SQuAD questions asked at random reading positions. With --embeddings-url every
book is embedded first (throughput in chunks/s) and semantic and hybrid are timed too; the time spent
embedding the query (litellm + HTTP + model) is measured inside the provider and reported apart, so
the search itself is timed with it excluded. The typo path asks for one misspelled word that is not in
the book, which makes the lexical search come back empty and the correction run.

Usage (from the project root):

    python benchmarks/search_speed.py [--data ../shared/bench/squad-dev-half.json] [--queries 300]
    python ../shared/tools/embedding_server.py --port 8765 &
    python benchmarks/search_speed.py --embeddings-url http://127.0.0.1:8765/v1 --embeddings-model openai/minilm

Targets: p50 under 15 ms lexical and under 30 ms hybrid (query embedding excluded).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

if TYPE_CHECKING:
    from reader.domain.models import Book
    from reader.services import Services

DEFAULT_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "bench" / "squad-dev-half.json"
_SPACE = re.compile(r"\s+")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_WORD = re.compile(r"[A-Za-z]{7,}")


class TimedProvider:
    """Wraps the embedding provider and records how long each query embedding takes."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.last = 0.0
        self.times: list[float] = []

    @property
    def name(self) -> str:
        return str(self.inner.name)

    @property
    def dimension(self) -> int | None:
        return self.inner.dimension

    def embed(self, texts: list[str]) -> list[list[float]]:
        return self.inner.embed(texts)

    def embed_query(self, text: str) -> list[float]:
        start = time.perf_counter()
        try:
            return self.inner.embed_query(text)
        finally:
            self.last = time.perf_counter() - start
            self.times.append(self.last)


@dataclass
class Timing:
    """Latencies of one kind of search, with the query embedding time taken out."""

    total: list[float] = field(default_factory=list)
    embedding: list[float] = field(default_factory=list)
    downgraded: int = 0
    warned: int = 0
    results: int = 0
    corrected: int = 0
    direct: list[bool] = field(default_factory=list)
    """Per query: the lexical search matched visible text without a correction."""

    @property
    def search(self) -> list[float]:
        if not self.embedding:
            return self.total
        return [t - e for t, e in zip(self.total, self.embedding, strict=True)]


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def norm(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def squad_articles(path: Path) -> list[dict[str, Any]]:
    return list(json.loads(path.read_text(encoding="utf-8"))["data"])


def article_markdown(article: dict[str, Any]) -> str:
    title = article["title"].replace("_", " ")
    return f"# {title}\n\n" + "\n\n".join(norm(p["context"]) for p in article["paragraphs"]) + "\n"


def big_book_markdown(articles: Sequence[dict[str, Any]], pages: int, rng: random.Random) -> str:
    """About `pages` pages of 2,000 characters: SQuAD sentences shuffled into new paragraphs."""
    sentences = [
        s for a in articles for p in a["paragraphs"] for s in _SENTENCE.split(norm(p["context"])) if s
    ]
    parts = ["# The Long Benchmark Book"]
    size, chapter = 0, 0
    while size < pages * 2000:
        if size >= chapter * 40_000:
            chapter += 1
            parts.append(f"## Chapter {chapter}")
        paragraph = " ".join(rng.choice(sentences) for _ in range(rng.randint(2, 7)))
        parts.append(paragraph)
        size += len(paragraph) + 2
    return "\n\n".join(parts) + "\n"


def build_library(
    services: Services, articles: Sequence[dict[str, Any]], count: int, pages: int, folder: Path, seed: int
) -> list[Book]:
    paths = []
    for number, article in enumerate(articles[:count], 1):
        path = folder / f"article-{number:02d}.md"
        path.write_text(article_markdown(article), encoding="utf-8")
        paths.append(path)
    if pages > 0:
        path = folder / "big-book.md"
        path.write_text(big_book_markdown(articles, pages, random.Random(seed)), encoding="utf-8")
        paths.append(path)
    books = []
    importer = services.importer
    for path in paths:
        outcome = importer.import_file(path)
        if not outcome.ok or outcome.book is None:
            raise SystemExit(f"import failed: {outcome.message}")
        books.append(outcome.book)
    return books


def misspell(word: str, rng: random.Random) -> str:
    """The word with two inner letters swapped or one dropped (never the first letter)."""
    i = rng.randint(1, len(word) - 3)
    if rng.random() < 0.5:
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    return word[:i] + word[i + 1 :]


def typo_queries(
    services: Services, books: Sequence[Book], count: int, rng: random.Random
) -> list[tuple[Book, str, int]]:
    """(book, "... misspelled-word", page) where the word is visible at the page and the typo is not in the book."""
    out: list[tuple[Book, str, int]] = []
    attempts = 0
    while len(out) < count and attempts < count * 50:
        attempts += 1
        book = rng.choice(books)
        page = rng.randint(1, book.page_count)
        visible = services.chunks.get_by_page_range(book.id, max(1, page - 3), page)
        words = [w for c in visible for w in _WORD.findall(c.text)]
        if not words:
            continue
        word = rng.choice(words)
        typo = misspell(word.lower(), rng)
        whole = services.chunks.get_by_page_range(book.id, 1, book.page_count)
        if any(typo in c.text.lower() for c in whole):
            continue
        out.append((book, f"where is the {typo}", page))
    return out


def time_searches(
    services: Services,
    provider: TimedProvider | None,
    mode: str,
    queries: Sequence[tuple[Book, str, int]],
    k: int,
) -> Timing:
    search = services.search
    if provider is not None:
        search.provider = provider
    timing = Timing()
    clock = time.perf_counter
    for book, query, page in queries:
        if provider is not None:
            provider.last = 0.0
        start = clock()
        response = search.search(book.id, query, page, k, mode)
        elapsed = clock() - start
        timing.total.append(elapsed)
        if provider is not None and mode != "lexical":
            timing.embedding.append(provider.last)
        timing.downgraded += response.mode != mode
        timing.warned += bool(response.warnings)
        timing.results += len(response.results)
        timing.corrected += response.correction is not None
        timing.direct.append(bool(response.results) and response.correction is None)
    return timing


def print_row(label: str, values: Sequence[float], note: str = "") -> None:
    p50, p95, p99 = (percentile(values, q) * 1000 for q in (0.5, 0.95, 0.99))
    print(f"  {label:<38} {p50:8.2f} {p95:8.2f} {p99:8.2f} {len(values):>7}  {note}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="SQuAD v1.1 JSON")
    parser.add_argument("--articles", type=int, default=4, help="SQuAD articles in the library")
    parser.add_argument("--pages", type=int, default=1000, help="pages of the generated book (0: none)")
    parser.add_argument("--queries", type=int, default=300, help="queries per mode")
    parser.add_argument("--typos", type=int, default=100, help="misspelled queries")
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--embeddings-url", default="", help="OpenAI-compatible api_base; enables semantic+hybrid"
    )
    parser.add_argument("--embeddings-model", default="openai/minilm", help="litellm embedding model name")
    parser.add_argument("--db", type=Path, default=None, help="library file (default: a temporary one)")
    args = parser.parse_args(argv)

    from reader.config import Config, EmbeddingsConfig
    from reader.services import Services

    rng = random.Random(args.seed)
    workdir = Path(tempfile.mkdtemp(prefix="reader-search-bench-"))
    embeddings = EmbeddingsConfig()
    if args.embeddings_url:
        embeddings = EmbeddingsConfig(
            model=args.embeddings_model, api_base=args.embeddings_url, batch_size=64
        )
    services = Services.open(args.db or workdir / "library.db", Config(embeddings=embeddings))

    articles = squad_articles(args.data)
    start = time.perf_counter()
    books = build_library(services, articles, args.articles, args.pages, workdir, args.seed)
    chunks = {book.id: services.chunks.count(book.id) for book in books}
    print(
        f"library: {len(books)} books, {sum(b.page_count for b in books)} pages, {sum(chunks.values())} chunks "
        f"(largest: {max(b.page_count for b in books)} pages, {max(chunks.values())} chunks); "
        f"imported in {time.perf_counter() - start:.1f} s"
    )

    modes = ["lexical"]
    provider: TimedProvider | None = None
    if args.embeddings_url:
        modes += ["semantic", "hybrid"]
        use_case = services.embed_use_case
        start = time.perf_counter()
        embedded = 0
        for book in books:
            embedded += use_case.embed_book(book.id).embedded
        seconds = time.perf_counter() - start
        print(
            f"embedded {embedded} chunks with {args.embeddings_model} in {seconds:.1f} s: "
            f"{embedded / max(1e-9, seconds):.1f} chunks/s (batch 64)"
        )
        provider = TimedProvider(services.embedding_provider)

    article_books = books[: min(args.articles, len(articles))]
    own = {
        book.id: [q["question"] for p in article["paragraphs"] for q in p["qas"]]
        for book, article in zip(article_books, articles, strict=False)
    }
    every = [q["question"] for a in articles for p in a["paragraphs"] for q in p["qas"]]
    queries: list[tuple[Book, str, int]] = []
    big = [b for b in books if b.page_count >= 100]
    for _ in range(args.queries):
        # half of the queries on the big book (any SQuAD question), the rest on an article's own questions
        if big and (not article_books or rng.random() < 0.5):
            book = rng.choice(big)
            text = rng.choice(every)
        else:
            book = rng.choice(article_books)
            text = rng.choice(own[book.id])
        queries.append((book, text, rng.randint(1, book.page_count)))
    typos = typo_queries(services, books, args.typos, rng)

    # warm-up: litellm's import and the first HTTP connection are not search latency
    for mode in modes:
        time_searches(services, provider, mode, queries[:5], args.k)
    timings = {mode: time_searches(services, provider, mode, queries, args.k) for mode in modes}
    big_only = [q for q in queries if q[0] in big]
    typo_timing = time_searches(services, provider, "lexical", typos, args.k)
    services.close()

    print(f"\nsearch latency, k={args.k}, {len(queries)} queries at random reading positions (ms)")
    print(f"  {'':<38} {'p50':>8} {'p95':>8} {'p99':>8} {'queries':>7}")
    for mode, timing in timings.items():
        if timing.embedding:
            print_row(f"{mode} (search, embedding excluded)", timing.search)
            print_row(f"{mode} (query embedding)", timing.embedding)
            print_row(f"{mode} (end to end)", timing.total)
        else:
            print_row(mode, timing.total)
    lexical = timings["lexical"]
    direct = [v for v, d in zip(lexical.search, lexical.direct, strict=True) if d]
    indirect = [v for v, d in zip(lexical.search, lexical.direct, strict=True) if not d]
    print_row("lexical, matched visible text", direct)
    print_row("lexical, no visible match", indirect, "the typo correction ran (no term was visible)")
    if big_only:
        print(f"  on the {max(b.page_count for b in big)}-page book only:")
        for mode, timing in timings.items():
            values = [v for v, q in zip(timing.search, queries, strict=True) if q[0] in big]
            print_row(f"{mode}{' (embedding excluded)' if timing.embedding else ''}", values)
    print_row(
        "lexical, one misspelled word",
        typo_timing.total,
        f"corrected {typo_timing.corrected} of {len(typos)}; {typo_timing.results} results",
    )
    for mode, timing in timings.items():
        if timing.downgraded or timing.warned:
            print(
                f"  {mode}: {timing.downgraded} responses ran another mode, {timing.warned} carried warnings"
            )

    p50 = {mode: percentile(t.search, 0.5) * 1000 for mode, t in timings.items()}
    ok = p50["lexical"] < 15 and p50.get("hybrid", 0.0) < 30
    summary = f"p50 lexical {p50['lexical']:.2f} ms (< 15)"
    if "hybrid" in p50:
        summary += f", hybrid {p50['hybrid']:.2f} ms excluding query embedding (< 30)"
    print(f"\ntargets: {summary}: {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
