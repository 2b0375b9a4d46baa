"""A book's row in the library list, drawn straight from its styled pieces: lines are never wrapped, and one
too long for the list is cut with an ellipsis, as Textual's Content draws them in a list that does not wrap
(`text-wrap: nowrap; text-overflow: ellipsis`).

The list draws a screenful of rows as the library fills, on the app's start-up path. Through Content, each
line was laid out for wrapping and alignment and each piece of it given the text-selection offsets that a
list (which allows no selection) never uses: 10-13 ms for the first screenful of rows at 100x30."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.css.types import TextOverflow
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual

ELLIPSIS = "…"

_CONTROL_CODES = dict.fromkeys((7, 8, 11, 12, 13))
"""The control codes Textual's Content leaves out of its text (bell, backspace, tabs and feeds)."""

Piece = tuple[str, str]
"""Text and the style it is drawn in ("" for the row's own), e.g. ("42%", "$text-muted")."""


class BookRows(Visual):
    """Lines of styled pieces, each drawn on one row of the list."""

    def __init__(self, lines: Sequence[Sequence[Piece]]) -> None:
        self.lines = [
            _expand_tabs([(text.translate(_CONTROL_CODES), style) for text, style in line if text])
            for line in lines
        ]
        self.plain = "\n".join("".join(text for text, _ in line) for line in self.lines)

    def __str__(self) -> str:
        return self.plain

    def get_optimal_width(self, rules: object, container_width: int) -> int:
        return max((cell_len(text) for text in self.plain.split("\n")), default=0)

    def get_height(self, rules: object, width: int) -> int:
        return len(self.lines)

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        if width <= 0:
            return []
        overflow: TextOverflow = options.rules.get("text_overflow", "fold")
        parsed: dict[str, Style] = {}

        def drawn_in(piece_style: str) -> RichStyle:
            if (found := parsed.get(piece_style)) is None:
                # Content's: the row's style under the piece's, under the row's style again
                found = parsed[piece_style] = style + (style + options.get_style(piece_style) if piece_style else style)
            return found.rich_style

        strips = []
        for line in self.lines[:height] if height is not None else self.lines:
            pieces = _cut(line, width, ellipsis=overflow == "ellipsis")
            segments = [Segment(text, drawn_in(piece_style)) for text, piece_style in pieces]
            strips.append(Strip(segments, sum(cell_len(text) for text, _ in pieces)))
        return strips


def _expand_tabs(line: list[Piece], tab_size: int = 8) -> list[Piece]:
    """`line` with each tab a space and as many more as reach the next tab stop, in its piece's style (as
    Content expands them)."""
    if not any("\t" in text for text, _ in line):
        return line
    expanded: list[Piece] = []
    column = 0
    for text, style in line:
        parts = text.split("\t")
        out = []
        for number, part in enumerate(parts):
            out.append(part)
            column += cell_len(part)
            if number < len(parts) - 1:
                spaces = 1 + (-(column + 1)) % tab_size
                out.append(" " * spaces)
                column += spaces
        expanded.append(("".join(out), style))
    return expanded


def _cut(line: list[Piece], width: int, *, ellipsis: bool) -> list[Piece]:
    """`line` within `width` cells: cut (and ended with an ellipsis) where it is longer. Each character left
    keeps the style of the character at its place in the whole line, as Content's truncation keeps its
    spans by position: the ellipsis takes the style of the character it stands in for."""
    plain = "".join(text for text, _ in line)
    if cell_len(plain) <= width:
        return line
    cut = set_cell_size(plain, width - 1) + ELLIPSIS if ellipsis and width else set_cell_size(plain, width)
    pieces: list[Piece] = []
    start = 0
    for text, piece_style in line:
        end = min(start + len(text), len(cut))
        if end > start:
            pieces.append((cut[start:end], piece_style))
        start += len(text)
    if start < len(cut):  # padded past the text (a wide character split at the edge): the row's own style
        pieces.append((cut[start:], ""))
    return pieces
