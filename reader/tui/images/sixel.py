"""Sixel graphics: a picture encoded one cell row at a time, so each line of the page draws its own
part of it (scrolled or clipped, a line never needs another line's part)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from rich.control import Control

COLOURS = 64
"""Colours a picture is reduced to: enough for an illustration, and the encoding time grows with them."""
_REPEAT = re.compile(rb"(.)\1{3,}")
_TO_SIXEL = bytes(min(value + 63, 126) for value in range(256))
"""A column's six bits as its sixel character."""


@lru_cache(maxsize=COLOURS + 1)
def _bit_tables(colour: int) -> tuple[bytes, ...]:
    """For each of a band's six rows, a table mapping `colour` to that row's bit and others to 0."""
    return tuple(bytes((1 << row) if index == colour else 0 for index in range(256)) for row in range(6))


def _repeat(match: re.Match[bytes]) -> bytes:
    run = match.group(0)
    return b"!%d" % len(run) + run[:1]


def palette_image(image: Any) -> tuple[bytes, int, int, list[int]]:
    """The picture reduced to at most COLOURS colours: (indices row by row, width, height, RGB palette)."""
    from PIL import Image

    reduced = image.quantize(colors=COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    return reduced.tobytes(), reduced.width, reduced.height, (reduced.getpalette() or [])[: 3 * COLOURS]


def encode_rows(indices: bytes, width: int, height: int, palette: list[int], top: int, bottom: int) -> str:
    """Pixel rows top..bottom of the picture as one sixel image (pixels outside it left untouched)."""
    used = sorted(set(indices[top * width : bottom * width]))
    out = [b"\x1bP0;1;0q", b'"1;1;%d;%d' % (width, bottom - top)]
    for colour in used:
        r, g, b = palette[3 * colour : 3 * colour + 3] or (0, 0, 0)
        out.append(b"#%d;2;%d;%d;%d" % (colour, r * 100 // 255, g * 100 // 255, b * 100 // 255))
    for band in range(top, bottom, 6):
        rows = [indices[y * width : (y + 1) * width] for y in range(band, min(band + 6, bottom))]
        present = sorted(set(b"".join(rows)))
        for colour in present:
            tables = _bit_tables(colour)
            bits = 0
            for row, data in enumerate(rows):
                bits |= int.from_bytes(data.translate(tables[row]), "big")
            if not bits:
                continue
            line = bits.to_bytes(width, "big").translate(_TO_SIXEL).rstrip(b"?")  # "?": nothing drawn
            out.append(b"#%d" % colour + _REPEAT.sub(_repeat, line) + b"$")
        out.append(b"-")
    out.append(b"\x1b\\")
    return b"".join(out).decode("ascii")


def sixel_rows(image: Any, rows: int, cell_height: int) -> list[str]:
    """The picture (rows x cell_height pixels tall) as one sixel image per cell row."""
    indices, width, height, palette = palette_image(image)
    return [
        encode_rows(indices, width, height, palette, row * cell_height, min(height, (row + 1) * cell_height))
        for row in range(rows)
    ]


SAVE_CURSOR = "\x1b7"
RESTORE_CURSOR = "\x1b8"


def placed(sixel: str, x: int, y: int) -> str:
    """`sixel` drawn with its top left at cell (x, y) of the screen (0-based)."""
    return Control.move_to(x, y).segment.text + sixel
