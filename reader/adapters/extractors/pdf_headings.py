"""Headings at the top of PDF pages: what each page opens with, and chapters from heading lines alone.

A page's opening is its first lines once running heads and page numbers are gone, with back any
running head that first appears on it (a chapter's title heads its first page and then recurs as
the running head of the pages after). A book with no contents page gets its chapters from pages
that open with a heading line: `CHAPTER IV`, `BOOK TWO`, `PREFACE`, a roman numeral alone or before
a title (`XII.`, `II. THE RED-HEADED LEAGUE`), or with text set larger than the book's body text.
Where the PDF sets its headings larger, a heading line in the body's size is text, not a heading.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from reader.adapters.extractors.pdf_running_heads import RUN_GAP, PageEdges, head_key
from reader.domain.extracted import ExtractedChapter

OPENING_LINES = 5
"""Lines at the top of a page where a chapter's heading stands."""
HEADING_START = 3
"""A heading's title starts on one of a page's first lines..."""
HEADING_LINES = 4
"""...and fills whole lines, at most this many."""
MAX_HEADING_CHARS = 80
MAX_TITLE_LINE = 60
"""A short line after a numbered heading is its title."""
MIN_HEADINGS = 2
"""Fewer heading pages than this are no structure."""
MAX_HEADING_SHARE = 0.34
"""When large text opens more than this share of the pages, large text alone is no heading."""

NUMBERED_HEADINGS = (
    "chapter",
    "book",
    "part",
    "volume",
    "letter",
    "stave",
    "act",
    "scene",
    "canto",
    "section",
)
"""Words that head a numbered division: `CHAPTER IV`, `Book the First`."""
LONE_HEADINGS = (
    "prologue", "epilogue", "preface", "introduction", "foreword", "afterword", "conclusion", "appendix",
)  # fmt: skip
"""Words that head a division on their own."""
OUTER_HEADINGS = ("book", "part", "volume")
"""Divisions that hold chapters."""

_NUMBER_WORD = r"(?:[ivxlcdm]+|\d{1,3}|the\s+\w+|one|two|three|four|five|six|seven|eight|nine|ten|\w+teen|\w+ty(?:-\w+)?)"
_KEYWORD = re.compile(
    rf"^(?P<word>{'|'.join(NUMBERED_HEADINGS)})\s+{_NUMBER_WORD}\b(?P<rest>.*)$", re.IGNORECASE
)
_LONE = re.compile(rf"^(?:{'|'.join(LONE_HEADINGS)})\b\W*$", re.IGNORECASE)
_NUMERAL = re.compile(r"^(?:[IVXLC]+|\d{1,3})\.?$")
_NUMERAL_TITLE = re.compile(r"^[IVXLC]+\.\s+[A-Z][^a-z]*$")
_WORD = re.compile(r"[^\W_]+")


def words(text: str) -> str:
    """Text as lower-case words joined by single spaces (punctuation dropped)."""
    return " ".join(_WORD.findall(text.casefold()))


@dataclass(frozen=True)
class Opening:
    """What a page opens with: its first lines, and each of them as words."""

    lines: list[str]
    words: list[str]


def page_openings(edges: PageEdges) -> list[Opening]:
    """Each page's opening lines, with back the running heads that first appear on it (not at the top
    of one of the pages just before)."""
    tops = [
        {head_key(line) for line in [*heads, *lines[:OPENING_LINES]]}
        for heads, lines in zip(edges.heads, edges.lines, strict=True)
    ]
    openings: list[Opening] = []
    for page, lines in enumerate(edges.lines):
        earlier = set().union(*tops[max(0, page - RUN_GAP) : page])
        first = [h for h in edges.heads[page] if head_key(h) not in earlier]
        shown = first + [line.strip() for line in lines[:OPENING_LINES]]
        openings.append(Opening(shown, [words(line) for line in shown]))
    return openings


def opens_with(opening: Opening, title: str, *, ending: bool = False) -> bool:
    """Whether a page opens with `title` on lines of its own (with `ending`, at the end of such lines,
    after a numbering: "CHAPTER I. LOOMINGS" for "Loomings")."""
    wanted = words(title)
    if not wanted:
        return False
    lines = opening.words
    for start in range(min(HEADING_START, len(lines))):
        joined = ""
        for line in lines[start : start + HEADING_LINES]:
            joined = f"{joined} {line}".strip()
            if joined == wanted or (ending and joined.endswith(f" {wanted}")):
                return True
            if len(joined) > len(wanted) + MAX_HEADING_CHARS:
                break
    return False


def heading_line(line: str) -> bool:
    """Whether a line is a heading by its form: a numbered division, a lone heading word or a numeral."""
    line = line.strip()
    if not line or len(line) > MAX_HEADING_CHARS or not line[0].isupper():
        return False
    if _KEYWORD.match(line):
        return True
    return bool(_LONE.match(line) or _NUMERAL.match(line) or _NUMERAL_TITLE.match(line))


def _numbering_only(line: str) -> bool:
    match = _KEYWORD.match(line)
    if match:
        return not any(ch.isalpha() for ch in match.group("rest"))
    return bool(_NUMERAL.match(line))


def heading_chapters(
    openings: list[Opening], large: Sequence[str] = (), title: str = "", skip: Collection[int] = ()
) -> list[ExtractedChapter]:
    """Chapters from pages whose first line is a heading line (with the short title line under it), or
    that open with text set larger than the body (`large`, per page; not the book's `title`)."""
    found: list[tuple[str, int, bool]] = []
    book = words(title)
    sized = any(large)  # the PDF sets its headings larger: a heading line must be larger too
    larger = 0
    for page, opening in enumerate(openings):
        if page in skip:
            continue
        lines = [line for line in opening.lines if line.strip()]
        big = large[page] if page < len(large) else ""
        if book and words(big).startswith(book):
            big = ""  # the title page
        if lines and heading_line(lines[0]) and (big or not sized):
            name = lines[0].strip()
            if big and words(big).startswith(words(name)):
                name = big
            elif _numbering_only(name) and len(lines) > 2 and _title_line(lines[1]):
                name = f"{name} {lines[1].strip()}"
        elif big and words(big) and words(big) != book:
            name = big
            larger += 1
        else:
            continue
        keyword = _KEYWORD.match(name)
        outer = keyword is not None and keyword.group("word").casefold() in OUTER_HEADINGS
        found.append((name, page + 1, outer))
    if larger > len(openings) * MAX_HEADING_SHARE:  # large text opens most pages: not headings
        found = [entry for entry in found if heading_line(entry[0])]
    numerals = sum(1 for name, _, _ in found if _NUMERAL.match(name.split(" ")[0]))
    if len(found) < MIN_HEADINGS or (numerals and numerals < MIN_HEADINGS and numerals == len(found)):
        return []
    nested = any(outer for _, _, outer in found) and not all(outer for _, _, outer in found)
    return [ExtractedChapter(name, page, 0 if outer or not nested else 1) for name, page, outer in found]


def _title_line(line: str) -> bool:
    line = line.strip()
    return 0 < len(line) <= MAX_TITLE_LINE and line[0].isupper() and not line.endswith((",", ";", "-"))
