"""PDFs without an outline built from EPUBs, and how much of their structure reader's PdfExtractor finds.

`make_pdf_from_epub` prints an EPUB's story as a book would be printed: a title page, a copyright page,
a contents page listing the story's chapters with their printed page numbers, each chapter on a new
page under a heading in a larger font, running heads (the book's title on even pages, the chapter's on
odd ones), the page number in the footer, and /PageLabels (i, ii, iii... then 1, 2, 3...). It makes no
outline, so the extractor has to find the chapters from the printed pages.

Run as a script, it builds PDFs of the EPUBs in ../shared/books/wide and prints, per PDF: the
reference chapters found (same title, case, numbering and punctuation ignored), false chapters,
pages where a running head or page number leaked into the text, pages whose label is not the number
printed on them (i, ii... then 1, 2...; without /PageLabels the labels come from the printed numbers),
the story's first page found (and where the first chapter is), and the time spent finding structure
against the whole extraction. Books are split into a tuning half and a
checking half, reported separately.

Usage: python benchmarks/structure_pdfs.py [--books DIR] [--workdir DIR] [--no-labels] [--no-heads]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

FONT_FOLDERS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))
FONT_FILES = {"": "DejaVuSerif.ttf", "B": "DejaVuSerif-Bold.ttf", "I": "DejaVuSerif-Italic.ttf"}
TUNING = ("the-time-machine", "moby-dick", "the-hound-of-the-baskervilles", "heidi")
CHECKING = ("dubliners", "anne-of-green-gables", "the-wind-in-the-willows", "pygmalion")
LEAKS_SHOWN = False
_PAGE_NUMBER = re.compile(r"^(?:\d{1,4}|[ivxlcdm]{1,8})$")
_PARAGRAPHS = re.compile(r"\n\s*\n")
_NUMBERING = re.compile(
    r"^\W*(?:(?:chapter|book|part|volume|act|scene|stave|letter)\s+)?"
    r"(?:[ivxlcdm]+|\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b\W*",
    re.IGNORECASE,
)


def key(text: str) -> str:
    """Letters and digits only, case folded."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def title_keys(title: str) -> set[str]:
    """The keys a title is known by: whole, and without its leading numbering ("Chapter I.")."""
    keys = {key(title), key(_NUMBERING.sub("", title.strip(), count=1))}
    return {k for k in keys if k}


def same_title(a: str, b: str) -> bool:
    """Whether two chapter titles are the same, ignoring case, numbering and punctuation."""
    return bool(title_keys(a) & title_keys(b))


@dataclass(frozen=True)
class StoryChapter:
    """A chapter of the EPUB's story: its title, level and paragraphs."""

    title: str
    level: int
    paragraphs: list[str]


def story_chapters(epub: Path) -> tuple[str, str, list[StoryChapter]]:
    """The EPUB's title, author and story chapters (front and back matter left out), read by reader."""
    from reader.adapters.extractors.epub import EpubExtractor
    from reader.app.library.import_books import chapter_ranges
    from reader.app.pages.story_pages import find_story_pages
    from reader.domain.book_matter import matter_title

    book = EpubExtractor().extract(epub)
    texts = [page.text for page in book.pages]
    chapters = chapter_ranges(book.chapters, len(texts))
    story = find_story_pages(texts, chapters, book.title)
    book_key = key(book.title)
    kept = [
        c
        for c in chapters
        if story.first <= c.start_page <= story.last
        and not matter_title(c.title)
        and key(c.title) != book_key
    ]
    result: list[StoryChapter] = []
    cursor: dict[int, int] = {}
    starts: list[tuple[int, int]] = []
    for chapter in kept:  # where each chapter's heading stands on its first page
        page = chapter.start_page
        text = texts[page - 1]
        at = _heading_offset(text, chapter.title, cursor.get(page, 0))
        cursor[page] = at + 1
        starts.append((page, at))
    for index, chapter in enumerate(kept):
        page, at = starts[index]
        end_page, end_at = starts[index + 1] if index + 1 < len(kept) else (story.last, None)
        pieces: list[str] = []
        for number in range(page, end_page + 1):
            text = story.texts[number - 1] if number <= story.last else ""
            low = at if number == page else 0
            high = end_at if number == end_page and end_at is not None else len(text)
            if number == end_page and end_at is None and number != page:
                high = len(text)
            pieces.append(text[low:high])
        paragraphs = [p.strip() for p in _PARAGRAPHS.split("\n\n".join(pieces)) if p.strip()]
        result.append(StoryChapter(chapter.title, chapter.level, _without_heading(paragraphs, chapter.title)))
    return book.title, book.author, result


def _heading_offset(text: str, title: str, start: int) -> int:
    """Where in a page's text (from `start`) the heading of `title` begins; `start` when not found."""
    wanted = key(title)
    offset = 0
    for paragraph in _PARAGRAPHS.split(text):
        found = text.find(paragraph, offset)
        offset = found + len(paragraph) if found >= 0 else offset
        if found >= start and key(paragraph) and key(paragraph) in wanted:
            return found
    return start


def _without_heading(paragraphs: list[str], title: str) -> list[str]:
    """The chapter's paragraphs without the heading lines the EPUB repeats at its start."""
    wanted = key(title)
    index = 0
    while (
        index < len(paragraphs) and index < 4 and key(paragraphs[index]) and key(paragraphs[index]) in wanted
    ):
        index += 1
    return paragraphs[index:]


def _fonts() -> dict[str, Path] | None:
    for folder in FONT_FOLDERS:
        paths = {style: folder / name for style, name in FONT_FILES.items()}
        if all(path.is_file() for path in paths.values()):
            return paths
    return None


def _roman(number: int) -> str:
    parts = []
    for value, letters in (
        (1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
        (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"),
    ):  # fmt: skip
        while number >= value:
            parts.append(letters)
            number -= value
    return "".join(parts)


def _printer(fonts: dict[str, Path] | None) -> tuple[Any, str, Callable[[str], str]]:
    """An FPDF class, the font family to use and a function making text printable in it."""
    from fpdf import FPDF

    class Book(FPDF):  # type: ignore[misc]
        head: Callable[[Any], None] | None = None
        foot: Callable[[Any], None] | None = None

        def header(self) -> None:
            if self.head:
                self.head(self)

        def footer(self) -> None:
            if self.foot:
                self.foot(self)

    if fonts:
        return Book, "Serif", lambda text: text

    def latin(text: str) -> str:
        text = text.translate({0x2018: "'", 0x2019: "'", 0x201C: '"', 0x201D: '"', 0x2014: "--", 0x2013: "-"})
        return text.encode("latin-1", "replace").decode("latin-1")

    return Book, "Times", latin


def _new_pdf(book_class: Any, family: str, fonts: dict[str, Path] | None) -> Any:
    pdf = book_class(format=(148, 210))
    pdf.set_margins(16, 18, 16)
    pdf.set_auto_page_break(True, margin=18)
    if fonts:
        for style, path in fonts.items():
            pdf.add_font(family, style, str(path))
    return pdf


def make_pdf_from_epub(
    epub: Path,
    out: Path,
    *,
    page_labels: bool = True,
    running_heads: bool = True,
    contents: bool = True,
    alternate: bool = False,
) -> list[str]:
    """Print an EPUB's story as a PDF without an outline; returns the story chapter titles it printed.

    Title page, copyright page, contents (titles with printed page numbers), chapters on new pages
    under a larger heading, running heads (book title on even pages, chapter title on odd ones) and
    page numbers in the footer with `running_heads`, and /PageLabels i, ii... then 1, 2... with
    `page_labels`. Without `contents`, no contents page: the headings alone show the chapters.
    The `alternate` layout prints the page number at the outer end of the running head (no footer),
    a chapter's numbering on a line above its title, and dotted leaders in the contents.
    """
    from pypdf import PdfReader, PdfWriter

    title, author, chapters = story_chapters(epub)
    fonts = _fonts()
    book_class, family, printable = _printer(fonts)
    story = _new_pdf(book_class, family, fonts)
    state: dict[str, Any] = {"chapter": "", "opening": False}

    def story_head(pdf: Any) -> None:
        if not running_heads or state["opening"]:
            return
        pdf.set_font(family, "I", 8)
        pdf.set_y(8)
        text = title if pdf.page_no() % 2 == 0 else state["chapter"]
        pdf.cell(0, 5, printable(text), align="C")
        if alternate:
            pdf.set_x(pdf.l_margin)
            pdf.cell(0, 5, str(pdf.page_no()), align="L" if pdf.page_no() % 2 == 0 else "R")
        pdf.set_y(pdf.t_margin)

    def story_foot(pdf: Any) -> None:
        if not running_heads or alternate:
            return
        pdf.set_y(-12)
        pdf.set_font(family, "", 9)
        pdf.cell(0, 5, str(pdf.page_no()), align="C")

    story.head, story.foot = story_head, story_foot
    starts: list[int] = []
    for chapter in chapters:
        state["opening"], state["chapter"] = True, chapter.title
        story.add_page()
        starts.append(story.page_no())
        story.set_y(40)
        story.set_font(family, "B", 15 if chapter.level == 0 else 13)
        numbering = _NUMBERING.match(chapter.title) if alternate else None
        lines = (
            [numbering.group(0).strip(), chapter.title[numbering.end() :]] if numbering else [chapter.title]
        )
        for line in filter(None, lines):
            story.multi_cell(0, 8, printable(line), align="C", new_x="LMARGIN", new_y="NEXT")
        story.ln(8)
        state["opening"] = False
        story.set_font(family, "", 10)
        for paragraph in chapter.paragraphs:
            story.multi_cell(0, 5, printable(" ".join(paragraph.split())), new_x="LMARGIN", new_y="NEXT")
            story.ln(2)
    front = _front_matter(
        book_class,
        family,
        fonts,
        printable,
        title,
        author,
        chapters if contents else [],
        starts,
        running_heads,
        "..... " if alternate else "",
    )
    with tempfile.TemporaryDirectory() as folder:
        front_path, story_path = Path(folder) / "front.pdf", Path(folder) / "story.pdf"
        front.output(str(front_path))
        story.output(str(story_path))
        writer = PdfWriter()
        for part in (front_path, story_path):
            for page in PdfReader(part).pages:
                writer.add_page(page)
        front_count = len(PdfReader(front_path).pages)
        total = len(writer.pages)
        if page_labels:
            writer.set_page_label(0, front_count - 1, style="/r", start=1)
            writer.set_page_label(front_count, total - 1, style="/D", start=1)
        writer.add_metadata({"/Title": title, "/Author": author})
        with out.open("wb") as handle:
            writer.write(handle)
    return [chapter.title for chapter in chapters]


def _front_matter(
    book_class: Any,
    family: str,
    fonts: dict[str, Path] | None,
    printable: Callable[[str], str],
    title: str,
    author: str,
    chapters: Sequence[StoryChapter],
    starts: Sequence[int],
    running_heads: bool,
    leader: str = "",
) -> Any:
    """The title page, the copyright page and the contents pages (numbered in roman in the footer)."""
    pdf = _new_pdf(book_class, family, fonts)

    def foot(pdf: Any) -> None:
        if running_heads and pdf.page_no() >= 3:
            pdf.set_y(-12)
            pdf.set_font(family, "", 9)
            pdf.cell(0, 5, _roman(pdf.page_no()), align="C")

    pdf.foot = foot
    pdf.add_page()
    pdf.set_y(60)
    pdf.set_font(family, "B", 20)
    pdf.multi_cell(0, 10, printable(title), align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(10)
    pdf.set_font(family, "", 13)
    pdf.multi_cell(0, 7, printable(author or "Anonymous"), align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.add_page()
    pdf.set_y(150)
    pdf.set_font(family, "", 8)
    notice = f"{title}. This edition printed from the public-domain text for testing. No rights reserved."
    pdf.multi_cell(0, 4, printable(notice), new_x="LMARGIN", new_y="NEXT")
    if not chapters:
        return pdf
    pdf.add_page()
    pdf.set_font(family, "B", 14)
    pdf.cell(0, 10, "Contents", align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    pdf.set_font(family, "", 9)
    number_width = 24 if leader else 12
    for chapter, start in zip(chapters, starts, strict=False):
        indent = 6 if chapter.level else 0
        width = pdf.epw - number_width - indent
        lines = pdf.multi_cell(width, 5, printable(chapter.title), dry_run=True, output="LINES")
        if pdf.y + 5 * len(lines) > pdf.h - pdf.b_margin:
            pdf.add_page()
        top = pdf.y
        pdf.set_x(pdf.l_margin + indent)
        pdf.multi_cell(width, 5, printable(chapter.title), new_x="LMARGIN", new_y="NEXT")
        bottom = pdf.y
        pdf.set_xy(pdf.l_margin + pdf.epw - number_width, bottom - 5)
        pdf.cell(number_width, 5, f"{leader}{start}", align="R")
        pdf.set_xy(pdf.l_margin, max(bottom, top + 5) + 1)
    return pdf


# --- the benchmark ---------------------------------------------------------------------------------


@dataclass
class Figures:
    """What the extractor found in one generated PDF."""

    name: str
    reference: int
    found: int
    false: int
    leaked_pages: int
    wrong_labels: int
    story_first: int
    expected_first: int
    structure_s: float
    total_s: float
    missed: list[str]
    extra: list[str]


def measure(name: str, pdf: Path, reference: list[str], running_heads: bool = True) -> Figures:
    """Extract `pdf` with reader's PdfExtractor and compare its chapters and page texts with `reference`."""
    import reader.adapters.extractors.pdf as pdf_module
    from reader.adapters.extractors.pdf import PdfExtractor
    from reader.app.library.import_books import chapter_ranges
    from reader.app.pages.story_pages import find_story_pages

    spent = [0.0]
    structure = pdf_module.find_structure

    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return structure(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - started

    pdf_module.find_structure = timed  # type: ignore[assignment]
    try:
        started = time.perf_counter()
        book = PdfExtractor().extract(pdf)
        total = time.perf_counter() - started
    finally:
        pdf_module.find_structure = structure  # type: ignore[assignment]
    titles = [c.title for c in book.chapters]
    missed = [r for r in reference if not any(same_title(r, t) for t in titles)]
    extra = [t for t in titles if not any(same_title(r, t) for r in reference)]
    texts = [page.text for page in book.pages]
    chapters = chapter_ranges(book.chapters, len(texts))
    story = find_story_pages(texts, chapters, book.title)
    expected_first = _first_chapter_page(pdf, reference[0]) if reference else 0
    front = max(0, expected_first - 1)
    printed = [_roman(n) for n in range(1, front + 1)] + [str(n) for n in range(1, len(texts) - front + 1)]
    wrong = sum(1 for page, label in zip(book.pages, printed, strict=True) if page.label != label)
    return Figures(
        name, len(reference), len(reference) - len(missed), len(extra),
        _leaks(pdf, texts, book.chapters, running_heads), wrong,
        story.first, expected_first, spent[0], total, missed, extra,
    )  # fmt: skip


def _first_chapter_page(pdf: Path, title: str) -> int:
    """The page (1-based) that opens with the first chapter's heading, after the front matter."""
    from pypdf import PdfReader

    reader = PdfReader(pdf)
    for number, page in enumerate(reader.pages, start=1):
        lines = [line for line in (page.extract_text() or "").splitlines() if line.strip()]
        if number > 2 and any(key(line) and key(line) in key(title) for line in lines[:2]):
            return number
    return 0


def _leaks(pdf: Path, texts: Sequence[str], chapters: Sequence[Any], running_heads: bool) -> int:
    """Story pages whose text still opens with the running head printed on the page (on pages that do
    not open a chapter) or ends with the page number printed in its footer."""
    from pypdf import PdfReader

    if not running_heads:
        return 0
    openings = {c.start_page for c in chapters}
    first = min(openings, default=1)
    leaked = 0
    for number, page in enumerate(PdfReader(pdf).pages, start=1):
        lines = [" ".join(line.split()) for line in (page.extract_text() or "").splitlines() if line.strip()]
        text = " ".join(texts[number - 1].split())
        if number < first or not lines or not text:
            continue
        head = number not in openings and text.startswith(" ".join(lines[:2]))
        foot = bool(_PAGE_NUMBER.match(lines[-1])) and text.endswith(f" {lines[-1]}")
        if head or foot:
            leaked += 1
            if LEAKS_SHOWN:
                print(f"    leak p.{number}: {text[:60]!r} ... {text[-30:]!r}")
    return leaked


def report(title: str, rows: list[Figures]) -> None:
    print(f"\n{title}")
    print(
        f"{'book':32} {'found':>9} {'false':>6} {'leaks':>6} {'labels':>7} {'story p.1':>10} {'structure':>10} {'total':>8}"
    )
    for row in rows:
        print(
            f"{row.name:32} {row.found:>4}/{row.reference:<4} {row.false:>6} {row.leaked_pages:>6} "
            f"{row.wrong_labels:>7} "
            f"{row.story_first:>4} ({row.expected_first:>3}) {row.structure_s * 1000:>8.0f}ms {row.total_s:>7.2f}s"
        )
        if row.missed:
            print(f"    missed: {row.missed[:6]}")
        if row.extra:
            print(f"    false: {row.extra[:6]}")
    reference = sum(r.reference for r in rows)
    if reference:
        found = sum(r.found for r in rows) / reference
        false = sum(r.false for r in rows) / reference
        share = statistics.mean(r.structure_s / r.total_s for r in rows if r.total_s)
        print(f"  found {found:.1%}, false {false:.1%}, structure {share:.1%} of extraction on average")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--books", type=Path, default=ROOT.parent / "shared" / "books" / "wide")
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--no-labels", action="store_true", help="leave /PageLabels out")
    parser.add_argument("--no-heads", action="store_true", help="no running heads or footers")
    parser.add_argument("--no-contents", action="store_true", help="no contents page")
    parser.add_argument(
        "--alternate", action="store_true", help="numbers in the heads, split headings, leaders"
    )
    parser.add_argument("--only", nargs="*", default=None, help="book slugs to run")
    parser.add_argument("--reuse", action="store_true", help="reuse PDFs already built in --workdir")
    parser.add_argument("--show-leaks", action="store_true", help="print the pages that leak")
    args = parser.parse_args(argv)
    global LEAKS_SHOWN
    LEAKS_SHOWN = args.show_leaks
    books = args.books if args.books.is_dir() else Path("/work/shared/books/wide")
    with tempfile.TemporaryDirectory() as temporary:
        workdir = args.workdir or Path(temporary)
        workdir.mkdir(parents=True, exist_ok=True)
        for half, slugs in (("tuning half", TUNING), ("checking half", CHECKING)):
            rows = []
            for slug in slugs:
                if args.only and slug not in args.only:
                    continue
                epub = books / f"{slug}.epub"
                if not epub.is_file():
                    print(f"{slug}: no EPUB at {epub}; skipped")
                    continue
                variant = (
                    "-nolabels" * args.no_labels
                    + "-noheads" * args.no_heads
                    + "-nocontents" * args.no_contents
                )
                pdf = workdir / f"{slug}{variant}.pdf"
                saved = pdf.with_suffix(".json")
                if args.reuse and pdf.is_file() and saved.is_file():
                    reference = json.loads(saved.read_text())
                else:
                    started = time.perf_counter()
                    reference = make_pdf_from_epub(
                        epub,
                        pdf,
                        page_labels=not args.no_labels,
                        running_heads=not args.no_heads,
                        contents=not args.no_contents,
                        alternate=args.alternate,
                    )
                    saved.write_text(json.dumps(reference))
                    built = time.perf_counter() - started
                    print(f"built {pdf.name}: {len(reference)} chapters in {built:.1f}s", flush=True)
                rows.append(measure(slug, pdf, reference, not args.no_heads))
            report(half, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
