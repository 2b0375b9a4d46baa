"""Font sizes of a PDF page's text, read in the same pass as the text: how much text each size sets,
and the sizes of the first pieces of text (where running heads and a chapter's heading stand)."""

from __future__ import annotations

from collections.abc import Sequence
from math import hypot
from typing import Any, NamedTuple

TOP_PIECES = 12
"""Pieces of text kept in order from the top of a page."""
SIZE_STEP = 0.5
"""Sizes are rounded to this many points."""
LARGER = 1.2
"""A heading is set at least this much larger than the book's body text."""
MAX_HEADING_CHARS = 120


class PageFonts(NamedTuple):
    """A page's first pieces of text with their sizes, and the characters set in each size."""

    top: list[tuple[float, str]]
    chars: dict[float, int]

    def to_json(self) -> list[Any]:
        return [self.top, list(self.chars.items())]

    @classmethod
    def from_json(cls, value: Any) -> PageFonts | None:
        try:
            top, chars = value
            return cls([(float(s), str(t)) for s, t in top], {float(s): int(n) for s, n in chars})
        except (TypeError, ValueError):
            return None


class FontMeter:
    """A pypdf `visitor_text` noting the size each piece of text is set in."""

    def __init__(self) -> None:
        self.top: list[tuple[float, str]] = []
        self.chars: dict[float, int] = {}

    def visit(self, text: str, cm: Any, tm: Any, font: Any, size: float) -> None:
        if not text or text.isspace():
            return
        try:
            scale = hypot(tm[2], tm[3]) * hypot(cm[2], cm[3])
            points = round(float(size) * scale / SIZE_STEP) * SIZE_STEP
        except (TypeError, ValueError, IndexError):
            return
        self.chars[points] = self.chars.get(points, 0) + len(text)
        if len(self.top) < TOP_PIECES:
            self.top.append((points, text))

    def result(self) -> PageFonts:
        return PageFonts(self.top, self.chars)


def body_size(pages: Sequence[PageFonts | None]) -> float | None:
    """The size most of the book's text is set in."""
    total: dict[float, int] = {}
    for fonts in pages:
        for size, chars in (fonts.chars if fonts else {}).items():
            total[size] = total.get(size, 0) + chars
    return max(total, key=lambda size: total[size]) if total else None


def large_heading(fonts: PageFonts | None, body: float) -> str:
    """The text set larger than the body at the top of a page (after any smaller running head), or ''."""
    if fonts is None:
        return ""
    pieces: list[str] = []
    for size, text in fonts.top:
        if size >= body * LARGER:
            pieces.append(text)
        elif pieces or size >= body:
            break
    heading = " ".join(" ".join(pieces).split())
    return heading if len(heading) <= MAX_HEADING_CHARS else ""
