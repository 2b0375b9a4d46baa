"""Spoiler shield: honest answers held back (target < 1%), leaky answers let through (target 0), speed.

Books: the sample novella and every book in ../shared/books, imported into a temporary library.
For random reading positions H in each book's story:
- honest answers are built from what the reader has read: a sentence quoted from a page at or before
  H, names of people and places met by H (as the book writes them), a citation of that page, the
  book's title and some ordinary sentences of the answer's own;
- leaky answers are an honest answer with one sentence added in the middle that names a concept first
  met after H (one of whose words the pages up to H never write with a capital), cites a page after
  H, or quotes 8 to 12 words of a later page that the pages up to H do not hold.
A leak counts as let through when the reader would see it (the shown text holds the leaky sentence).
Speed, on the biggest book: indexing the book, the rules at a horizon, every streamed piece (an
answer of ~1,500 characters cut into pieces of 3-8 characters, as models stream), and the verdict at
the end of the answer.

Usage: python benchmarks/spoiler_shield.py [--answers 200] [--seed 7] [--books DIR]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ORDINARY = [
    "That is what the pages you have read say about it.",
    "The book has not said more about this yet, as far as you have read.",
    "It is worth keeping an eye on how this develops.",
    "Here is what the text tells us so far.",
    "Nothing in the pages up to here explains why.",
]


def sentences_of(text: str) -> list[str]:
    from reader.app.text.sentences import split_sentences

    return [s for s in split_sentences(text) if 8 <= len(s.split()) <= 40]


class Book:
    """One imported book with its pages' text and concept names."""

    def __init__(self, services: Any, book: Any) -> None:
        self.services = services
        self.book = book
        chunks = services.chunks.get_by_page_range(book.id, 1, book.page_count)
        self.text: dict[int, str] = {}
        for chunk in chunks:
            self.text[chunk.start_page] = self.text.get(chunk.start_page, "") + "\n\n" + chunk.text
        self.pages = services.books.pages(book.id)
        self.names = services.concepts.names(book.id)
        self.story = book.story_pages
        self.page_words: list[str] = []

    def label(self, page: int) -> str:
        return self.pages[page - 1].label


def honest_answer(book: Book, horizon: int, rng: random.Random) -> str | None:
    lo = max(book.story.start, horizon - 40)
    candidates = [p for p in range(lo, horizon + 1) if sentences_of(book.text.get(p, ""))]
    if not candidates:
        return None
    page = rng.choice(candidates)
    quote = rng.choice(sentences_of(book.text[page]))
    met = sorted({n.text for n in book.names if n.first_page <= horizon and n.concept_first_page <= horizon})
    named = rng.sample(met, min(2, len(met)))
    parts = [rng.choice(ORDINARY)]
    if named:
        parts.append(f"{' and '.join(named)} matter here [p. {book.label(page)}].")
    parts.append(f'The book puts it this way: "{quote}" [p. {book.label(page)}]')
    parts.append(f"This is {book.book.title}, after all.")
    parts.append(rng.choice(ORDINARY))
    return " ".join(parts)


def read_words(book: Book, horizon: int) -> str:
    """The compared words of the pages up to `horizon`, space-separated (to look a quote up in)."""
    from reader.app.shield.words import words

    if not book.page_words:
        book.page_words = [" ".join(words(book.text.get(p, ""))) for p in range(1, book.book.page_count + 1)]
    return " " + " ".join(book.page_words[:horizon]) + " "


def words_as_written(text: str) -> list[str]:
    """The words of `text` as written (case kept, accents and a possessive dropped)."""
    import re

    from reader.app.shield.words import plain

    return [w.removesuffix("'s") for w in re.findall(r"[^\W_]+(?:'[^\W_]+)*", plain(text))]


_CAPITALS: dict[tuple[str, int], set[str]] = {}


def read_capitals(book: Book, horizon: int) -> set[str]:
    """Every word (lower-cased) the pages up to `horizon` write with a capital: the reader has seen it
    as a name (or in a heading); a name made only of such words, the title's and the author's tells
    the reader nothing new."""
    key = (book.book.id, horizon)
    if key not in _CAPITALS:
        text = " ".join(book.text.get(p, "") for p in range(1, horizon + 1))
        _CAPITALS[key] = {w.lower() for w in words_as_written(text) if w[:1].isupper()}
    return _CAPITALS[key]


def leak_sentence(book: Book, horizon: int, kind: str, rng: random.Random, read: str) -> str | None:
    from reader.app.shield.words import words

    last = book.story[-1]
    if kind == "name":
        from reader.app.shield.rules import LINKS

        capitals = read_capitals(book, horizon)
        own = {w.lower() for w in words_as_written(f"{book.book.title} {book.book.author}")}
        later = [
            n.text
            for n in book.names
            if n.concept_first_page > horizon
            and any(
                w[:1].isupper() and w.lower() not in capitals | own | LINKS for w in words_as_written(n.text)
            )
        ]
        return f"Later on, {rng.choice(later)} changes everything." if later else None
    if kind == "page":
        page = rng.randint(horizon + 1, last)
        return f"This is settled much later [p. {book.label(page)}]."
    for _ in range(20):  # quote
        page = rng.randint(horizon + 1, last)
        found = sentences_of(book.text.get(page, ""))
        if not found:
            continue
        run = [w for w in rng.choice(found).split() if words(w)]
        size = rng.randint(8, min(12, len(run)))
        start = rng.randint(0, len(run) - size)
        quoted = " ".join(run[start : start + size])
        if f" {' '.join(words(quoted))} " not in read:
            return f'Later the book says "{quoted}".'
    return None


def judge(book: Book, answers: int, rng: random.Random, indexes: Any) -> dict[str, Any]:
    from reader.app.shield.spoiler_shield import describe, verdict

    story = book.story
    honest = held = 0
    leaks = {"name": [0, 0], "page": [0, 0], "quote": [0, 0]}
    examples: list[str] = []
    for _ in range(answers):
        horizon = rng.randint(story.start + min(5, len(story) // 4), story[-1] - 1)
        index = indexes.source(
            book.book, horizon, book.services.books, book.services.chunks, book.services.concepts
        )()
        answer = honest_answer(book, horizon, rng)
        if answer is None:
            continue
        honest += 1
        result = verdict(index, "What is going on?", answer)
        if result.held:
            held += 1
            if len(examples) < 5:
                examples.append(f"  held at p. {horizon}: {'; '.join(describe(index, result.findings))}")
        read = read_words(book, horizon)
        for kind, counts in leaks.items():
            leak = leak_sentence(book, horizon, kind, rng, read)
            if leak is None:
                continue
            head, _, tail = answer.partition(". ")
            leaky = f"{head}. {leak} {tail}"
            counts[0] += 1
            result = verdict(index, "What is going on?", leaky)
            if leak in result.shown:
                counts[1] += 1
                if len(examples) < 10:
                    examples.append(f"  LET THROUGH at p. {horizon}: {leak}")
    return {"honest": honest, "held": held, "leaks": leaks, "examples": examples}


def speed(book: Book, rng: random.Random) -> None:
    from reader.app.shield.cache import ShieldIndexes
    from reader.app.shield.spoiler_shield import StreamShield

    services = book.services
    indexes = ShieldIndexes()
    started = time.perf_counter()
    future = indexes.book_text(book.book, services.chunks)
    future.result()
    built = time.perf_counter() - started
    horizon = book.story.start + len(book.story) // 3
    started = time.perf_counter()
    source = indexes.source(book.book, horizon, services.books, services.chunks, services.concepts)
    index = source()
    rules = time.perf_counter() - started
    assert index is not None
    pieces_times: list[float] = []
    end_times: list[float] = []
    for _ in range(30):
        answer = " ".join(honest_answer(book, horizon, rng) or "" for _ in range(3))[:1500]
        shield = StreamShield(lambda index=index: index, "What is going on?")
        at = 0
        while at < len(answer):
            step = rng.randint(3, 8)
            t = time.perf_counter()
            shield.feed(answer[at : at + step])
            pieces_times.append(time.perf_counter() - t)
            at += step
        t = time.perf_counter()
        shield.verdict(answer)
        end_times.append(time.perf_counter() - t)
    pieces_times.sort()
    print(
        f"\nSpeed on {book.book.title} ({book.book.page_count} pages, {len(index.names)} later names at p. {horizon}):"
    )
    print(f"  index the book (background, once per book)  {built * 1000:8.0f} ms")
    print(f"  rules at a horizon (once per page)           {rules * 1000:8.1f} ms")
    print(
        f"  per streamed piece: mean {statistics.mean(pieces_times) * 1e3:.3f} ms, "
        f"p99 {pieces_times[int(len(pieces_times) * 0.99)] * 1e3:.3f} ms, max {pieces_times[-1] * 1e3:.3f} ms "
        f"({len(pieces_times)} pieces)"
    )
    print(
        f"  end of answer (verdict): mean {statistics.mean(end_times) * 1e3:.2f} ms, max {max(end_times) * 1e3:.2f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--answers", type=int, default=200, help="honest answers per book (and as many of each leak)"
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--books", default=str(Path(__file__).resolve().parents[2] / "shared" / "books"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        os.environ["READER_DB"] = str(Path(workdir) / "library.db")
        os.environ["READER_CONFIG"] = str(Path(workdir) / "config.toml")
        from reader.app.shield.cache import ShieldIndexes
        from reader.cli.library_commands import import_sample
        from reader.services import Services

        services = Services.open()
        import_sample(services)
        files = sorted(Path(args.books).glob("*")) if Path(args.books).is_dir() else []
        for path in files:
            outcome = services.importer.import_file(path)
            if not outcome.ok:
                print(f"skipped {path.name}: {outcome.message}")
        books = [Book(services, b) for b in services.books.list()]
        rng = random.Random(args.seed)
        indexes = ShieldIndexes()
        total_honest = total_held = 0
        total = {"name": [0, 0], "page": [0, 0], "quote": [0, 0]}
        print(
            f"{'book':28} {'pages':>5} {'honest':>7} {'held':>5} {'names':>11} {'pages':>11} {'quotes':>11}"
        )
        for book in books:
            result = judge(book, args.answers, rng, indexes)
            total_honest += result["honest"]
            total_held += result["held"]
            cells = []
            for kind, (made, through) in result["leaks"].items():
                total[kind][0] += made
                total[kind][1] += through
                cells.append(f"{through:>4}/{made:<6}")
            print(
                f"{book.book.title[:28]:28} {book.book.page_count:>5} {result['honest']:>7} {result['held']:>5} "
                + " ".join(cells)
            )
            for line in result["examples"]:
                print(line)
        made = sum(m for m, _ in total.values())
        through = sum(t for _, t in total.values())
        print(
            f"\nHonest answers held back: {total_held}/{total_honest} = {100 * total_held / max(1, total_honest):.2f}% "
            "(target < 1%)"
        )
        print(
            f"Leaky answers let through: {through}/{made} (target 0)  [names, pages, quotes: "
            + ", ".join(f"{t}/{m}" for m, t in total.values())
            + "]"
        )
        biggest = max(books, key=lambda b: b.book.page_count)
        speed(biggest, rng)
        services.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
