"""The pictures of one page as the viewer lays them out: where each stands, its size, how to load it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reader.domain.images import PageImage, fit_cells

MAX_PICTURE_ROWS = 30
"""Rows a picture in the text may take at most (fewer when the pane is lower)."""
WHOLE_PAGE_ROWS = 400
"""Rows a whole PDF page shown with `p` may take (it scrolls)."""


@dataclass(frozen=True)
class Figure:
    """A picture on the page on screen.

    `key` names it in the picture cache; `offset` is the character of the page's text it stands before;
    `width` x `height` its pixels (0: unknown, it shows as its alt text unless it loads); `load(size)` (run
    off the UI thread) returns it as an RGB PIL image at least `size` pixels where it can, or raises
    PictureError.
    """

    key: tuple[Any, ...]
    offset: int
    alt: str
    width: int
    height: int
    load: Callable[[tuple[int, int]], Any]
    whole_page: bool = False

    def cells(self, columns: int, rows: int) -> tuple[int, int]:
        """The (columns, rows) it takes in a pane `columns` wide and `rows` high."""
        limit = WHOLE_PAGE_ROWS if self.whole_page else max(6, min(MAX_PICTURE_ROWS, rows - 2))
        if self.whole_page:
            return fit_cells(self.width, self.height, columns, limit, 2.0) if self.width else (columns, limit)
        width, height = self.width, self.height
        if width and height:
            return fit_cells(width, height, columns, limit)
        return 0, 0


def stored_figures(image_data: Callable[[int], bytes], book_id: str, images: list[PageImage]) -> list[Figure]:
    """Figures for the stored pictures of a page; `image_data(id)` reads a picture's bytes (in the worker)."""
    from reader.tui.images.decode import open_picture  # PIL loads with the first picture, not at start-up

    def loader(image_id: int) -> Callable[[tuple[int, int]], Any]:
        return lambda size: open_picture(image_data(image_id), size)

    return [
        Figure(("image", book_id, image.id), image.offset, image.caption, image.width, image.height, loader(image.id))
        for image in images
    ]
