"""Numbers as books write them: arabic, Roman numerals and number words ("twenty-one", "Third").

One reading of numbers for every place that needs one: chapter lookup, the spoiler shield, plain-text
headings and printed PDF page numbers.
"""

from __future__ import annotations

import re

_ROMAN = re.compile(r"^m{0,4}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen"
).split()
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_ORDINALS = (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
    "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
).split()
FOREIGN_ORDINALS = {
    # French and German ordinals that stand before a division word ("PREMIÈRE PARTIE", "Erster Teil")
    **dict.fromkeys(("premier", "première"), 1),
    **dict.fromkeys(("deuxième", "seconde"), 2),
    "troisième": 3,
    "quatrième": 4,
    "cinquième": 5,
    "sixième": 6,
    "septième": 7,
    "huitième": 8,
    "neuvième": 9,
    "dixième": 10,
    **dict.fromkeys(("erster", "erstes", "erste"), 1),
    **dict.fromkeys(("zweiter", "zweites", "zweite"), 2),
    **dict.fromkeys(("dritter", "drittes", "dritte"), 3),
    **dict.fromkeys(("vierter", "viertes", "vierte"), 4),
    **dict.fromkeys(("fünfter", "fünftes", "fünfte"), 5),
}
"""Ordinals of other languages, read like the English ones."""
NUMBER_WORDS: frozenset[str] = frozenset((*_UNITS, *_TENS, *_ORDINALS, *FOREIGN_ORDINALS))
"""Every single word `number_value` reads (a hyphenated "twenty-one" joins two of them)."""


def is_roman(text: str) -> bool:
    """Whether `text` is a well-formed Roman numeral, in either case."""
    low = text.lower()
    return bool(low) and bool(_ROMAN.match(low))


def roman_value(text: str) -> int | None:
    """The value of a Roman numeral in either case ("xiv" -> 14), None when `text` is not one."""
    if not is_roman(text):
        return None
    values = [_ROMAN_VALUES[ch] for ch in text.lower()]
    return sum(-v if v < nxt else v for v, nxt in zip(values, [*values[1:], 0], strict=True))


def word_value(text: str) -> int | None:
    """The number a word writes: "twelve", "third", "twenty-one", "première"; None for other words."""
    token = text.strip().lower()
    if token in _UNITS:
        return _UNITS.index(token)
    if token in _ORDINALS:
        return _ORDINALS.index(token) + 1
    if token in _TENS:
        return _TENS[token]
    if token in FOREIGN_ORDINALS:
        return FOREIGN_ORDINALS[token]
    tens, _, unit = token.partition("-")
    if tens in _TENS and unit in _UNITS[1:10]:
        return _TENS[tens] + _UNITS.index(unit)
    return None


def number_value(text: str) -> int | None:
    """The number `text` writes: "12", "xii", "XII", "twelve", "twenty-one", "third"; else None."""
    token = text.strip()
    if token.isdigit():
        return int(token)
    words = word_value(token)
    return words if words is not None else roman_value(token)
