"""Fitting a line into a width: drop the least important parts first, elide names with …, never cut
a number."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from textual.content import Content

SEPARATOR = " · "


class Part(NamedTuple):
    """One piece of a line; a higher `rank` is dropped sooner (0 is never dropped)."""

    text: str
    rank: int = 0


def cells(text: str | Content) -> int:
    """The width of `text` in terminal cells."""
    return (text if isinstance(text, Content) else Content(text)).cell_length


def elide(content: Content | str, width: int) -> Content:
    """`content` cut to `width` cells with a trailing … when it is longer (empty for width < 1); a
    number is left out whole rather than cut ("Chapter 12: The Gale" -> "Chapter …", not "Chapter 1…")."""
    content = content if isinstance(content, Content) else Content(content)
    if width < 1:
        return Content("")
    if content.cell_length <= width:
        return content
    text = content.plain
    end = len(content.truncate(width, ellipsis=True).plain.rstrip("… "))  # characters kept before the …
    while end > 0 and content[:end].cell_length + 1 > width:  # a wide last character pads with a space
        end -= 1
    while 0 < end < len(text) and text[end].isdigit() and text[end - 1].isdigit():
        end -= 1
    return Content.assemble(content[:end], "…")


def drop_to_fit(parts: Sequence[Part], width: int, *, keep: int = 0, separator: str = SEPARATOR) -> str:
    """`parts` joined in their order, leaving out the highest ranks until the line fits `width`.

    Parts ranked `keep` or lower stay even when the line does not fit: they are never cut either.
    """
    kept = list(parts)
    while True:
        line = separator.join(part.text for part in kept)
        droppable = [part for part in kept if part.rank > keep]
        if cells(line) <= width or not droppable:
            return line
        kept.remove(max(droppable, key=lambda part: part.rank))


def first_that_fits(variants: Sequence[str], width: int) -> str:
    """The first of `variants` (longest first) that fits `width`; else the last one, whole."""
    for variant in variants:
        if cells(variant) <= width:
            return variant
    return variants[-1] if variants else ""
