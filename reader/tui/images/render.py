"""Drawing a picture for the chosen protocol, off the UI thread: strips for the page's lines and, for
Kitty's protocol, the escape sequences that send it to the terminal; for Sixel, each line's part."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.segment import Segment
from textual.strip import Strip

from reader.tui.images.protocol import KITTY, SIXEL


@dataclass(frozen=True)
class DrawnPicture:
    """A picture ready for the page: its lines, what to send the terminal first ("" for cells), what
    to send when it is dropped, and for Sixel the image that draws each line (its strips are blank)."""

    strips: list[Strip]
    transmit: str = ""
    release: str = ""
    sixels: tuple[str, ...] = ()


def pixel_size(protocol: str, columns: int, rows: int, cell: tuple[int, int]) -> tuple[int, int]:
    """The pixels a picture of columns x rows cells is drawn at: 1 x 2 a cell for half-blocks, the
    terminal's cell size for graphics protocols."""
    if protocol in (KITTY, SIXEL):
        return columns * cell[0], rows * cell[1]
    return columns, rows * 2


def draw_picture(
    protocol: str, image: Any, columns: int, rows: int, pad: int, cell: tuple[int, int] = (10, 20)
) -> DrawnPicture:
    """`image` (already scaled to `pixel_size`) as the lines of `rows` x `columns` cells, indented by `pad`."""
    if protocol == KITTY:
        from reader.tui.images.kitty import deletion, kitty_picture

        strips, transmit, image_id = kitty_picture(image, columns, rows, pad)
        return DrawnPicture(strips, transmit, deletion(image_id))
    if protocol == SIXEL:
        from reader.tui.images.sixel import sixel_rows

        blanks = [Strip([Segment(" " * (pad + columns))], pad + columns) for _ in range(rows)]
        return DrawnPicture(blanks, sixels=tuple(sixel_rows(image, rows, cell[1])))
    from reader.tui.images.cells import halfblock_strips

    return DrawnPicture(halfblock_strips(image, columns, rows, pad))
