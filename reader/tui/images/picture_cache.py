"""Drawn pictures kept by size, bounded by what they hold; least recently shown go first."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from reader.tui.images.render import DrawnPicture

MAX_CACHED_CELLS = 40_000
"""About fifty pictures of 50 x 16 cells: pages turned back to draw at once, memory stays bounded (a
half-block cell of a detailed picture costs a few hundred bytes of strips, and every one is an object
the garbage collector walks)."""
SIXEL_CHARS_PER_CELL = 8
"""Sixel data counts against the bound as one cell per this many characters."""


def picture_cost(picture: DrawnPicture) -> int:
    """What a drawn picture counts against the bound: its cells, and its Sixel data."""
    return sum(strip.cell_length for strip in picture.strips) + sum(map(len, picture.sixels)) // SIXEL_CHARS_PER_CELL


class PictureCache:
    """Drawn pictures by (figure key, columns, rows, protocol). Used on the UI thread only: a dropped
    picture's `release` (freeing it in the terminal) runs where it is dropped."""

    def __init__(self, max_cells: int = MAX_CACHED_CELLS) -> None:
        self.max_cells = max_cells
        self.cells = 0
        self._entries: OrderedDict[tuple[Any, ...], tuple[DrawnPicture, Callable[[], None] | None]] = OrderedDict()

    def get(self, key: tuple[Any, ...]) -> DrawnPicture | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        self._entries.move_to_end(key)
        return entry[0]

    def put(self, key: tuple[Any, ...], picture: DrawnPicture, release: Callable[[], None] | None = None) -> None:
        if key in self._entries:
            return
        self._entries[key] = (picture, release)
        self.cells += picture_cost(picture)
        while self.cells > self.max_cells and len(self._entries) > 1:
            _, (dropped, dropped_release) = self._entries.popitem(last=False)
            self.cells -= picture_cost(dropped)
            if dropped_release is not None:
                dropped_release()

    def clear(self) -> None:
        """Drop every picture (releasing each)."""
        while self._entries:
            _, (_, release) = self._entries.popitem(last=False)
            if release is not None:
                release()
        self.cells = 0

    def __len__(self) -> int:
        return len(self._entries)
