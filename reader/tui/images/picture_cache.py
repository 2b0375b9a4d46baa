"""Drawn pictures kept by size, bounded by the cells they hold; least recently shown go first."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from textual.strip import Strip

MAX_CACHED_CELLS = 160_000
"""About forty pictures of 80 x 50 cells: every page turned back to draws at once, memory stays bounded."""


class PictureCache:
    """Strips of drawn pictures by (figure key, columns, rows, protocol); shared by the UI and workers."""

    def __init__(self, max_cells: int = MAX_CACHED_CELLS) -> None:
        self.max_cells = max_cells
        self.cells = 0
        self._entries: OrderedDict[tuple[Any, ...], list[Strip]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> list[Strip] | None:
        with self._lock:
            strips = self._entries.get(key)
            if strips is not None:
                self._entries.move_to_end(key)
            return strips

    def put(self, key: tuple[Any, ...], strips: list[Strip]) -> None:
        size = sum(strip.cell_length for strip in strips)
        with self._lock:
            if key in self._entries:
                return
            self._entries[key] = strips
            self.cells += size
            while self.cells > self.max_cells and len(self._entries) > 1:
                _, dropped = self._entries.popitem(last=False)
                self.cells -= sum(strip.cell_length for strip in dropped)

    def __len__(self) -> int:
        return len(self._entries)
