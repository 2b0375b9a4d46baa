"""Drawing a picture for the chosen protocol, off the UI thread: strips for the page's lines and, for
Kitty's protocol, the escape sequences that send it to the terminal; for Sixel, each line's part."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.segment import Segment
from textual.strip import Strip

from reader.tui.images.protocol import KITTY, SIXEL

if TYPE_CHECKING:
    from reader.tui.images.cells import CellPicture


@dataclass(frozen=True)
class DrawnPicture:
    """A picture ready for the page: its lines, what to send the terminal first ("" for cells), what
    to send when it is dropped, and for Sixel the image that draws each line (its strips are blank).
    In half-block cells its lines are made from `cells` when a page shows it (see CellPicture)."""

    strips: list[Strip]
    transmit: str = ""
    release: str = ""
    sixels: tuple[str, ...] = ()
    cells: CellPicture | None = None

    def lines(self) -> list[Strip]:
        """The picture's lines on the page (made now, for half-block cells)."""
        return self.cells.strips() if self.cells is not None else self.strips

    def cell_count(self) -> int:
        """How many cells it covers."""
        if self.cells is not None:
            return self.cells.cells
        return sum(strip.cell_length for strip in self.strips)


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
    from reader.tui.images.cells import CellPicture

    return DrawnPicture([], cells=CellPicture.of(image, columns, rows, pad))
