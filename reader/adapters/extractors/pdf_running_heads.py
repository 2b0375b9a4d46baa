"""Running heads, footers and printed page numbers of PDF pages, recognised by how they repeat across pages.

A printed page number stands in a page's first or last lines ("14", "Page 14", "- 14 -", "xii", or at
either end of a running head: "14 THE TIME MACHINE") and continues the numbers of the pages near it.
A running head or footer is a short line at a page's top or bottom that recurs at the same edge
within a few pages (the book's title on even pages, the chapter's on odd ones). Both are taken out of
the page's lines; the numbers can also give the pages their labels.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from reader.domain.numbering import roman_value

EDGE_LINES = 2
"""Lines at each edge of a page where running heads, footers and page numbers stand."""
NEAR_PAGES = 4
"""A printed number counts when a page this near continues its sequence (or the page's label is it)."""
RUN_GAP = 4
"""A line at a page's edge is a running head when the same line stands at that edge this near."""
FULL_PAGE_LINES = 6
"""A line counts as a running head only where it is also one on pages with at least this many lines
(on a page of two lines, a line repeated on every page is the text itself)."""
MAX_HEAD_CHARS = 90
"""Running heads are short lines."""
LABELLED_SHARE = 0.25
"""Printed numbers label the pages when at least this share of the pages shows one."""

_NUMBER = r"(\d{1,4}|[ivxlcdm]{1,8})"
_ALONE = re.compile(rf"^[\s\-–—\[\](|.•·*]*(?:page\s+|p\.\s*)?{_NUMBER}[\s\-–—\[\])|.•·*]*$", re.IGNORECASE)
_LEADING = re.compile(rf"^{_NUMBER}\s+(\S.*)$", re.IGNORECASE)
_TRAILING = re.compile(rf"^(.*\S)\s+{_NUMBER}$", re.IGNORECASE)
_GLUED_LEADING = re.compile(r"^(\d{1,4})([^\W\d_].*)$")
_GLUED_TRAILING = re.compile(r"^(.*[^\W\d_])(\d{1,4})$")
"""A number and a running head drawn apart on one line can come out of the PDF with no space between."""
_TWO_LETTERS = re.compile(r"[^\W\d_].*?[^\W\d_]")
_ROMAN_DIGITS = (
    (1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
    (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"),
)  # fmt: skip


def to_roman(number: int) -> str:
    """A positive number in lower-case roman numerals."""
    parts: list[str] = []
    for value, digits in _ROMAN_DIGITS:
        count, number = divmod(number, value)
        parts.append(digits * count)
    return "".join(parts)


def number_value(text: str) -> tuple[bool, int] | None:
    """(is roman, value) of a printed page number, None when `text` is neither arabic nor roman."""
    if text.isdigit():
        return False, int(text)
    value = roman_value(text)
    return (True, value) if value else None


@dataclass(frozen=True)
class _Printed:
    """A number at the edge of a page that may be its printed page number."""

    page: int
    line: int
    roman: bool
    value: int
    text: str
    rest: str
    """The line without the number ("" when the number stood alone)."""

    @property
    def sequence(self) -> tuple[bool, int]:
        """Numbers of one sequence share their kind and their distance from the page index."""
        return self.roman, self.value - self.page


@dataclass(frozen=True)
class PageEdges:
    """Pages without their running heads, footers and page numbers."""

    lines: list[list[str]]
    """Each page's remaining lines."""
    heads: list[list[str]]
    """The running-head lines taken from the top of each page (a chapter's heading may be among them)."""
    printed: list[str]
    """The printed page number found on each page ("" where none was)."""

    def labels(self) -> list[str] | None:
        """Page labels from the printed numbers, when enough pages show a consistent sequence."""
        return printed_labels(self.printed)


def _edge_indexes(lines: Sequence[str]) -> list[int]:
    filled = [i for i, line in enumerate(lines) if line.strip()]
    return sorted(set(filled[:EDGE_LINES] + filled[-EDGE_LINES:]))


def _candidates(page: int, lines: Sequence[str]) -> list[_Printed]:
    found: list[_Printed] = []
    for index in _edge_indexes(lines):
        line = lines[index].strip()
        match = _ALONE.match(line)
        if match:
            number, rest = match.group(1), ""
        elif (match := _LEADING.match(line)) and any(ch.isalpha() for ch in match.group(2)):
            number, rest = match.group(1), match.group(2)
        elif (match := _TRAILING.match(line)) and any(ch.isalpha() for ch in match.group(1)):
            number, rest = match.group(2), match.group(1)
        elif match := _GLUED_LEADING.match(line):
            number, rest = match.group(1), match.group(2)
        elif match := _GLUED_TRAILING.match(line):
            number, rest = match.group(2), match.group(1)
        else:
            continue
        value = number_value(number)
        if value:
            found.append(_Printed(page, index, value[0], value[1], number, rest.strip()))
    return found


def strip_running_heads(pages: Sequence[str | None], labels: Sequence[str] | None = None) -> PageEdges:
    """Take printed page numbers, running heads and footers out of the pages' lines.

    `labels` (from /PageLabels, when the PDF has them) also confirm a page number standing alone.
    """
    lines = [(text or "").splitlines() for text in pages]
    printed = _take_numbers(lines, labels)
    heads = _take_heads(lines)
    return PageEdges(lines, heads, printed)


def _take_numbers(lines: list[list[str]], labels: Sequence[str] | None) -> list[str]:
    candidates = [c for page, page_lines in enumerate(lines) for c in _candidates(page, page_lines)]
    by_sequence: dict[tuple[bool, int], set[int]] = {}
    for candidate in candidates:
        by_sequence.setdefault(candidate.sequence, set()).add(candidate.page)

    def confirmed(c: _Printed) -> bool:
        if labels is not None and not c.rest and labels[c.page].casefold() == c.text.casefold():
            return True
        pages = by_sequence[c.sequence]
        return any(c.page + step in pages or c.page - step in pages for step in range(1, NEAR_PAGES + 1))

    chosen: dict[int, _Printed] = {}
    for candidate in filter(confirmed, candidates):
        best = chosen.get(candidate.page)
        if best is None or len(by_sequence[candidate.sequence]) > len(by_sequence[best.sequence]):
            chosen[candidate.page] = candidate
    printed = [""] * len(lines)
    for candidate in candidates:
        best = chosen.get(candidate.page)
        if best is None or (candidate.roman, candidate.value) != (best.roman, best.value):
            continue
        lines[candidate.page][candidate.line] = candidate.rest
        printed[candidate.page] = best.text
    return printed


def head_key(line: str) -> str:
    """A line as running heads are compared: case folded, spaces collapsed."""
    return " ".join(line.casefold().split())


def _take_heads(lines: list[list[str]]) -> list[list[str]]:
    tops: dict[str, set[int]] = {}
    bottoms: dict[str, set[int]] = {}
    for page, page_lines in enumerate(lines):
        filled = [line for line in page_lines if line.strip()]
        for line in filled[:EDGE_LINES]:
            tops.setdefault(head_key(line), set()).add(page)
        for line in filled[-EDGE_LINES:]:
            bottoms.setdefault(head_key(line), set()).add(page)

    def repeated(seen: dict[str, set[int]], line: str, page: int) -> bool:
        key = head_key(line)
        if len(key) > MAX_HEAD_CHARS or not _TWO_LETTERS.search(key):
            return False
        pages = seen.get(key, set())
        return any(page + step in pages or page - step in pages for step in range(1, RUN_GAP + 1))

    established: set[str] = set()  # heads seen on full pages; a short page's edge line must be one
    for page, page_lines in enumerate(lines):
        filled = [line for line in page_lines if line.strip()]
        if len(filled) >= FULL_PAGE_LINES:
            established.update(head_key(line) for line in filled[:EDGE_LINES] if repeated(tops, line, page))
            established.update(
                head_key(line) for line in filled[-EDGE_LINES:] if repeated(bottoms, line, page)
            )

    def head(seen: dict[str, set[int]], line: str, page: int) -> bool:
        return head_key(line) in established and repeated(seen, line, page)

    heads: list[list[str]] = []
    for page, page_lines in enumerate(lines):
        taken: list[str] = []
        kept = [line for line in page_lines if line.strip()]
        while kept and len(taken) < EDGE_LINES and head(tops, kept[0], page):
            taken.append(kept.pop(0).strip())
        dropped = 0
        while kept and dropped < EDGE_LINES and head(bottoms, kept[-1], page):
            kept.pop()
            dropped += 1
        lines[page] = kept
        heads.append(taken)
    return heads


def printed_labels(printed: Sequence[str]) -> list[str] | None:
    """Labels for every page from the printed numbers of some, when they form a consistent sequence.

    Pages between two numbered ones continue the sequence; pages before the first arabic number get
    roman numbers (front matter) unless they printed their own.
    """
    count = len(printed)
    values = {page: number_value(text) for page, text in enumerate(printed) if text}
    known = {page: value for page, value in values.items() if value}
    if len(known) < max(3, int(count * LABELLED_SHARE)):
        return None
    arabic = sorted((page, value) for page, (roman, value) in known.items() if not roman)
    if any(b[1] <= a[1] for a, b in zip(arabic, arabic[1:], strict=False)):
        return None  # the numbers go back somewhere: not one book's page numbers
    labels = [""] * count
    for page, (roman, value) in known.items():
        labels[page] = to_roman(value) if roman else str(value)
    for (page, value), (after, after_value) in zip(arabic, arabic[1:], strict=False):
        for step in range(1, after - page):
            if value + step < after_value:
                labels[page + step] = str(value + step)
    if arabic:
        last_page, last_value = arabic[-1]
        for page in range(last_page + 1, count):
            labels[page] = labels[page] or str(last_value + page - last_page)
        first_page, first_value = arabic[0]
        for page in range(first_page - 1, -1, -1):
            value = first_value - (first_page - page)
            if value < 1:
                break
            labels[page] = labels[page] or str(value)
    used = set(labels)
    front = arabic[0][0] if arabic else count
    for page in range(front):  # front matter without numbers: roman by position, where free
        if not labels[page] and to_roman(page + 1) not in used:
            labels[page] = to_roman(page + 1)
            used.add(labels[page])
    return labels
