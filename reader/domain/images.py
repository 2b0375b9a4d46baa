"""Pictures in a book: the images an extractor finds on its pages (and its cover), as stored and shown."""

from __future__ import annotations

from dataclasses import dataclass

MAX_IMAGE_BYTES = 8 * 1024 * 1024
"""Largest single image kept at import; a bigger one is shown as its alt text."""
MAX_BOOK_IMAGE_BYTES = 96 * 1024 * 1024
"""Most image bytes kept per book; images past it are shown as their alt text."""
COVER_PAGE = 0
"""The page number of a cover that stands on no page of the text."""


@dataclass(frozen=True)
class BookImage:
    """An image an extractor read from a book file: where it stands and its bytes.

    `page` is 1-based (COVER_PAGE for a cover outside the text); `offset` is the character of the
    page's text it stands before (len(text) after the last paragraph). Width and height are the
    pixels the file declares (0 when its header could not be read: it will show as its alt text).
    """

    page: int
    offset: int
    data: bytes
    media_type: str
    alt: str = ""
    width: int = 0
    height: int = 0
    cover: bool = False
    whole_page: bool = False
    """The picture is the page itself (a comic's page, a fixed-layout EPUB's page of images)."""


@dataclass(frozen=True)
class PageImage:
    """A stored image on a page (or the cover), without its bytes: what the page viewer lays out."""

    id: int
    page: int
    offset: int
    media_type: str
    alt: str
    width: int
    height: int
    cover: bool = False

    @property
    def has_size(self) -> bool:
        return self.width > 0 and self.height > 0

    @property
    def caption(self) -> str:
        """What stands under the picture (and in its place when it cannot be drawn)."""
        return self.alt or "Illustration"


def fit_cells(width: int, height: int, max_columns: int, max_rows: int, cell_aspect: float = 2.0) -> tuple[int, int]:
    """Terminal cells (columns, rows) that show a `width` x `height` picture as large as fits, keeping
    its shape; a cell is `cell_aspect` times as tall as wide. Small pictures are not blown up past
    one cell per 8 pixels across."""
    if width <= 0 or height <= 0 or max_columns <= 0 or max_rows <= 0:
        return 0, 0
    columns = min(max_columns, max(1, -(-width // 8)))
    rows = round(columns * height / width / cell_aspect)
    if rows > max_rows:
        rows = max_rows
        columns = max(1, round(rows * cell_aspect * width / height))
    return max(1, min(columns, max_columns)), max(1, rows)
