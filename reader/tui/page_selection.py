"""A selection on a page's text (visual mode): wrapped lines as character offsets, moved by lines and words."""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from typing import NamedTuple

_WORD = re.compile(r"\S+")


class PageLines(NamedTuple):
    """Where each wrapped line of a page starts and ends in the page's text."""

    text: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    @classmethod
    def from_lines(cls, text: str, lines: Sequence[str]) -> PageLines:
        """Offsets of `lines` (the page as wrapped on screen, in order) inside `text`."""
        starts, ends, position = [], [], 0
        for line in lines:
            shown = line.rstrip()
            found = text.find(shown, position) if shown else -1
            start = found if found >= 0 else position
            starts.append(start)
            ends.append(start + len(shown) if found >= 0 else start)
            position = ends[-1]
        return cls(text, tuple(starts), tuple(ends))

    def line_of(self, offset: int) -> int:
        """The wrapped line holding character `offset`."""
        return max(0, bisect.bisect_right(self.starts, offset) - 1)

    def offset_at(self, line: int, column: int) -> int:
        """The character at `column` of wrapped `line` (clamped to the line)."""
        if not self.starts:
            return 0
        line = max(0, min(line, len(self.starts) - 1))
        return self.starts[line] + max(0, min(column, self.ends[line] - self.starts[line]))

    def text_lines(self, first: int) -> list[int]:
        """Lines from `first` on that hold text (not the blank lines between paragraphs)."""
        return [n for n in range(first, len(self.starts)) if self.ends[n] > self.starts[n]]


class Selection(NamedTuple):
    """From `anchor` (fixed) to `cursor` (moved), as character offsets in the page's text."""

    anchor: int
    cursor: int

    @property
    def start(self) -> int:
        return min(self.anchor, self.cursor)

    @property
    def end(self) -> int:
        return max(self.anchor, self.cursor)

    def swapped(self) -> Selection:
        """The other end moves from now on."""
        return Selection(self.cursor, self.anchor)


def first_line_selection(lines: PageLines, top: int) -> Selection | None:
    """The first line of text at or below wrapped line `top` selected (None on a page without text)."""
    text_lines = lines.text_lines(top) or lines.text_lines(0)
    if not text_lines:
        return None
    first = text_lines[0]
    return Selection(lines.starts[first], lines.ends[first])


def line_selection(lines: PageLines, line: int) -> Selection | None:
    """Wrapped `line` selected whole, or the next line of text after it (None on a page without text)."""
    return first_line_selection(lines, max(0, line))


def move_line(selection: Selection, lines: PageLines, step: int) -> Selection:
    """The line of text `step` lines below (above, when negative) the selection's start, selected whole:
    the starting line moved before the selection grows."""
    here = lines.line_of(selection.start)
    text_lines = lines.text_lines(0)
    later = [n for n in text_lines if n > here] if step > 0 else [n for n in text_lines if n < here][::-1]
    if not later:
        return selection
    line = later[min(abs(step), len(later)) - 1]
    return Selection(lines.starts[line], lines.ends[line])


def _words(text: str) -> list[tuple[int, int]]:
    return [match.span() for match in _WORD.finditer(text)]


def word_forward(selection: Selection, text: str) -> Selection:
    """Move the cursor to the next word end (or, left of the anchor, the next word start)."""
    anchor, cursor = selection.anchor, selection.cursor
    candidates = [end for _, end in _words(text) if end > cursor and end > anchor]
    candidates += [start for start, _ in _words(text) if cursor < start <= anchor]
    return selection._replace(cursor=min(candidates)) if candidates else selection


def word_back(selection: Selection, text: str) -> Selection:
    """Move the cursor to the previous word end (or, at or left of the anchor, the previous word start)."""
    anchor, cursor = selection.anchor, selection.cursor
    candidates = [end for _, end in _words(text) if anchor < end < cursor]
    candidates += [start for start, _ in _words(text) if start < cursor and start <= anchor]
    return selection._replace(cursor=max(candidates)) if candidates else selection


def line_down(selection: Selection, lines: PageLines) -> Selection:
    """Move the cursor to the end of the next line of text (its start while left of the anchor)."""
    following = [n for n in lines.text_lines(lines.line_of(selection.cursor) + 1)]
    if not following:
        return selection
    line = following[0]
    end = lines.ends[line]
    return selection._replace(cursor=end if end > selection.anchor else lines.starts[line])


def line_up(selection: Selection, lines: PageLines) -> Selection:
    """Move the cursor to the start of the previous line of text (its end while right of the anchor)."""
    here = lines.line_of(selection.cursor)
    if selection.cursor == lines.starts[here] and selection.cursor > selection.anchor:
        here -= 1  # a cursor at a line start belongs, as a selection end, to the line before
    earlier = [n for n in range(here - 1, -1, -1) if lines.ends[n] > lines.starts[n]]
    if not earlier:
        return selection
    line = earlier[0]
    start = lines.starts[line]
    return selection._replace(cursor=start if start < selection.anchor else lines.ends[line])
