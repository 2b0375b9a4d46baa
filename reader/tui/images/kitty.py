"""Kitty's graphics protocol with Unicode placeholders: the picture is sent to the terminal once, and the
page's lines hold placeholder cells the terminal draws it into, so it scrolls and clips like text."""

from __future__ import annotations

import base64
import io
import itertools
import random
from typing import Any

from rich.color import Color
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

PLACEHOLDER = "\U0010eeee"
ROW_DIACRITICS = tuple(
    chr(code)
    for code in (
        0x305, 0x30D, 0x30E, 0x310, 0x312, 0x33D, 0x33E, 0x33F, 0x346, 0x34A, 0x34B, 0x34C, 0x350, 0x351,
        0x352, 0x357, 0x35B, 0x363, 0x364, 0x365, 0x366, 0x367, 0x368, 0x369, 0x36A, 0x36B, 0x36C, 0x36D,
        0x36E, 0x36F, 0x483, 0x484, 0x485, 0x486, 0x487, 0x592, 0x593, 0x594, 0x595, 0x597, 0x598, 0x599,
        0x59C, 0x59D, 0x59E, 0x59F, 0x5A0, 0x5A1, 0x5A8, 0x5A9, 0x5AB, 0x5AC, 0x5AF, 0x5C4, 0x610, 0x611,
        0x612, 0x613, 0x614, 0x615, 0x616, 0x617, 0x657, 0x658, 0x659, 0x65A, 0x65B, 0x65D, 0x65E, 0x6D6,
        0x6D7, 0x6D8, 0x6D9, 0x6DA, 0x6DB, 0x6DC, 0x6DF, 0x6E0, 0x6E1, 0x6E2, 0x6E4, 0x6E7, 0x6E8, 0x6EB,
        0x6EC, 0x730, 0x732, 0x733, 0x735, 0x736, 0x73A, 0x73D, 0x73F, 0x740, 0x741, 0x743, 0x745, 0x747,
        0x749, 0x74A, 0x7EB, 0x7EC, 0x7ED, 0x7EE, 0x7EF, 0x7F0, 0x7F1, 0x7F3, 0x816, 0x817, 0x818, 0x819,
        0x81B, 0x81C, 0x81D, 0x81E, 0x81F, 0x820, 0x821, 0x822, 0x823, 0x825, 0x826, 0x827, 0x829, 0x82A,
        0x82B, 0x82C, 0x82D,
    )
)  # fmt: skip
"""The numbers 0, 1, 2, ... as the protocol's diacritics: combining characters of class 230 that neither
have nor take part in a canonical decomposition, in code point order (Unicode 6.0); the first 129."""
MAX_ROWS = len(ROW_DIACRITICS)
CHUNK = 4096

_ids = itertools.count(random.randrange(1, 1 << 20))


def next_image_id() -> int:
    """A fresh image id below 2**24 (it is drawn as the placeholders' 24-bit foreground colour)."""
    return next(_ids) % ((1 << 24) - 1) + 1


def transmission(png: bytes, image_id: int, columns: int, rows: int) -> str:
    """The escape sequences that send `png` and make a virtual placement of columns x rows cells."""
    data = base64.standard_b64encode(png).decode("ascii")
    chunks = [data[i : i + CHUNK] for i in range(0, len(data), CHUNK)] or [""]
    out = []
    for index, chunk in enumerate(chunks):
        more = int(index < len(chunks) - 1)
        if index == 0:
            control = f"a=T,U=1,f=100,q=2,i={image_id},c={columns},r={rows},m={more}"
        else:
            control = f"m={more}"
        out.append(f"\x1b_G{control};{chunk}\x1b\\")
    return "".join(out)


def deletion(image_id: int) -> str:
    """The escape sequence that frees an image's data in the terminal."""
    return f"\x1b_Ga=d,d=I,q=2,i={image_id}\x1b\\"


def placeholder_strips(image_id: int, columns: int, rows: int, pad_left: int = 0) -> list[Strip]:
    """`rows` lines of `columns` placeholder cells for the image; the first cell of each line names its
    row and column 0, the rest continue it (the protocol fills in their columns)."""
    colour = Color.from_rgb((image_id >> 16) & 255, (image_id >> 8) & 255, image_id & 255)
    style = Style(color=colour)
    pad = [Segment(" " * pad_left)] if pad_left else []
    strips = []
    for row in range(min(rows, MAX_ROWS)):
        cells = PLACEHOLDER + ROW_DIACRITICS[row] + ROW_DIACRITICS[0] + PLACEHOLDER * (columns - 1)
        strips.append(Strip([*pad, Segment(cells, style)], pad_left + columns))
    return strips


def kitty_picture(image: Any, columns: int, rows: int, pad_left: int) -> tuple[list[Strip], str, int]:
    """`image` (already scaled to the cells' pixels) as placeholder strips, its transmission and its id."""
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=1)
    image_id = next_image_id()
    return placeholder_strips(image_id, columns, rows, pad_left), transmission(buffer.getvalue(), image_id, columns, rows), image_id
