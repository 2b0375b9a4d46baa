"""Anchoring a passage by page, quote and context, and finding it again after the pages changed."""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass

from reader.domain.annotations import Anchor

CONTEXT_CHARS = 40
"""Characters of text kept before and after a quote to tell its occurrences apart."""

FUZZY_SCORE = 90
"""How alike (0-100) a passage must be to a quote no longer found word for word to count as it."""

FUZZY_PAGES = 3
"""Pages either side of where a quote is expected that are searched for a changed (fuzzy) quote."""

MIN_FUZZY_QUOTE = 12
"""Shorter quotes are only found word for word (a fuzzy match of a few letters means nothing)."""

PAGE_SEPARATOR = "\n\n"


def make_anchor(page: int, text: str, start: int, end: int) -> Anchor:
    """The anchor of `text[start:end]` on `page` (whitespace around the passage left out)."""
    start, end = max(0, min(start, end)), min(len(text), max(start, end))
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return Anchor(
        page,
        start,
        end,
        text[start:end],
        text[max(0, start - CONTEXT_CHARS) : start],
        text[end : end + CONTEXT_CHARS],
    )


def quote_pattern(quote: str) -> re.Pattern[str] | None:
    """The quote's words in order, any whitespace between them (re-wrapped text still matches)."""
    words = quote.split()
    if not words:
        return None
    return re.compile(r"\s+".join(re.escape(word) for word in words))


def _common_suffix(a: str, b: str) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[-1 - n] == b[-1 - n]:
        n += 1
    return n


def _common_prefix(a: str, b: str) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    return n


@dataclass
class BookText:
    """The pages of a book joined into one string, to find quotes in the whole book at once."""

    pages: Sequence[str]

    def __post_init__(self) -> None:
        self.starts: list[int] = []
        offset = 0
        for text in self.pages:
            self.starts.append(offset)
            offset += len(text) + len(PAGE_SEPARATOR)
        self.text = PAGE_SEPARATOR.join(self.pages)

    def page_at(self, offset: int) -> int:
        """The 1-based page holding character `offset` of the joined text."""
        return max(1, bisect.bisect_right(self.starts, offset))

    def anchor_at(self, start: int, end: int, quote: str, expected: Anchor) -> Anchor:
        """The anchor of joined[start:end]: on the page it starts on, cut at that page's end."""
        page = self.page_at(start)
        page_start = self.starts[page - 1]
        page_text = self.pages[page - 1]
        local_start = start - page_start
        local_end = min(end - page_start, len(page_text))
        return Anchor(
            page,
            local_start,
            local_end,
            quote,
            page_text[max(0, local_start - CONTEXT_CHARS) : local_start] or expected.prefix,
            page_text[local_end : local_end + CONTEXT_CHARS] or expected.suffix,
        )


def expected_page(anchor: Anchor, old_page_count: int, new_page_count: int) -> int:
    """Where the passage should be now: the same share of the way through the book."""
    if old_page_count <= 0 or old_page_count == new_page_count:
        return max(1, min(anchor.page, max(1, new_page_count)))
    return max(1, min(new_page_count, round(anchor.page * new_page_count / old_page_count)))


def find_anchor(anchor: Anchor, book: BookText, near: int) -> Anchor | None:
    """`anchor` found again in `book` (None when it is gone): the occurrence whose context agrees most,
    nearest page `near` among equals; a slightly changed quote is looked for on pages near `near`."""
    if not book.pages:
        return None
    exact = _exact(anchor, book, near)
    if exact is not None:
        return exact
    return _fuzzy(anchor, book, near)


def _exact(anchor: Anchor, book: BookText, near: int) -> Anchor | None:
    pattern = quote_pattern(anchor.quote)
    if pattern is None:
        return None
    best: tuple[tuple[int, int], int, int] | None = None
    text = book.text
    for match in pattern.finditer(text):
        start, end = match.span()
        context = _common_suffix(anchor.prefix, text[max(0, start - CONTEXT_CHARS) : start]) + _common_prefix(
            anchor.suffix, text[end : end + CONTEXT_CHARS]
        )
        score = (context, -abs(book.page_at(start) - near))
        if best is None or score > best[0]:
            best = (score, start, end)
    if best is None:
        return None
    _, start, end = best
    return book.anchor_at(start, end, anchor.quote, anchor)


def _fuzzy(anchor: Anchor, book: BookText, near: int) -> Anchor | None:
    quote = " ".join(anchor.quote.split())
    if len(quote) < MIN_FUZZY_QUOTE:
        return None
    from rapidfuzz import fuzz

    first = max(1, near - FUZZY_PAGES)
    last = min(len(book.pages), near + FUZZY_PAGES)
    best = None
    for page in range(first, last + 1):
        text = book.pages[page - 1]
        found = fuzz.partial_ratio_alignment(quote, text, score_cutoff=FUZZY_SCORE)
        if found is not None and (best is None or found.score > best[0]):
            best = (found.score, page, found.dest_start, found.dest_end)
    if best is None:
        return None
    _, page, start, end = best
    offset = book.starts[page - 1]
    text = book.pages[page - 1]
    return book.anchor_at(offset + start, offset + end, text[start:end], anchor)
