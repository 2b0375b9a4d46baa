"""Half-block cells: a picture as lines of '▀' whose foreground is the upper pixel, background the lower."""

from __future__ import annotations

from typing import Any

from rich.color import Color
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

UPPER_HALF = "▀"


def halfblock_strips(image: Any, columns: int, rows: int, pad_left: int = 0) -> list[Strip]:
    """`image` (RGB, columns x 2*rows pixels) as `rows` strips of `columns` half-block cells, each
    indented by `pad_left` blank cells. Neighbouring cells of the same colours share one segment."""
    pixels = image.tobytes()
    stride = columns * 3
    styles: dict[bytes, Style] = {}
    pad = [Segment(" " * pad_left)] if pad_left else []
    strips: list[Strip] = []
    for row in range(rows):
        top = pixels[2 * row * stride : (2 * row + 1) * stride]
        bottom = pixels[(2 * row + 1) * stride : (2 * row + 2) * stride]
        segments = list(pad)
        run_key = b""
        run = 0
        for column in range(columns):
            at = column * 3
            key = top[at : at + 3] + bottom[at : at + 3]
            if key == run_key:
                run += 1
                continue
            if run:
                segments.append(Segment(UPPER_HALF * run, styles[run_key]))
            style = styles.get(key)
            if style is None:
                style = styles[key] = Style(
                    color=Color.from_rgb(key[0], key[1], key[2]),
                    bgcolor=Color.from_rgb(key[3], key[4], key[5]),
                )
            run_key, run = key, 1
        if run:
            segments.append(Segment(UPPER_HALF * run, styles[run_key]))
        strips.append(Strip(segments, pad_left + columns))
    return strips
