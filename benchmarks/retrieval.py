"""Retrieval quality and the spoiler contract on SQuAD articles laid out as books.

Each SQuAD article becomes a Markdown book (its title as the heading, one paragraph per context,
blank lines between them), imported through the real pipeline (the text extractor cuts pages of
about 2,000 characters at paragraph boundaries; chunks never cross a page). Every question is asked
with the reader on the last page, in each mode, with k=10; a hit is a returned chunk whose text
contains one of the question's answers. R@1, R@5, R@10 and MRR are printed per mode, plus the
stricter "gold" figures (the hit must also be the answer's own paragraph, as in DESIGN.md).
Then the spoiler check: the reader is put on the page before the first page whose text holds the
answer, and every mode must return nothing that ends after that page, never the answer, and no
text that first appears on a later page.

Usage (from the project root):

    python benchmarks/retrieval.py --data ../shared/bench/squad-dev-half.json
    python ../shared/tools/embedding_server.py --port 8765 &
    python benchmarks/retrieval.py --data ../shared/bench/squad-dev-half.json \\
        --embeddings-url http://127.0.0.1:8765/v1 --embeddings-model openai/minilm [--limit-articles N]

Without --embeddings-url only lexical search runs. The library is a temporary file unless --db is given.
Targets on the dev half: lexical R@5 >= 0.94, hybrid R@5 >= 0.955 and above lexical, 0 leaks.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

if TYPE_CHECKING:
    from reader.app.search.search_books import SearchBooksUseCase, SearchResponse
    from reader.services import Services

_SPACE = re.compile(r"\s+")
_SLUG = re.compile(r"[^A-Za-z0-9]+")
K = 10


def norm(text: str) -> str:
    """Whitespace collapsed to single spaces (how the importer cleans every paragraph)."""
    return _SPACE.sub(" ", text).strip()


@dataclass
class Article:
    """One SQuAD article laid out as a book."""

    title: str
    paragraphs: list[str]
    questions: list[tuple[str, tuple[str, ...], int]]
    """(question, normalised answers, index of its paragraph)."""
    book_id: str = ""
    page_count: int = 0
    page_texts: list[str] = field(default_factory=list)
    """Page 1..N text as the chunks hold it (index 0 is page 1)."""


@dataclass
class Question:
    """A question bound to its book."""

    book: Article
    text: str
    answers: tuple[str, ...]
    paragraph: str
    answer_page: int = 0
    """The first page whose text contains one of the answers."""


@dataclass
class ModeStats:
    """Recall figures and timings of one mode."""

    ranks: list[int] = field(default_factory=list)
    """1-based rank of the first hit, 0 for a miss."""
    gold_ranks: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    downgraded: int = 0
    warned: int = 0
    warnings: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def recall(self, k: int, gold: bool = False) -> float:
        ranks = self.gold_ranks if gold else self.ranks
        return sum(1 for r in ranks if 0 < r <= k) / max(1, len(ranks))

    def mrr(self, gold: bool = False) -> float:
        ranks = self.gold_ranks if gold else self.ranks
        return sum(1.0 / r for r in ranks if r) / max(1, len(ranks))


@dataclass
class SpoilerStats:
    """What one mode showed a reader placed just before the answer's page."""

    asked: int = 0
    results: int = 0
    leaks: int = 0
    """Results with end_page after the reader's page."""
    answers_shown: int = 0
    """Results whose text contains the answer (which first appears on a later page)."""
    later_text: int = 0
    """Results whose text is not found in the pages up to the reader's page."""
    wrong_horizon: int = 0
    """Responses that searched another page than the reader's."""
    downgraded: int = 0
    warned: int = 0
    seconds: list[float] = field(default_factory=list)


def load_articles(path: Path, limit: int | None) -> list[Article]:
    data = json.loads(path.read_text(encoding="utf-8"))
    articles = []
    for raw in data["data"][:limit]:
        paragraphs = [norm(p["context"]) for p in raw["paragraphs"]]
        questions = []
        for index, paragraph in enumerate(raw["paragraphs"]):
            for qa in paragraph["qas"]:
                answers = tuple(dict.fromkeys(norm(a["text"]) for a in qa["answers"] if norm(a["text"])))
                if answers:
                    questions.append((qa["question"], answers, index))
        articles.append(Article(raw["title"].replace("_", " "), paragraphs, questions))
    return articles


def write_book(article: Article, folder: Path, number: int) -> Path:
    """The article as Markdown: `# Title`, then the paragraphs separated by blank lines."""
    path = folder / f"{number:03d}-{_SLUG.sub('-', article.title).strip('-').lower()}.md"
    path.write_text(f"# {article.title}\n\n" + "\n\n".join(article.paragraphs) + "\n", encoding="utf-8")
    return path


def import_books(services: Services, articles: Sequence[Article], folder: Path) -> tuple[float, int]:
    """Import every article through the real pipeline; returns (seconds, paragraphs not kept whole)."""
    from reader.domain.models import join_chunks

    importer = services.importer
    start = time.perf_counter()
    for number, article in enumerate(articles, 1):
        outcome = importer.import_file(write_book(article, folder, number))
        if not outcome.ok or outcome.book is None:
            raise SystemExit(f"import failed: {outcome.message}")
        article.book_id = outcome.book.id
        article.page_count = outcome.book.page_count
    elapsed = time.perf_counter() - start
    altered = 0
    for article in articles:
        chunks = services.chunks.get_by_page_range(article.book_id, 1, article.page_count)
        article.page_texts = [
            join_chunks(c for c in chunks if c.start_page == page)
            for page in range(1, article.page_count + 1)
        ]
        whole = "\n\n".join(article.page_texts)
        altered += sum(1 for p in article.paragraphs if p not in whole)
    return elapsed, altered


def embed_books(services: Services, articles: Sequence[Article]) -> tuple[float, int]:
    """Embed every book with the configured model; returns (seconds, chunks embedded)."""
    use_case = services.embed_use_case
    start = time.perf_counter()
    embedded = 0
    for number, article in enumerate(articles, 1):
        outcome = use_case.embed_book(article.book_id)
        embedded += outcome.embedded
        rate = embedded / max(1e-9, time.perf_counter() - start)
        print(f"  embedded {number}/{len(articles)} {article.title} ({outcome.total} chunks; {rate:.1f}/s)")
    return time.perf_counter() - start, embedded


def first_rank(results: Iterable[Any], answers: Sequence[str], paragraph: str | None = None) -> int:
    """Rank of the first result containing an answer (and, with `paragraph`, from that paragraph)."""
    for rank, result in enumerate(results, 1):
        content = norm(result.content)
        if any(a in content for a in answers) and (
            paragraph is None or paragraph in content or content in paragraph
        ):
            return rank
    return 0


def check_response(response: SearchResponse, mode: str, stats: ModeStats | SpoilerStats) -> None:
    if response.mode != mode:
        stats.downgraded += 1
    if response.warnings:
        stats.warned += 1
        if isinstance(stats, ModeStats):
            for warning in response.warnings:
                stats.warnings[warning[:100]] += 1


def recall_run(
    services: Services, search: SearchBooksUseCase, questions: Sequence[Question], mode: str
) -> ModeStats:
    """Every question with the reader on the book's last page."""
    stats = ModeStats()
    clock = time.perf_counter
    for question in questions:
        start = clock()
        response = search.search(question.book.book_id, question.text, None, K, mode)
        stats.seconds.append(clock() - start)
        check_response(response, mode, stats)
        stats.ranks.append(first_rank(response.results, question.answers))
        stats.gold_ranks.append(first_rank(response.results, question.answers, question.paragraph))
    return stats


def spoiler_run(
    services: Services, search: SearchBooksUseCase, questions: Sequence[Question], mode: str
) -> SpoilerStats:
    """Every question whose answer is not on page 1, with the reader on the page before the answer's."""
    stats = SpoilerStats()
    clock = time.perf_counter
    placed: dict[str, int] = {}
    visible: dict[tuple[str, int], str] = {}
    for question in sorted(questions, key=lambda q: (q.book.book_id, q.answer_page)):
        horizon = question.answer_page - 1
        if horizon < 1:
            continue
        book = question.book
        if placed.get(book.book_id) != horizon:
            services.books.set_current_page(book.book_id, horizon)
            placed[book.book_id] = horizon
        key = (book.book_id, horizon)
        if key not in visible:
            visible[key] = norm(" ".join(book.page_texts[:horizon]))
        start = clock()
        response = search.search(book.book_id, question.text, None, K, mode)
        stats.seconds.append(clock() - start)
        stats.asked += 1
        check_response(response, mode, stats)
        if response.current_page != horizon:
            stats.wrong_horizon += 1
        for result in response.results:
            stats.results += 1
            content = norm(result.content)
            stats.leaks += result.end_page > horizon
            stats.answers_shown += any(a in content for a in question.answers)
            stats.later_text += content not in visible[key]
    for article_id in placed:
        book = next(q.book for q in questions if q.book.book_id == article_id)
        services.books.set_current_page(article_id, book.page_count)
    return stats


def bind_questions(articles: Sequence[Article]) -> list[Question]:
    questions = []
    for article in articles:
        pages = [norm(text) for text in article.page_texts]
        for text, answers, index in article.questions:
            found = [n for n, page in enumerate(pages, 1) if any(a in page for a in answers)]
            questions.append(Question(article, text, answers, article.paragraphs[index], min(found or [0])))
    return questions


def ms(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def print_recall(table: dict[str, ModeStats]) -> None:
    print(f"\nRecall, reader on the last page, k={K} (hit: a returned chunk contains the answer text)")
    head = f"{'mode':<9} {'questions':>9} {'R@1':>6} {'R@5':>6} {'R@10':>6} {'MRR':>6}"
    head += f" | {'gold R@1':>8} {'R@5':>6} {'R@10':>6} {'MRR':>6} | {'q/s':>6} {'p50 ms':>7} {'downgr.':>7} {'warned':>6}"
    print(head)
    print("-" * len(head))
    for mode, s in table.items():
        line = f"{mode:<9} {len(s.ranks):>9} {s.recall(1):>6.3f} {s.recall(5):>6.3f} {s.recall(10):>6.3f} {s.mrr():>6.3f}"
        line += f" | {s.recall(1, True):>8.3f} {s.recall(5, True):>6.3f} {s.recall(10, True):>6.3f} {s.mrr(True):>6.3f}"
        rate = len(s.seconds) / max(1e-9, sum(s.seconds))
        line += f" | {rate:>6.0f} {ms(s.seconds, 0.5):>7.1f} {s.downgraded:>7} {s.warned:>6}"
        print(line)
    for mode, s in table.items():
        for warning, count in s.warnings.items():
            print(f"  {mode} warning x{count}: {warning}")


def print_spoilers(table: dict[str, SpoilerStats]) -> None:
    print(f"\nSpoiler check, reader on the page before the answer's first page, k={K}")
    head = f"{'mode':<9} {'questions':>9} {'results':>8} {'leaks':>6} {'answer shown':>12} {'later text':>10}"
    head += f" {'wrong page':>10} {'q/s':>6} {'downgr.':>7} {'warned':>6}"
    print(head)
    print("-" * len(head))
    for mode, s in table.items():
        rate = len(s.seconds) / max(1e-9, sum(s.seconds))
        print(
            f"{mode:<9} {s.asked:>9} {s.results:>8} {s.leaks:>6} {s.answers_shown:>12} {s.later_text:>10}"
            f" {s.wrong_horizon:>10} {rate:>6.0f} {s.downgraded:>7} {s.warned:>6}"
        )
    print("  leaks: results with end_page > the reader's page; answer shown: a result holds the answer;")
    print("  later text: a result's text is not in the pages up to the reader's page. All must be 0.")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="SQuAD v1.1 JSON")
    parser.add_argument("--limit-articles", type=int, default=None, help="only the first N articles")
    parser.add_argument(
        "--embeddings-url", default="", help="OpenAI-compatible api_base; enables semantic+hybrid"
    )
    parser.add_argument("--embeddings-model", default="openai/minilm", help="litellm embedding model name")
    parser.add_argument("--db", type=Path, default=None, help="library file (default: a temporary one)")
    parser.add_argument("--skip-spoilers", action="store_true", help="recall only")
    args = parser.parse_args(argv)

    from reader.config import Config, EmbeddingsConfig
    from reader.services import Services

    workdir = Path(tempfile.mkdtemp(prefix="reader-retrieval-bench-"))
    db_path = args.db or workdir / "library.db"
    embeddings = EmbeddingsConfig()
    if args.embeddings_url:
        embeddings = EmbeddingsConfig(
            model=args.embeddings_model, api_base=args.embeddings_url, batch_size=64
        )
    services = Services.open(db_path, Config(embeddings=embeddings))

    articles = load_articles(args.data, args.limit_articles)
    seconds, altered = import_books(services, articles, workdir)
    pages = sum(a.page_count for a in articles)
    chunks = sum(services.chunks.count(a.book_id) for a in articles)
    paragraphs = sum(len(a.paragraphs) for a in articles)
    print(
        f"imported {len(articles)} articles as books: {paragraphs} paragraphs, {pages} pages, {chunks} chunks "
        f"in {seconds:.1f} s; paragraphs not kept whole: {altered}; library {db_path}"
    )
    for article in articles:
        for number, text in enumerate(article.page_texts, 1):
            if len(text) > 3000:
                print(f"  note: {article.title} p. {number} holds {len(text)} characters")

    modes = ["lexical"]
    if args.embeddings_url:
        modes += ["semantic", "hybrid"]
        print(f"embedding with {args.embeddings_model} at {args.embeddings_url}")
        seconds, embedded = embed_books(services, articles)
        print(f"embedded {embedded} chunks in {seconds:.1f} s ({embedded / max(1e-9, seconds):.1f} chunks/s)")

    for article in articles:
        services.books.set_current_page(article.book_id, article.page_count)
    questions = bind_questions(articles)
    search = services.search
    recall: dict[str, ModeStats] = {}
    for mode in modes:
        start = time.perf_counter()
        recall[mode] = recall_run(services, search, questions, mode)
        print(f"  {mode}: {len(questions)} questions in {time.perf_counter() - start:.1f} s")
    print_recall(recall)

    spoilers: dict[str, SpoilerStats] = {}
    if not args.skip_spoilers:
        unplaced = sum(1 for q in questions if q.answer_page == 0)
        on_first = sum(1 for q in questions if q.answer_page == 1)
        for mode in modes:
            spoilers[mode] = spoiler_run(services, search, questions, mode)
        print_spoilers(spoilers)
        print(
            f"  skipped: {on_first} questions whose answer is on page 1, {unplaced} whose answer is on no page"
        )

    services.close()
    ok = all(s.leaks == 0 and s.answers_shown == 0 and s.later_text == 0 for s in spoilers.values())
    ok = ok and recall["lexical"].recall(5) >= 0.94
    if "hybrid" in recall:
        hybrid = recall["hybrid"].recall(5)
        ok = ok and hybrid >= 0.955 and hybrid > recall["lexical"].recall(5)
    print(
        "\nmedian search time per mode: "
        + ", ".join(f"{mode} {statistics.median(s.seconds) * 1000:.1f} ms" for mode, s in recall.items())
    )
    print(
        "targets (lexical R@5 >= 0.94, hybrid R@5 >= 0.955 and > lexical, 0 leaks):",
        "met" if ok else "NOT met",
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
