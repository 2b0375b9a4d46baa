"""FairytaleQA stories laid out as anthologies (one story section a page) in PDF and EPUB, with their questions.

Used by `story_questions.py`. The data folder holds `section-stories/<split>/<story>-story.csv` and
`questions/<split>/<story>-questions.csv` (see its README); only the train and val splits are read.
"""

from __future__ import annotations

import csv
import re
import zipfile
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

SPLITS = ("train", "val")


@dataclass
class StoryQuestion:
    """One expert-written question and the sections (pages of its story, 1-based) that answer it."""

    text: str
    sections: tuple[int, ...]
    explicit: bool
    answer: str


@dataclass
class Story:
    """A story in numbered sections."""

    name: str
    title: str
    sections: list[str]
    questions: list[StoryQuestion] = field(default_factory=list)


@dataclass
class Anthology:
    """Stories bound as one book: story i's section j is page `first_page[i] + j - 1`."""

    title: str
    stories: list[Story]
    first_page: list[int] = field(default_factory=list)
    book_id: str = ""

    @property
    def page_count(self) -> int:
        return sum(len(s.sections) for s in self.stories)


def _clean(text: str) -> str:
    """Paragraphs kept (blank lines), hard line breaks inside a paragraph joined."""
    paragraphs = re.split(r"\n\s*\n", text.replace("\r\n", "\n"))
    return "\n\n".join(" ".join(p.split()) for p in paragraphs if p.strip())


def _title(name: str) -> str:
    return " ".join(name.replace("-", " ").split()).title()


def load_split(data: Path, split: str) -> list[Story]:
    """Every story of a split with its questions (questions naming no known section are dropped)."""
    if split not in SPLITS:
        raise SystemExit(f"unknown split {split!r}; use one of {', '.join(SPLITS)} (test is held out)")
    stories = []
    for path in sorted((data / "section-stories" / split).glob("*-story.csv")):
        name = path.name.removesuffix("-story.csv")
        with path.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
        sections = [_clean(row["text"]) for row in sorted(rows, key=lambda r: int(r["section"]))]
        story = Story(name, _title(name), sections)
        qpath = data / "questions" / split / f"{name}-questions.csv"
        with qpath.open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                numbers = tuple(int(n) for n in re.findall(r"\d+", row["cor_section"] or ""))
                numbers = tuple(n for n in numbers if 1 <= n <= len(sections))
                if not numbers or not row["question"].strip():
                    continue
                explicit = (row.get("ex-or-im1") or "").strip().lower() == "explicit"
                story.questions.append(StoryQuestion(row["question"].strip(), numbers, explicit, row["answer1"]))
        stories.append(story)
    return stories


def anthologies(stories: list[Story], size: int, prefix: str) -> list[Anthology]:
    """Consecutive groups of about `size` stories (the last group takes the remainder)."""
    groups = max(1, round(len(stories) / size))
    books = []
    for number in range(groups):
        part = stories[number * len(stories) // groups : (number + 1) * len(stories) // groups]
        book = Anthology(f"{prefix} Fairy Book {number + 1}", part)
        page = 1
        for story in part:
            book.first_page.append(page)
            page += len(story.sections)
        books.append(book)
    return books


def write_pdf(book: Anthology, path: Path) -> Path:
    """One section a page; a story's title heads its first page and is an outline entry."""
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_title(book.title)
    pdf.set_author("FairytaleQA")
    pdf.set_auto_page_break(False)
    pdf.set_margins(12, 12, 12)
    fonts = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    if fonts.exists():
        pdf.add_font("body", "", str(fonts))
        family = "body"
    else:
        family = "Helvetica"
    for story in book.stories:
        for number, section in enumerate(story.sections, 1):
            pdf.add_page()
            if number == 1:
                pdf.start_section(story.title, level=0)
                pdf.set_font(family, size=14)
                pdf.multi_cell(0, 8, story.title)
                pdf.ln(3)
            pdf.set_font(family, size=8.5)
            text = section if family == "body" else section.encode("latin-1", "replace").decode("latin-1")
            for paragraph in text.split("\n\n"):
                pdf.multi_cell(0, 4.2, paragraph)
                pdf.ln(2)
            if pdf.page_no() != sum(len(s.sections) for s in book.stories[: book.stories.index(story)]) + number:
                raise SystemExit(f"{story.name} section {number} did not fit on one page")
    pdf.output(str(path))
    return path


_XHTML = (
    '<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml" '
    'xmlns:epub="http://www.idpf.org/2007/ops"><head><title>{title}</title></head><body>{body}</body></html>'
)


def write_epub(book: Anthology, path: Path) -> Path:
    """One XHTML document a story, a print page-list with one page a section, a contents nav."""
    files: dict[str, str] = {
        "META-INF/container.xml": (
            '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
            '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>'
            "</rootfiles></container>"
        )
    }
    toc, pages = [], []
    for index, (story, first) in enumerate(zip(book.stories, book.first_page, strict=True)):
        name = f"story{index:03d}.xhtml"
        body = [f'<h1 id="s{index}">{escape(story.title)}</h1>']
        for offset, section in enumerate(story.sections):
            page = first + offset
            body.append(f'<span epub:type="pagebreak" id="page{page}" title="{page}"/>')
            body.extend(f"<p>{escape(p)}</p>" for p in section.split("\n\n"))
            pages.append((str(page), f"{name}#page{page}"))
        files[f"OEBPS/{name}"] = _XHTML.format(title=escape(story.title), body="".join(body))
        toc.append((story.title, f"{name}#s{index}"))
    nav = '<nav epub:type="toc"><h1>Contents</h1><ol>'
    nav += "".join(f'<li><a href="{h}">{escape(t)}</a></li>' for t, h in toc) + "</ol></nav>"
    nav += '<nav epub:type="page-list" hidden=""><ol>'
    nav += "".join(f'<li><a href="{h}">{label}</a></li>' for label, h in pages) + "</ol></nav>"
    files["OEBPS/nav.xhtml"] = _XHTML.format(title="Contents", body=nav)
    docs = [f"story{i:03d}.xhtml" for i in range(len(book.stories))]
    items = "".join(f'<item id="d{i}" href="{d}" media-type="application/xhtml+xml"/>' for i, d in enumerate(docs))
    items += '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'
    spine = "".join(f'<itemref idref="d{i}"/>' for i in range(len(docs)))
    files["OEBPS/content.opf"] = (
        '<?xml version="1.0" encoding="utf-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" '
        'unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
        f'<dc:identifier id="id">{escape(book.title)}</dc:identifier><dc:title>{escape(book.title)}</dc:title>'
        "<dc:creator>FairytaleQA</dc:creator><dc:language>en</dc:language></metadata>"
        f"<manifest>{items}</manifest><spine>{spine}</spine></package>"
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        for member, data in files.items():
            archive.writestr(member, data)
    return path
