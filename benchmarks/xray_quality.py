"""X-Ray quality on real books: how the concept map's people and places compare with hand-made lists.

Usage: python benchmarks/xray_quality.py [--book NAME] [-v] [--json] [--books DIR] [--extra DIR]
                                        [--unseen DIR] [--workdir DIR] [--repeat N]

Each book in ../shared/books or ../shared/books/wide (or in --extra DIR, for texts kept outside the
repository) that has a reference list in benchmarks/xray_reference/<book>.toml (or, for a folder
given with --unseen, in that folder's xray_reference/<book>.toml: books nobody tuned on, reported
as half "unseen") is
imported into a fresh library, the reading position is set to its last page, and its X-Ray entries
are compared with the reference (the distinct people and places a reader would expect, each with
the names the book uses for it). Per book:

- entries: X-Ray entries in all, and per kind (people / places / terms)
- found: reference entries that have an X-Ray entry of the right kind carrying one of their names,
  where that entry is not merged
- merged: X-Ray entries whose names match two or more reference entries (one entry for two people)
- wrong kind: X-Ray entries matching exactly one reference entry but of another kind, and X-Ray
  people and places carrying a name the reference lists as `not_named` (a capitalised common word
  that is nobody: "Latitude", "Soup")
- split: reference entries matched by more than one unmerged X-Ray entry of 3+ mentions each (one
  person, two entries)
- other: people and places in the X-Ray that match no reference entry and carry no ambiguous name
  (not a target: the reference lists only what a reader expects, not everything that is a name)
- matter: X-Ray entries named by a front/back matter name ("Project Gutenberg") or whose every
  mention lies outside the story's pages (found here from the reference's first and last
  sentences, independently of the product's own story detection)
- timings: the import, and the concept-map build alone on the stored page texts (as the import
  calls it), in ms and ms per 100 pages, wall clock and CPU time of the process (on a machine
  shared with other work the wall clock swings by 2x; the CPU time much less); the targets are
  <= 50 ms per 100 pages for text and EPUB, and < 10% of the import for PDF

With -v the lists behind the figures are printed, and also: entries carrying an ambiguous name
("Rostóv", "Harker": a surname shared by several people, which the figures cannot judge), and the
reference names used at least 4 times in the story that no X-Ray entry carries ("the Count").

Names are compared normalised: accents removed (NFKD), case folded, curly apostrophes straightened,
full stops dropped, whitespace collapsed, a leading "the" and a possessive 's dropped. Names listed
as `ambiguous` in a reference never match.

Targets: 0 merged, 0 wrong kind, 0 from matter, at most 2 split, >= 95% found on every book.
Each reference says whether it was used for tuning (`half = "tuning"`) or only for checking
(`half = "checking"`: lists written before the X-Ray's output for the book was looked at), and may
say in which tuning round it was written (`round = 5`): the unseen books are then also summed per
round, the latest round's being the ones no rule was yet made after.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
import tomllib
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

REFERENCES = ROOT / "benchmarks" / "xray_reference"
BOOKS = ROOT.parent / "shared" / "books"
BOOK_SUFFIXES = (".epub", ".pdf", ".txt", ".md", ".html", ".htm")
FOUND_TARGET = 0.95
SPLIT_TARGET = 2
SPLIT_MENTIONS = 3
"""A split counts entries with at least this many mentions (a stray form seen once or twice is not)."""
MS_PER_100_TARGET = 50.0
PDF_SHARE_TARGET = 0.10
OTHERS_SHOWN = 40


def normalise(name: str) -> str:
    """The form names are compared in: no accents, case folded, no full stops, no "the", no 's."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    text = text.replace("’", "'").replace("‘", "'").replace(".", " ")
    text = " ".join(text.split())
    text = text.removeprefix("the ")
    return re.sub(r"(?:'s|')$", "", text)


def flat(text: str) -> str:
    """Text for finding the reference's first and last sentences: quotes straightened, one space."""
    text = unicodedata.normalize("NFKC", text).replace("’", "'").replace("‘", "'")
    return " ".join(text.split())


@dataclass(frozen=True)
class RefEntry:
    kind: str
    names: tuple[str, ...]

    @property
    def label(self) -> str:
        return self.names[0]


@dataclass(frozen=True)
class Reference:
    book: str
    entries: tuple[RefEntry, ...]
    ambiguous: frozenset[str]
    matter: frozenset[str]
    not_named: frozenset[str]
    first_line: str
    last_line: str
    half: str = "tuning"
    round: int = 0
    """The tuning round in which the list was written (0: not said); unseen lists are summed per round."""

    @classmethod
    def load(cls, path: Path, half: str | None = None) -> Reference:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        entries = tuple(RefEntry(e["kind"], tuple(e["names"])) for e in data["entries"])
        return cls(
            path.stem,
            entries,
            frozenset(normalise(n) for n in data.get("ambiguous", [])),
            frozenset(normalise(n) for n in data.get("matter_names", [])),
            frozenset(normalise(n) for n in data.get("not_named", [])),
            data["story_first_line"],
            data["story_last_line"],
            half or data.get("half", "tuning"),
            int(data.get("round", 0)),
        )

    def index(self) -> dict[str, int]:
        """Each unambiguous normalised name -> the reference entry it names."""
        found: dict[str, int] = {}
        for number, entry in enumerate(self.entries):
            for name in entry.names:
                key = normalise(name)
                if key in self.ambiguous:
                    continue
                if found.setdefault(key, number) != number:
                    raise SystemExit(f"{self.book}: {name!r} names two reference entries")
        return found


@dataclass
class Result:
    book: str
    path: str
    half: str = "tuning"
    round: int = 0
    error: str = ""
    pages: int = 0
    story: tuple[int, int] | None = None
    product_story: tuple[int, int] | None = None
    entries: dict[str, int] = field(default_factory=dict)
    reference: int = 0
    found: int = 0
    merged: list[dict[str, Any]] = field(default_factory=list)
    wrong_kind: list[dict[str, Any]] = field(default_factory=list)
    matter: list[dict[str, Any]] = field(default_factory=list)
    split: list[dict[str, Any]] = field(default_factory=list)
    other: list[dict[str, Any]] = field(default_factory=list)
    ambiguous: list[dict[str, Any]] = field(default_factory=list)
    uncarried: list[dict[str, Any]] = field(default_factory=list)
    misses: list[dict[str, Any]] = field(default_factory=list)
    found_by_kind: dict[str, list[int]] = field(default_factory=dict)
    import_seconds: float = 0.0
    build_seconds: float = 0.0
    build_cpu_seconds: float = 0.0
    format: str = ""
    encoding: str = ""

    @property
    def found_share(self) -> float:
        return self.found / self.reference if self.reference else 0.0

    @property
    def build_ms_per_100(self) -> float:
        return self.build_seconds * 1000 * 100 / self.pages if self.pages else 0.0

    @property
    def build_cpu_ms_per_100(self) -> float:
        return self.build_cpu_seconds * 1000 * 100 / self.pages if self.pages else 0.0

    def as_json(self) -> dict[str, Any]:
        out = {k: v for k, v in self.__dict__.items()}
        out.update(
            found_share=round(self.found_share, 4),
            build_ms=round(self.build_seconds * 1000, 1),
            build_ms_per_100_pages=round(self.build_ms_per_100, 2),
            build_cpu_ms_per_100_pages=round(self.build_cpu_ms_per_100, 2),
            import_ms=round(self.import_seconds * 1000, 1),
            build_share_of_import=round(self.build_seconds / self.import_seconds, 4)
            if self.import_seconds
            else None,
        )
        del out["import_seconds"], out["build_seconds"], out["build_cpu_seconds"]
        return out


def describe(entry: Any, limit: int = 6) -> dict[str, Any]:
    aliases = list(entry.aliases)
    return {
        "name": entry.name,
        "kind": entry.kind,
        "mentions": entry.mentions,
        "first_page": entry.first_page,
        "aliases": aliases[:limit] + ([f"+{len(aliases) - limit} more"] if len(aliases) > limit else []),
    }


def page_texts(services: Any, book: Any) -> list[str]:
    """Each page's text as stored (its chunks put back together), page 1 first."""
    from reader.domain.models import join_chunks

    by_page: dict[int, list[Any]] = {}
    for chunk in services.chunks.get_by_page_range(book.id, 1, book.page_count):
        if chunk.start_page == chunk.end_page:
            by_page.setdefault(chunk.start_page, []).append(chunk)
    return [join_chunks(by_page.get(n, [])) for n in range(1, book.page_count + 1)]


def story_pages(texts: Sequence[str], reference: Reference) -> tuple[int, int] | None:
    """The pages from the one holding the story's first sentence to the one holding its last."""
    first_line, last_line = flat(reference.first_line), flat(reference.last_line)
    flats = [flat(t) for t in texts]
    first = next((n for n, t in enumerate(flats, start=1) if first_line in t), None)
    last = next((n for n in range(len(flats), 0, -1) if last_line in flats[n - 1]), None)
    if first is None or last is None or last < first:
        return None
    return first, last


def build_time(services: Any, book: Any, texts: list[str], repeat: int) -> tuple[float, float]:
    """Seconds (best of `repeat`) of build_concept_map on the story text, as the import calls it:
    wall-clock time, and the CPU time of this process (which other programs on a shared machine do
    not inflate as much)."""
    from reader.app.knowledge.concept_map import build_concept_map
    from reader.app.pages.story_pages import find_story_pages

    chapters = services.books.chapters(book.id)
    story = find_story_pages(texts, chapters, book.title)
    headings: dict[int, list[str]] = {}
    for chapter in chapters:
        headings.setdefault(chapter.start_page, []).append(chapter.title)
    times, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        build_concept_map(story.texts, headings)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return min(times), min(cpu)


def names_of(entry: Any) -> list[str]:
    return [entry.name, *entry.aliases]


def containing(entries: Iterable[Any], keys: set[str], limit: int = 4) -> list[Any]:
    """X-Ray entries one of whose names holds one of `keys` as whole words (e.g. "Pierre's wife")."""
    patterns = [re.compile(rf"(?<![\w']){re.escape(k)}(?![\w'])") for k in keys]
    out = []
    for entry in entries:
        if any(p.search(normalise(n)) for n in names_of(entry) for p in patterns):
            out.append(entry)
            if len(out) >= limit:
                break
    return out


def name_counts(entry: RefEntry, text: str) -> dict[str, int]:
    """How often the story uses each of a reference entry's names, as written (longest name first)."""
    words = sorted({n.removeprefix("the ") for n in entry.names}, key=len, reverse=True)
    alternatives = "|".join(r"\s+".join(map(re.escape, w.split())) for w in words)
    counts: dict[str, int] = {}
    for match in re.finditer(rf"(?<![\w'’])(?:{alternatives})(?![\w])", text):
        key = normalise(match.group())
        counts[key] = counts.get(key, 0) + 1
    return counts


def evaluate(services: Any, reference: Reference, path: Path, repeat: int, details: bool) -> Result:
    result = Result(reference.book, str(path), reference.half, reference.round)
    start = time.perf_counter()
    outcome = services.importer.import_file(path, force=True)
    result.import_seconds = time.perf_counter() - start
    if not outcome.ok or outcome.book is None:
        result.error = f"import failed: {outcome.message}"
        return result
    book = outcome.book
    result.pages, result.format, result.encoding = book.page_count, book.format, book.encoding
    result.product_story = (book.story_start, book.story_last)
    services.books.set_current_page(book.id, book.page_count)
    texts = page_texts(services, book)
    result.build_seconds, result.build_cpu_seconds = build_time(services, book, texts, repeat)
    result.story = story_pages(texts, reference)
    low, high = result.story or (1, book.page_count)

    entries = services.xray.entries(book.id, book.page_count)
    result.entries = {"all": len(entries)}
    for entry in entries:
        result.entries[entry.kind] = result.entries.get(entry.kind, 0) + 1

    index = reference.index()
    matched: dict[int, set[int]] = {}  # X-Ray entry position -> reference entries it names
    for position, entry in enumerate(entries):
        refs = {index[k] for k in map(normalise, names_of(entry)) if k in index}
        if refs:
            matched[position] = refs
        shared = sorted({normalise(n) for n in names_of(entry)} & reference.ambiguous)
        if shared:
            labels = sorted(reference.entries[r].label for r in refs)
            result.ambiguous.append(describe(entry) | {"ambiguous": shared, "matches": labels})
        elif not refs and entry.kind in ("person", "place"):
            result.other.append(describe(entry))
        nobody = sorted({normalise(n) for n in names_of(entry)} & reference.not_named)
        if nobody and entry.kind in ("person", "place"):
            result.wrong_kind.append(
                describe(entry) | {"reference": nobody[0], "expected": "term or nothing"}
            )
        if len(refs) >= 2:
            result.merged.append(
                describe(entry) | {"covers": sorted(reference.entries[r].label for r in refs)}
            )
        elif len(refs) == 1:
            ref = reference.entries[next(iter(refs))]
            if ref.kind != entry.kind:
                result.wrong_kind.append(describe(entry) | {"reference": ref.label, "expected": ref.kind})
        keys = {normalise(n) for n in names_of(entry)}
        matter_names = sorted(keys & reference.matter)
        pages = [page for page, _ in services.concepts.mentions(entry.id, book.page_count)]
        outside = bool(pages) and all(p < low or p > high for p in pages)
        if matter_names or outside:
            why = f"matter name {matter_names[0]!r}" if matter_names else f"only on pages {pages[:5]}"
            result.matter.append(describe(entry) | {"why": why})

    result.reference = len(reference.entries)
    holders: dict[int, list[int]] = {}
    for position, refs in matched.items():
        if len(refs) == 1:
            ref = next(iter(refs))
            if entries[position].kind == reference.entries[ref].kind:
                holders.setdefault(ref, []).append(position)
    result.found = len(holders)
    for kind in ("person", "place"):
        wanted = [n for n, e in enumerate(reference.entries) if e.kind == kind]
        result.found_by_kind[kind] = [sum(1 for n in wanted if n in holders), len(wanted)]
    for ref, positions in holders.items():
        positions = [p for p in positions if entries[p].mentions >= SPLIT_MENTIONS]
        if len(positions) > 1:
            result.split.append(
                {"reference": reference.entries[ref].label, "entries": [entries[p].name for p in positions]}
            )
    if details:
        carried = {normalise(n) for entry in entries for n in names_of(entry)}
        story = "\n".join(texts[low - 1 : high])
        for ref_entry in reference.entries:
            counts = name_counts(ref_entry, story)
            missing = {k: c for k, c in counts.items() if c >= 4 and k not in carried}
            missing = {k: c for k, c in missing.items() if k not in reference.ambiguous}
            if missing:
                result.uncarried.append(
                    {
                        "reference": ref_entry.label,
                        "names": dict(sorted(missing.items(), key=lambda i: -i[1])),
                    }
                )
    for number, ref_entry in enumerate(reference.entries):
        if number in holders:
            continue
        keys = {normalise(n) for n in ref_entry.names} - reference.ambiguous
        exact = [
            describe(entries[p]) | {"why": "merged" if len(refs) > 1 else "wrong kind"}
            for p, refs in matched.items()
            if number in refs
        ]
        near = [] if exact else [describe(e) for e in containing(entries, keys)]
        result.misses.append(
            {"reference": ref_entry.label, "kind": ref_entry.kind, "entries": exact, "containing": near}
        )
    return result


def brief(entry: dict[str, Any]) -> str:
    aliases = ", ".join(entry["aliases"])
    extra = f" [{aliases}]" if aliases else ""
    return f"{entry['name']} ({entry['kind']}, {entry['mentions']}x from p. {entry['first_page']}){extra}"


def meets_targets(r: Result) -> bool:
    """Whether a book meets the quality targets (found, merged, wrong kind, matter, split)."""
    return (
        r.found_share >= FOUND_TARGET
        and not r.merged
        and not r.wrong_kind
        and not r.matter
        and len(r.split) <= SPLIT_TARGET
    )


def print_sums(label: str, rows: Sequence[Result]) -> None:
    met = sum(1 for r in rows if meets_targets(r))
    found = sum(r.found for r in rows), sum(r.reference for r in rows)
    print(
        f"{label}: {len(rows)} books, {met} meet every target; found {found[0]}/{found[1]}, merged "
        f"{sum(len(r.merged) for r in rows)}, wrong kind {sum(len(r.wrong_kind) for r in rows)}, matter "
        f"{sum(len(r.matter) for r in rows)}, split {sum(len(r.split) for r in rows)}"
    )


def print_table(results: Sequence[Result]) -> None:
    header = (
        f"{'book':<28} {'half':<5} {'pages':>5} {'story p.':>11} {'entries p/pl/t':>18} {'found':>13} "
        f"{'merged':>6} {'wrong':>5} {'matter':>6} {'split':>5} {'other':>5} {'import':>8} {'map':>8} {'ms/100p':>7} {'cpu/100p':>8}"
    )
    print(header)
    print("-" * len(header))
    for r in results:
        if r.error:
            print(f"{r.book:<28} {r.error}")
            continue
        story = f"{r.story[0]}-{r.story[1]}" if r.story else "not found"
        e = r.entries
        kinds = f"{e.get('all', 0)} {e.get('person', 0)}/{e.get('place', 0)}/{e.get('term', 0)}"
        found = f"{r.found}/{r.reference} {100 * r.found_share:3.0f}%"
        print(
            f"{r.book:<28} {r.half[:5]:<5} {r.pages:>5} {story:>11} {kinds:>18} {found:>13} {len(r.merged):>6} "
            f"{len(r.wrong_kind):>5} {len(r.matter):>6} {len(r.split):>5} {len(r.other):>5} {r.import_seconds:>7.1f}s "
            f"{r.build_seconds * 1000:>6.0f}ms {r.build_ms_per_100:>7.1f} {r.build_cpu_ms_per_100:>8.1f}"
        )
    for half in ("tuning", "checking", "unseen"):
        rows = [r for r in results if r.half == half and not r.error]
        if rows:
            print_sums(half, rows)
            rounds = sorted({r.round for r in rows})
            if half == "unseen" and len(rounds) > 1:  # the latest round's lists: books no rule was made after
                for number in rounds:
                    label = f"round {number} lists" if number else "earlier lists"
                    print_sums(f"  {half}, {label}", [r for r in rows if r.round == number])
    print(
        f"\ntargets: found >= {FOUND_TARGET:.0%}, 0 merged, 0 wrong kind, 0 matter, split <= {SPLIT_TARGET}; concept map <= "
        f"{MS_PER_100_TARGET:.0f} ms/100 pages (text, EPUB), < {PDF_SHARE_TARGET:.0%} of the import (PDF)"
    )
    for r in results:
        if r.error:
            continue
        share = r.build_seconds / r.import_seconds if r.import_seconds else 0.0
        people, places = r.found_by_kind.get("person", [0, 0]), r.found_by_kind.get("place", [0, 0])
        product = f"{r.product_story[0]}-{r.product_story[1]}" if r.product_story else "?"
        print(
            f"  {r.book}: people {people[0]}/{people[1]}, places {places[0]}/{places[1]}; "
            f"map = {share:.1%} of the import; the product's story pages {product}; "
            f"{r.format}{' ' + r.encoding if r.encoding else ''}"
        )


def print_details(r: Result) -> None:
    if r.error:
        return
    print(f"\n=== {r.book} ===")
    print(f"misses ({len(r.misses)}):")
    for miss in r.misses:
        print(f"  {miss['reference']} ({miss['kind']})")
        for entry in miss["entries"]:
            print(f"      {entry['why']}: {brief(entry)}")
        for entry in miss["containing"]:
            print(f"      name inside: {brief(entry)}")
    print(f"merged ({len(r.merged)}):")
    for entry in r.merged:
        print(f"  {brief(entry)}\n      covers: {', '.join(entry['covers'])}")
    print(f"wrong kind ({len(r.wrong_kind)}):")
    for entry in r.wrong_kind:
        print(f"  {brief(entry)}  -- {entry['reference']} is a {entry['expected']}")
    print(f"from matter ({len(r.matter)}):")
    for entry in r.matter:
        print(f"  {brief(entry)}  -- {entry['why']}")
    print(f"split ({len(r.split)}):")
    for item in r.split:
        print(f"  {item['reference']}: {' | '.join(item['entries'])}")
    print("reference names used 4+ times in the story that no entry carries:")
    for item in r.uncarried:
        names = ", ".join(f"{name} ({count})" for name, count in item["names"].items())
        print(f"  {item['reference']}: {names}")
    print(f"entries carrying an ambiguous name ({len(r.ambiguous)}):")
    for entry in r.ambiguous:
        matches = f"; also names {', '.join(entry['matches'])}" if entry["matches"] else ""
        print(f"  {brief(entry)}  -- {', '.join(entry['ambiguous'])}{matches}")
    print(f"other people and places, most mentioned first ({len(r.other)}, the first {OTHERS_SHOWN}):")
    for entry in sorted(r.other, key=lambda e: -e["mentions"])[:OTHERS_SHOWN]:
        print(f"  {brief(entry)}")


def book_file(folders: Sequence[Path], stem: str) -> Path:
    """The book named `stem` in the first folder holding it (an EPUB before a text, as listed)."""
    for folder in folders:
        for suffix in BOOK_SUFFIXES:
            if (folder / f"{stem}{suffix}").exists():
                return folder / f"{stem}{suffix}"
    return folders[0] / f"{stem}.txt"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--book", help="run only the books whose name contains this")
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="list misses, merged, wrong kind, matter"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--books", type=Path, default=BOOKS, help=f"the books' folder (default {BOOKS})")
    parser.add_argument(
        "--extra", type=Path, action="append", default=[], help="another folder to look for books in"
    )
    parser.add_argument(
        "--unseen",
        type=Path,
        action="append",
        default=[],
        help="a folder of books nobody tuned on, with reference lists in its xray_reference/ (half 'unseen')",
    )
    parser.add_argument("--workdir", type=Path, help="keep the library here (default: a temporary folder)")
    parser.add_argument("--repeat", type=int, default=3, help="concept-map builds to time (best of)")
    args = parser.parse_args()

    references: list[tuple[Path, Path | None]] = [(p, None) for p in sorted(REFERENCES.glob("*.toml"))]
    for folder in args.unseen:
        found = sorted((folder / "xray_reference").glob("*.toml"))
        if not found:
            raise SystemExit(f"no reference lists in {folder / 'xray_reference'}")
        references += [(p, folder) for p in found]
    if args.book:
        references = [(p, f) for p, f in references if args.book.lower() in p.stem.lower()]
        if not references:
            raise SystemExit(f"no reference list matches {args.book!r} in {REFERENCES}")
    work = args.workdir or Path(tempfile.mkdtemp(prefix="reader-xray-"))
    work.mkdir(parents=True, exist_ok=True)
    os.environ["READER_CONFIG"] = str(work / "none.toml")
    from reader.services import Services

    results = []
    for path, unseen in references:
        reference = Reference.load(path, "unseen" if unseen else None)
        services = Services.open(work / f"{reference.book}.db")
        try:
            folders = [unseen] if unseen else [args.books, args.books / "wide", *args.extra]
            book = book_file(folders, reference.book)
            result = evaluate(services, reference, book, args.repeat, args.verbose or args.json)
        finally:
            services.close()
        results.append(result)
        if not args.json:
            print(f"  {reference.book}: {result.error or 'done'}", file=sys.stderr)

    if args.json:
        print(json.dumps([r.as_json() for r in results], ensure_ascii=False, indent=2))
        return
    print_table(results)
    if args.verbose:
        for result in results:
            print_details(result)


if __name__ == "__main__":
    main()
