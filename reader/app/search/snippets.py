"""Short one-line excerpts of a passage around the query's words, with where those words are."""

from __future__ import annotations

import re
from typing import NamedTuple

from reader.app.search.search_terms import query_terms


class Snippet(NamedTuple):
    """An excerpt and the (start, end) spans of the query's words inside it."""

    text: str
    spans: tuple[tuple[int, int], ...]


def make_snippet(passage: str, query: str, width: int = 200) -> Snippet:
    """About `width` characters of `passage` on one line, starting a little before the first match."""
    flat = " ".join(passage.split())
    words = [t for t in query_terms(query) if len(t) > 2] or query_terms(query)
    pattern = (
        re.compile(r"(?<!\w)(" + "|".join(re.escape(w) for w in words) + r")\w*", re.IGNORECASE)
        if words
        else None
    )
    found = pattern.search(flat) if pattern else None
    start = max(0, found.start() - width // 3) if found else 0
    if start:
        space = flat.find(" ", start)
        start = space + 1 if 0 <= space < start + 20 else start
    piece = flat[start : start + width]
    if start + width < len(flat):
        piece = piece.rsplit(" ", 1)[0] + " …"
    if start:
        piece = "… " + piece
    spans = tuple(m.span() for m in pattern.finditer(piece)) if pattern else ()
    return Snippet(piece, spans)


def term_spans(text: str, query: str) -> list[tuple[int, int]]:
    """Where the query's words (and words starting with them: "keeper" finds "keepers") are in `text`."""
    words = [t for t in query_terms(query) if len(t) > 2] or query_terms(query)
    if not words:
        return []
    pattern = re.compile(r"(?<!\w)(" + "|".join(re.escape(w) for w in words) + r")\w*", re.IGNORECASE)
    return [match.span() for match in pattern.finditer(text)]
