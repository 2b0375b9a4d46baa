"""Drawn pictures kept by size, bounded by what they hold; least recently shown go first."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from reader.tui.images.render import DrawnPicture

MAX_CACHED_CELLS = 40_000
"""Some 25 pictures of 40 x 40 cells: the pages just turned back to draw at once. A drawn picture in
half-block cells is kept as its pixels (CellPicture) and a Kitty or Sixel one as a few blank or
placeholder lines and its escape sequences, so keeping many costs the garbage collector little (when
drawn pictures were kept as strips of styled segments, this was 3,000 cells: about four pictures, since
every full collection walked their thousands of objects). Pictures further back are redrawn from
`ScaledPictures` off the UI thread (half-block cells: about 5 ms)."""
MAX_SCALED_BYTES = 24_000_000
"""Pixels of scaled pictures kept on the picture thread (a 56 x 56 half-block picture: 9 KB; a Kitty
picture of 50 x 16 cells: 480 KB)."""
SIXEL_CHARS_PER_CELL = 8
"""Sixel data counts against the bound as one cell per this many characters."""


def picture_cost(picture: DrawnPicture) -> int:
    """What a drawn picture counts against the bound: its cells, and its Sixel data."""
    return picture.cell_count() + sum(map(len, picture.sixels)) // SIXEL_CHARS_PER_CELL


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


class ScaledPictures:
    """Pictures decoded and scaled to their drawing size, by the same key as PictureCache, bounded by
    their bytes; used on the picture thread only. One PIL image each: nothing for the garbage collector
    to walk, so far more pictures are kept here than drawn ones, and redrawing one skips its decoding."""

    def __init__(self, max_bytes: int = MAX_SCALED_BYTES) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._entries: OrderedDict[tuple[Any, ...], Any] = OrderedDict()

    def get(self, key: tuple[Any, ...]) -> Any:
        image = self._entries.get(key)
        if image is not None:
            self._entries.move_to_end(key)
        return image

    def put(self, key: tuple[Any, ...], image: Any) -> None:
        if key in self._entries:
            return
        self._entries[key] = image
        self.bytes += _image_bytes(image)
        while self.bytes > self.max_bytes and len(self._entries) > 1:
            _, dropped = self._entries.popitem(last=False)
            self.bytes -= _image_bytes(dropped)

    def __len__(self) -> int:
        return len(self._entries)


def _image_bytes(image: Any) -> int:
    return int(image.width * image.height * len(image.getbands()))
