"""Chapters of a PDF from its printed contents page, each confirmed by the heading that opens its page.

A contents page is a page near the start (or the end) whose lines are mostly titles followed by page
numbers ("Chapter I Down the Rabbit-Hole 1", "I. Loomings .... 3", "Preface vii"). Each entry's
number is looked up among the page labels ("1" is the page labelled 1, not the first page) and kept
only when that page opens with the entry's title or numbering; an entry whose page does not open with
it is looked for on the pages around, and dropped when not found.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reader.adapters.extractors.pdf_headings import (
    NUMBERED_HEADINGS,
    OUTER_HEADINGS,
    Opening,
    heading_line,
    opens_with,
    words,
)
from reader.adapters.extractors.pdf_running_heads import number_value
from reader.domain.book_matter import opens_matter
from reader.domain.extracted import ExtractedChapter

CONTENTS_ENTRIES = 3
"""Entries a page must list to be a contents page."""
CONTENTS_SHARE = 0.5
"""Share of a contents page's lines that belong to its entries."""
ORDERED_SHARE = 0.8
"""Share of a contents page's successive entries whose page numbers do not go back."""
FRONT_SHARE = 0.25
BACK_SHARE = 0.1
"""Contents pages are looked for in this share of the pages at the start and at the end."""
SEARCH_PAGES = 3
"""Pages on either side of an entry's page searched for its heading."""
MAX_OFFSET = 120
"""Furthest an entry's printed number is looked for from the page of that number."""
OFFSET_SAMPLE = 12
"""Entries tried at each offset when no entry's number resolves through the labels."""
MAX_PENDING = 2
"""Lines without a number carried over to the next entry (a wrapped title, a numbering line)."""
MAX_ENTRY_CHARS = 160

_LAST_WORD = re.compile(r"^(?P<leader>.*?[.·…_]{2,})?(?P<page>\d{1,4}|[ivxlcdm]{1,8})$", re.IGNORECASE)
_LEADER = " .·…_-–—"
_OUTER = re.compile(rf"^(?:{'|'.join(OUTER_HEADINGS)})\b", re.IGNORECASE)
_NUMBERING = re.compile(
    rf"^(?P<numbering>(?:(?:{'|'.join(NUMBERED_HEADINGS)})\s+)?(?:[ivxlcdm]+|\d{{1,3}})\b\.?)\s*(?P<title>.*)$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Entry:
    """A contents entry: its title, its printed page number ("" for a part listed without one), its level."""

    title: str
    number: str
    outer: bool


def contents_chapters(
    openings: Sequence[Opening], lines: Sequence[Sequence[str]], labels: Sequence[str], pages: Sequence[int]
) -> tuple[list[ExtractedChapter], int]:
    """Chapters from the contents pages (`pages`, see contents_pages), confirmed by the headings of
    their pages, and how many entries the contents listed; ([], 0) when there is no contents page."""
    entries = [entry for page in pages for entry in page_entries(lines[page])]
    if not entries:
        return [], 0
    found = _place(entries, openings, labels, pages)
    nested = any(entry.outer for entry, _ in found) and not all(entry.outer for entry, _ in found)
    chapters = [
        ExtractedChapter(entry.title, page + 1, 0 if entry.outer or not nested else 1)
        for entry, page in found
    ]
    return chapters, len(entries)


def contents_pages(lines: Sequence[Sequence[str]]) -> list[int]:
    """The longest run of successive contents pages near the start or the end of the book (a page next
    to a contents page continues it with fewer entries)."""
    count = len(lines)
    front = range(0, max(1, int(count * FRONT_SHARE)) + 1)
    back = range(count - int(count * BACK_SHARE), count)
    listing = sorted({page for page in (*front, *back) if 0 <= page < count and _is_contents(lines[page])})
    runs: list[list[int]] = []
    for page in listing:
        if runs and page == runs[-1][-1] + 1:
            runs[-1].append(page)
        else:
            runs.append([page])
    for run in runs:
        while run[0] > 0 and _is_contents(lines[run[0] - 1], 1):
            run.insert(0, run[0] - 1)
        while run[-1] + 1 < count and _is_contents(lines[run[-1] + 1], 1):
            run.append(run[-1] + 1)
    return max(runs, key=lambda run: sum(len(page_entries(lines[p])) for p in run), default=[])


def _is_contents(page_lines: Sequence[str], least: int = CONTENTS_ENTRIES) -> bool:
    filled = [line for line in page_lines if line.strip()]
    entries = page_entries(page_lines)
    if len(entries) < least:
        return False
    used = sum(len(words(e.title).split()) for e in entries)
    total = sum(len(words(line).split()) for line in filled)
    if used < CONTENTS_SHARE * total:
        return False
    arabic = [value[1] for e in entries if (value := number_value(e.number)) and not value[0]]
    ordered = sum(1 for a, b in zip(arabic, arabic[1:], strict=False) if b >= a)
    return len(arabic) < 2 or ordered >= ORDERED_SHARE * (len(arabic) - 1)


def page_entries(page_lines: Sequence[str]) -> list[Entry]:
    """The entries listed on one page: title lines ending in a page number, with the lines before them
    that carry no number (a wrapped title, a `CHAPTER I` line); a part line stands as its own entry."""
    entries: list[Entry] = []
    pending: list[str] = []
    for raw in page_lines:
        line = " ".join(raw.split())
        if not line:
            continue
        title, number = split_entry(line)
        if number and len(line) <= MAX_ENTRY_CHARS and not _numbering_alone(title):
            if pending and _OUTER.match(pending[0]) and _NUMBERING.match(title):
                entries.append(Entry(" ".join(pending), "", True))
                pending = []
            full = " ".join([*pending, title])
            entries.append(Entry(full, number, bool(_OUTER.match(full))))
            pending = []
        elif opens_matter(line) or len(pending) >= MAX_PENDING or len(line) > MAX_ENTRY_CHARS:
            pending = []
        else:
            pending.append(line)
    return entries


def split_entry(line: str) -> tuple[str, str]:
    """A contents line's title and page number ("I. Loomings .... 3" -> "I. Loomings", "3"); ('', '')
    when the line does not end in a page number after a title."""
    head, _, last = line.rpartition(" ")
    match = _LAST_WORD.match(last)
    if not match:
        return "", ""
    if match.group("leader"):
        head = f"{head} {match.group('leader')}"
    title = head.strip(_LEADER)
    if not any(ch.isalpha() for ch in title):
        return "", ""
    return title, match.group("page")


def _numbering_alone(title: str) -> bool:
    """A title that is a division word alone: "CHAPTER I" read as "CHAPTER" on page I."""
    return words(title) in NUMBERED_HEADINGS


def _numbering(title: str) -> str:
    """An entry's numbering ("Chapter I", "IV.") when it has words after it, else ''."""
    match = _NUMBERING.match(title)
    return match.group("numbering") if match and match.group("title") else ""


def _confirmed(entry: Entry, opening: Opening) -> bool:
    """Whether a page opens with the entry: its title, its title without numbering, or its numbering."""
    if opens_with(opening, entry.title):
        return True
    match = _NUMBERING.match(entry.title)
    if match and match.group("title") and opens_with(opening, match.group("title"), ending=True):
        return True
    numbering = _numbering(entry.title)
    first = next((line for line in opening.lines if line.strip()), "")
    return bool(numbering) and heading_line(first) and words(first).startswith(words(numbering))


def _place(
    entries: list[Entry], openings: Sequence[Opening], labels: Sequence[str], contents: Sequence[int]
) -> list[tuple[Entry, int]]:
    """Each entry's confirmed page (0-based), in book order; unconfirmed entries left out (no entry
    starts on a contents page)."""
    count = len(openings)
    after = contents[-1] + 1
    listing = set(contents)

    def confirmed(entry: Entry, page: int) -> bool:
        return 0 <= page < count and page not in listing and _confirmed(entry, openings[page])

    by_label: dict[str, list[int]] = {}
    for page, label in enumerate(labels):
        by_label.setdefault(label.casefold(), []).append(page)

    def labelled(number: str) -> int | None:
        pages = by_label.get(number.casefold(), [])
        return next((p for p in pages if p >= after), pages[0] if pages else None)

    def near(entry: Entry, page: int) -> int | None:
        for step in range(SEARCH_PAGES + 1):
            for candidate in (page - step, page + step) if step else (page,):
                if confirmed(entry, candidate):
                    return candidate
        return None

    placed: dict[int, int] = {}
    for index, entry in enumerate(entries):
        at = labelled(entry.number) if entry.number else None
        if at is not None and confirmed(entry, at):
            placed[index] = at
    offset = _offset(entries, placed, confirmed)
    for index, entry in enumerate(entries):
        if index in placed or not entry.number:
            continue
        at = labelled(entry.number)
        value = number_value(entry.number)
        guesses = [at] if at is not None else []
        if value and not value[0] and offset is not None:
            guesses.append(value[1] - 1 + offset)
        for guess in guesses:
            found = near(entry, guess)
            if found is not None:
                placed[index] = found
                break
    for index, entry in enumerate(entries):  # a part listed without a number: just before its first chapter
        if not entry.number and index + 1 in placed:
            start = placed[index + 1]
            for page in range(start, max(after, start - SEARCH_PAGES) - 1, -1):
                if confirmed(entry, page):
                    placed[index] = page
                    break
    ordered: list[tuple[Entry, int]] = []
    for index in sorted(placed):
        page = placed[index]
        if ordered and page < ordered[-1][1]:
            continue  # a heading found before the previous chapter's: not this entry's
        ordered.append((entries[index], page))
    return ordered


def _offset(
    entries: list[Entry], placed: dict[int, int], confirmed: Callable[[Entry, int], bool]
) -> int | None:
    """Pages between a printed number and the page it names: from the entries already placed, else the
    offset at which most entries open their pages."""
    arabic = {
        i: value[1] for i, e in enumerate(entries) if (value := number_value(e.number)) and not value[0]
    }
    known = [placed[i] - (arabic[i] - 1) for i in placed if i in arabic]
    if known:
        return int(statistics.median(known))
    best, best_hits = None, 0
    sample = list(arabic.items())[:OFFSET_SAMPLE]
    for offset in range(-SEARCH_PAGES, MAX_OFFSET + 1):
        hits = sum(1 for i, value in sample if confirmed(entries[i], value - 1 + offset))
        if hits > best_hits:
            best, best_hits = offset, hits
            if hits == len(sample):
                break
    return best
