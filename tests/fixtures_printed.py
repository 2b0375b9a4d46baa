"""Generators of PDFs laid out as printed books (fpdf2 + pypdf): front matter, a contents page, chapters on
new pages under a larger heading, running heads and page numbers, no outline unless asked."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

BOOK_TITLE = "Adventures Underground"
CHAPTERS = (
    ("CHAPTER I.", "Down the Rabbit-Hole"),
    ("CHAPTER II.", "The Pool of Tears"),
    ("CHAPTER III.", "A Caucus-Race and a Long Tale"),
    ("CHAPTER IV.", "The Rabbit Sends in a Little Bill"),
)
ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii")


def body_line(chapter: int, page: int, line: int) -> str:
    """A line of prose unique to its chapter, page and line."""
    return f"Alice wandered through chapter {chapter} on sheet {page} and found lantern{chapter}x{page}x{line} there."


def last_words(chapter: int, page: int) -> str:
    """The words a page's prose ends with."""
    return f"the end of sheet {page} in chapter {chapter}."


@dataclass(frozen=True)
class Printed:
    """What a printed PDF holds: physical page (1-based) where each chapter starts, and the front pages."""

    path: Path
    starts: list[int]
    front: int


def write_printed_pdf(
    path: Path,
    *,
    chapters: Sequence[tuple[str, str]] = CHAPTERS,
    pages_per_chapter: int = 3,
    contents: bool = True,
    contents_numbers: Sequence[int] | None = None,
    leader: str = " ",
    page_labels: bool = True,
    running_heads: bool = True,
    footer: str | None = "{}",
    front_numbers: bool = False,
    title: str | None = BOOK_TITLE,
    first_line: str | None = None,
    contents_titles: Sequence[str] | None = None,
    numbered_heads: bool = False,
) -> Printed:
    """A book of `chapters` (numbering, title) of `pages_per_chapter` pages each, after a title page, a
    copyright page, a contents page (with `contents`) and a dedication page.

    The contents lists "numbering title<leader>page" (pages from `contents_numbers`, default the true
    printed numbers) or `contents_titles` with those numbers; `footer` formats the printed page number at the foot of story pages ("Page {}",
    "- {} -"; None for none), `front_numbers` prints roman numbers on the front pages after the title
    page; `running_heads` prints the book's title on even pages and the chapter's on odd ones;
    `page_labels` writes /PageLabels i.. then 1...; `first_line` opens the text of the pages after a
    chapter's first.
    """
    from fpdf import FPDF
    from pypdf import PdfReader, PdfWriter

    pdf = FPDF(format=(140, 200))
    pdf.set_margins(15, 20, 15)
    pdf.set_auto_page_break(False)
    if title:
        pdf.set_title(title)
    line = {"new_x": "LMARGIN", "new_y": "NEXT"}
    front = 4
    starts = [front + 1 + index * pages_per_chapter for index in range(len(chapters))]
    printed = contents_numbers or [start - front for start in starts]

    def foot(text: str) -> None:
        pdf.set_xy(pdf.l_margin, pdf.h - 12)
        pdf.set_font("Helvetica", size=9)
        pdf.cell(pdf.epw, 5, text, align="C")

    pdf.add_page()  # title page
    pdf.set_y(60)
    pdf.set_font("Helvetica", "B", 20)
    pdf.multi_cell(0, 10, BOOK_TITLE, align="C", **line)
    pdf.set_font("Helvetica", size=12)
    pdf.multi_cell(0, 8, "by Lewis Carroll", align="C", **line)
    pdf.add_page()  # copyright
    pdf.set_y(150)
    pdf.set_font("Helvetica", size=8)
    pdf.multi_cell(0, 4, "First printed for the tests. No rights reserved.", **line)
    if front_numbers:
        foot(ROMAN[1])
    pdf.add_page()  # contents
    if contents:
        pdf.set_font("Helvetica", "B", 14)
        pdf.cell(0, 10, "Contents", align="C", **line)
        pdf.set_font("Helvetica", size=10)
        listed = contents_titles or [f"{numbering} {name}".strip() for numbering, name in chapters]
        for name, number in zip(listed, printed, strict=True):
            pdf.cell(0, 7, f"{name}{leader}{number}", **line)
    if front_numbers:
        foot(ROMAN[2])
    pdf.add_page()  # dedication
    pdf.set_y(80)
    pdf.set_font("Helvetica", "I", 11)
    pdf.multi_cell(0, 6, "For the children of the river.", align="C", **line)
    if front_numbers:
        foot(ROMAN[3])
    for index, (numbering, name) in enumerate(chapters, start=1):
        for sheet in range(pages_per_chapter):
            pdf.add_page()
            number = pdf.page_no() - front
            if sheet == 0:
                pdf.set_y(35)
                pdf.set_font("Helvetica", "B", 16)
                for heading in filter(None, (numbering, name)):
                    pdf.multi_cell(0, 8, heading, align="C", **line)
                pdf.ln(6)
            elif running_heads:
                pdf.set_xy(pdf.l_margin, 8)
                pdf.set_font("Helvetica", "I", 8)
                pdf.cell(pdf.epw, 5, BOOK_TITLE if number % 2 == 0 else name, align="C")
                if numbered_heads:
                    pdf.set_xy(pdf.l_margin, 8)
                    pdf.cell(pdf.epw, 5, str(number), align="L" if number % 2 == 0 else "R")
                pdf.set_y(pdf.t_margin)
            pdf.set_font("Helvetica", size=10)
            if first_line and sheet:
                pdf.multi_cell(0, 6, first_line, **line)
            for row in range(8 if sheet == 0 else 12):
                pdf.multi_cell(0, 6, body_line(index, number, row), **line)
            pdf.multi_cell(0, 6, f"So it was, {last_words(index, number)}", **line)
            if footer is not None:
                foot(footer.format(number))
    pdf.output(str(path))
    if page_labels:
        writer = PdfWriter(clone_from=PdfReader(path))
        writer.set_page_label(0, front - 1, style="/r", start=1)
        writer.set_page_label(front, len(writer.pages) - 1, style="/D", start=1)
        with path.open("wb") as handle:
            writer.write(handle)
    return Printed(path, starts, front)
