"""Book structure on real books: chapters found in plain texts and outline-less PDFs, and decoding.

Usage: python benchmarks/structure_quality.py [--books DIR] [--book SLUG] [--no-pdf] [--unseen DIR] [-v]

For every plain text in ../shared/books and ../shared/books/wide:
- reference chapters: the story chapters of the EPUB of the same edition when there is one (its
  contents entries inside the story's pages, matter and the book's title left out), else the list in
  benchmarks/structure_reference/<slug>.txt (written by hand from the book's own contents and headings)
- found: reference chapters the text extractor finds, in order, with the same title (case,
  punctuation and numbering ignored; untitled chapters compare their numbers)
- false: chapters the extractor gives that match no reference chapter
- levels: found chapters nested as the reference nests them (parts over chapters over sections)
- sentences: for a text with an EPUB, sentences sampled from the EPUB's story found word for word
  (quotes, dashes and accents included, whitespace aside) in the text's pages; in brackets, found
  with curly quotes and dashes folded to straight ones (some plain texts are typed that way: their
  source's typography, not a decoding error)
- structure share: the CPU time spent finding headings, as a share of the book's whole import (CPU
  time: other work on the machine does not count)

For every EPUB in the folders, a PDF without an outline is built from its text (title, copyright and
contents pages, chapters on new pages, running heads, page numbers, roman page labels; see
benchmarks/structure_pdfs.py) and measured the same way (sentences: line-end hyphens aside).

Books are split into a tuning half (the rules were written looking at them) and a checking half
(not looked at while writing them); the totals are printed for each.
Targets: >= 95% of reference chapters found, false chapters < 5% of them, every sampled sentence
decoded as the EPUB has it (PDFs 95%), structure finding < 5% of import time.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reader.adapters.extractors.epub import EpubExtractor  # noqa: E402
from reader.adapters.extractors.text import TextExtractor, read_text  # noqa: E402
from reader.adapters.extractors.text_heading_lines import split_blocks, title_key  # noqa: E402
from reader.adapters.extractors.text_headings import find_headings  # noqa: E402
from reader.app.pages.story_pages import find_story_pages  # noqa: E402
from reader.domain.book_matter import matter_title  # noqa: E402
from reader.domain.extracted import ExtractedBook  # noqa: E402
from reader.domain.models import Chapter  # noqa: E402

TUNING = {
    "a-christmas-carol",
    "anne-of-avonlea",
    "dubliners",
    "heart-of-darkness",
    "madame-bovary",
    "romeo-and-juliet",
    "the-time-machine",
    "moby-dick",
    "letters-of-norah",
    "gullivers-travels",
    "dracula",
}
"""Books looked at while writing the plain-text heading rules; the others are the checking half."""
PDF_TUNING = {"the-time-machine", "moby-dick", "the-hound-of-the-baskervilles", "heidi"}
"""EPUBs whose generated PDFs were looked at while writing the PDF rules (benchmarks/structure_pdfs.py)."""
SENTENCES = 40
_NUMBERING = re.compile(
    r"^\W*(?:(?:[^\W\d_]+\.?\s+)?(?:the\s+)?(?:[ivxlcdm]+|\d+|[a-zé]+(?:-[a-z]+)?)\b[.:)]?\s*[-—–:.]*\s*)",
    re.IGNORECASE,
)
_ROMAN_OR_DIGITS = re.compile(r"^(?:[ivxlcdm]+|\d+)$", re.IGNORECASE)


def chapter_key(title: str) -> str:
    """A chapter title without its numbering ("CHAPTER IV. The Storm" -> "the storm"); an untitled
    chapter keeps its numbering ("CHAPTER IV" -> "chapter iv")."""
    key = title_key(title.replace("_", ""))
    words = key.split()
    # drop a leading "<division word> <number>" or "<number>"
    if len(words) >= 2 and _ROMAN_OR_DIGITS.match(words[1]) and words[0].isalpha():
        rest = words[2:]
    elif words and _ROMAN_OR_DIGITS.match(words[0]):
        rest = words[1:]
    else:
        rest = words
    return " ".join(rest) if rest else key


def same_chapter(a: str, b: str) -> bool:
    if a == b:
        return True
    shorter, longer = sorted((a, b), key=len)
    return len(shorter) >= 10 and longer.startswith(shorter)


@dataclass
class Score:
    reference: int
    found: int
    false: int
    missing: list[str]
    extra: list[str]
    levelled: int = 0
    """Found chapters at the reference's nesting level."""


def compare(reference: list[tuple[str, int]], found: list[tuple[str, int]]) -> Score:
    """Reference chapters found in order among `found` (an in-order greedy alignment), and how many of
    those found sit at the reference's nesting level (levels compared by their order on each side)."""
    keys = [chapter_key(t) for t, _ in found]
    used = [False] * len(found)
    pairs: list[tuple[int, int]] = []
    missing: list[str] = []
    at = 0
    for r, (title, _) in enumerate(reference):
        key = chapter_key(title)
        hit = next((i for i in range(at, len(keys)) if not used[i] and same_chapter(key, keys[i])), None)
        if hit is None:  # out of order: anywhere unused
            hit = next((i for i in range(len(keys)) if not used[i] and same_chapter(key, keys[i])), None)
        if hit is None:
            missing.append(title)
            continue
        used[hit] = True
        pairs.append((r, hit))
        at = hit + 1
    ref_levels = sorted({reference[r][1] for r, _ in pairs})
    found_levels = sorted({found[f][1] for _, f in pairs})
    levelled = sum(
        1 for r, f in pairs if ref_levels.index(reference[r][1]) == found_levels.index(found[f][1])
    )
    extra = [t for (t, _), u in zip(found, used, strict=True) if not u]
    return Score(len(reference), len(pairs), len(extra), missing, extra, levelled)


def read_reference(path: Path) -> list[tuple[str, int]]:
    """A hand-written reference: one chapter a line, two spaces of indent per level, # comments."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [
        (line.strip(), (len(line) - len(line.lstrip(" "))) // 2)
        for line in lines
        if line.strip() and not line.startswith("#")
    ]


def epub_story_chapters(book: ExtractedBook) -> list[tuple[str, int]]:
    """An EPUB's story chapters: contents entries inside its story pages, matter and title left out."""
    count = len(book.pages)
    chapters = [
        Chapter(i, c.title, c.start_page, count, c.level) for i, c in enumerate(book.chapters)
    ]
    story = find_story_pages([p.text for p in book.pages], chapters, book.title)
    book_key = title_key(book.title)
    return [
        (c.title, c.level)
        for c in book.chapters
        if story.first <= c.start_page <= story.last
        and not matter_title(c.title)
        and title_key(c.title) != book_key
        and title_key(c.title) not in book_key
    ]


def sample_sentences(book: ExtractedBook, seed: int) -> list[str]:
    """Sentences of 40-200 characters from an EPUB's story pages, sampled with a fixed seed."""
    count = len(book.pages)
    chapters = [Chapter(i, c.title, c.start_page, count, c.level) for i, c in enumerate(book.chapters)]
    story = find_story_pages([p.text for p in book.pages], chapters, book.title)
    sentences: list[str] = []
    for number in range(story.first, story.last + 1):
        text = " ".join(book.pages[number - 1].text.split())
        sentences += [s for s in re.split(r"(?<=[.!?])\s+", text) if 40 <= len(s) <= 200]
    rng = random.Random(seed)
    return rng.sample(sentences, min(SENTENCES, len(sentences)))


_TYPOGRAPHY = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "—": "--", "–": "-"})


def sentences_found(sentences: list[str], pages: list[str], hyphens: bool = False, fold: bool = False) -> int:
    """Sampled sentences found word for word in the pages (with `fold`, curly quotes and dashes as the
    straight ones some plain texts are typed with: the source's typography, not its decoding)."""
    joined = " ".join(" ".join(p.split()) for p in pages)
    if hyphens:
        joined = re.sub(r"(\w)- (\w)", r"\1\2", joined)
    if fold:
        joined = joined.translate(_TYPOGRAPHY)
    found = 0
    for sentence in sentences:
        if hyphens:
            sentence = re.sub(r"(\w)- (\w)", r"\1\2", sentence)
        found += (sentence.translate(_TYPOGRAPHY) if fold else sentence) in joined
    return found


def import_seconds(path: Path) -> float:
    """The time to import a book into a new library (extraction, pages, chunks, search index, concepts)."""
    from reader.services import Services

    with tempfile.TemporaryDirectory() as folder:
        services = Services.open(Path(folder) / "library.db")
        started = time.process_time()
        services.importer.import_file(path, force=True)
        return time.process_time() - started


def structure_seconds(path: Path) -> float:
    blocks = split_blocks(read_text(path).text)  # the paragraphs, which the import needs anyway
    times = []
    for _ in range(3):
        started = time.process_time()
        find_headings(blocks)
        times.append(time.process_time() - started)
    return min(times)


@dataclass
class Row:
    name: str
    half: str
    score: Score
    sentences: tuple[int, int, int] | None
    """(found word for word, sampled, found with typography folded)"""
    share: float | None


def text_rows(folders: list[Path], only: str | None, unseen: tuple[Path, ...] = ()) -> list[Row]:
    rows: list[Row] = []
    for folder in folders:
        for path in sorted(folder.glob("*.txt")):
            slug = path.stem
            if only and only != slug:
                continue
            epub = path.with_suffix(".epub")
            ref_file = ROOT / "benchmarks" / "structure_reference" / f"{slug}.txt"
            if not ref_file.exists():
                ref_file = folder / "structure_reference" / f"{slug}.txt"
            epub_book = EpubExtractor().extract(epub) if epub.exists() else None
            if epub_book is not None:
                reference = epub_story_chapters(epub_book)
            elif ref_file.exists():
                reference = read_reference(ref_file)
            else:
                continue
            book = TextExtractor().extract(path)
            share = structure_seconds(path) / import_seconds(path)
            score = compare(reference, [(c.title, c.level) for c in book.chapters])
            sentences = None
            if epub_book is not None:
                sample = sample_sentences(epub_book, seed=len(slug))
                texts = [p.text for p in book.pages]
                sentences = (sentences_found(sample, texts), len(sample), sentences_found(sample, texts, fold=True))
            half = "tuning" if slug in TUNING else "unseen" if folder in unseen else "checking"
            rows.append(Row(f"{slug}.txt", half, score, sentences, share))
    return rows


def pdf_rows(folders: list[Path], only: str | None, workdir: Path) -> list[Row]:
    try:
        from benchmarks.structure_pdfs import make_pdf_from_epub
    except ImportError as error:
        print(f"(no PDFs: {error})")
        return []
    from reader.adapters.extractors.pdf import PdfExtractor

    rows: list[Row] = []
    for folder in folders:
        for epub in sorted(folder.glob("*.epub")):
            slug = epub.stem
            if only and only != slug:
                continue
            out = workdir / f"{slug}.pdf"
            reference = make_pdf_from_epub(epub, out)
            book = PdfExtractor().extract(out)
            score = compare([(t, 0) for t in reference], [(c.title, 0) for c in book.chapters])
            epub_book = EpubExtractor().extract(epub)
            sample = sample_sentences(epub_book, seed=len(slug))
            texts = [p.text for p in book.pages]
            found = sentences_found(sample, texts, hyphens=True)
            folded = sentences_found(sample, texts, hyphens=True, fold=True)
            half = "tuning" if slug in PDF_TUNING else "checking"
            rows.append(Row(f"{slug}.pdf", half, score, (found, len(sample), folded), None))
    return rows


def report(rows: list[Row], verbose: bool) -> None:
    print(f"{'book':44} {'half':8} {'ref':>4} {'found':>6} {'false':>6} {'sentences':>14} {'struct%':>8}")
    for row in rows:
        s = row.score
        sent = f"{row.sentences[0]}/{row.sentences[1]} ({row.sentences[2]})" if row.sentences else "-"
        share = f"{row.share * 100:.1f}" if row.share is not None else "-"
        pct = f"{s.found / s.reference * 100:.0f}%" if s.reference else "-"
        print(f"{row.name:44} {row.half:8} {s.reference:4} {pct:>6} {s.false:6} {sent:>14} {share:>8}")
        if verbose:
            for title in s.missing[:12]:
                print(f"      missing: {title}")
            for title in s.extra[:12]:
                print(f"      false:   {title}")
    for half in ("tuning", "checking", "unseen"):
        part = [r for r in rows if r.half == half]
        if not part:
            continue
        reference = sum(r.score.reference for r in part)
        found = sum(r.score.found for r in part)
        false = sum(r.score.false for r in part)
        levelled = sum(r.score.levelled for r in part)
        below = [r.name for r in part if r.score.reference and r.score.found < 0.95 * r.score.reference]
        noisy = [r.name for r in part if r.score.reference and r.score.false >= 0.05 * r.score.reference]
        print(
            f"{half}: {len(part)} books, chapters found {found}/{reference} ({found / max(1, reference):.1%}), "
            f"false {false} ({false / max(1, reference):.1%}), at the reference's level {levelled}/{found}; "
            f"under 95% found: {below or 'none'}; "
            f"false >= 5%: {noisy or 'none'}"
        )
    for kind, suffix in (("texts", ".txt"), ("PDFs", ".pdf")):
        part = [r.sentences for r in rows if r.sentences and r.name.endswith(suffix)]
        if part:
            print(
                f"{kind}: sampled EPUB sentences found word for word {sum(p[0] for p in part)}/"
                f"{sum(p[1] for p in part)}; with quotes and dashes folded {sum(p[2] for p in part)}"
            )
    shares = [r.share for r in rows if r.share is not None]
    if shares:
        print(f"structure finding, share of import time: max {max(shares):.1%}, mean {sum(shares) / len(shares):.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--books", type=Path, default=ROOT.parent / "shared" / "books")
    parser.add_argument("--book", help="one book's slug")
    parser.add_argument("--no-pdf", action="store_true")
    parser.add_argument(
        "--unseen",
        type=Path,
        action="append",
        default=[],
        help="a folder of texts nobody tuned on, with references in its structure_reference/ (reported apart)",
    )
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    folders = [args.books, args.books / "wide"]
    rows = text_rows(folders + args.unseen, args.book, tuple(args.unseen))
    if not args.no_pdf:
        with tempfile.TemporaryDirectory() as workdir:
            rows += pdf_rows(folders, args.book, Path(workdir))
    report(rows, args.verbose)


if __name__ == "__main__":
    main()
