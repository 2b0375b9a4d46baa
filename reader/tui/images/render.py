"""Drawing a scaled picture as strips in the chosen protocol (run in a worker thread)."""

from __future__ import annotations

from typing import Any

from textual.strip import Strip

from reader.tui.images.cells import halfblock_strips


def draw_picture(protocol: str, image: Any, columns: int, rows: int, pad: int) -> list[Strip]:
    """`image` (RGB, columns x 2*rows pixels) as `rows` strips for `protocol`."""
    return halfblock_strips(image, columns, rows, pad)
