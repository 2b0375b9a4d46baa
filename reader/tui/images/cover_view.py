"""The highlighted book's cover beside its details, under the library's list when the pane has room."""

from __future__ import annotations

from typing import Any

from rich.segment import Segment
from rich.style import Style
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from reader.domain.images import fit_cells
from reader.domain.models import Book
from reader.tui.images.picture_cache import PictureCache
from reader.tui.images.picture_thread import submit
from reader.tui.images.protocol import OFF
from reader.tui.images.render import DrawnPicture

COVER_ROWS = 8
"""Rows the cover takes (its width follows from its shape)."""
MIN_PANE_ROWS = 24
"""The library pane shows covers only when it is at least this high (the list keeps its room)."""

COVERS = PictureCache(max_cells=20_000)


class CoverView(Widget, can_focus=False):
    """Draws a book's cover in half-block cells with its title, author and length beside it."""

    DEFAULT_CSS = """
    CoverView {
        height: 9;
        padding: 1 0 0 1;
        background: $surface;
        display: none;
    }
    """

    class CoverDrawn(Message):
        """A worker drew the cover of `book_id` (None strips: it has none that can be drawn)."""

        def __init__(self, book_id: str, strips: list[Strip] | None) -> None:
            super().__init__()
            self.book_id = book_id
            self.strips = strips

    def __init__(self, services: Any, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.services = services
        self.book: Book | None = None
        self._cover_strips: list[Strip] = []

    def show_book(self, book: Book | None) -> None:
        """Show `book`'s cover (hidden when it has none, images are off or the pane is too low)."""
        self.book = book
        protocol = getattr(self.app, "picture_protocol", "cells")
        parent = self.parent
        room = isinstance(parent, Widget) and parent.size.height >= MIN_PANE_ROWS
        if book is None or protocol == OFF or not room:
            self._hide()
            return
        cached = COVERS.get((book.id,))
        if cached is not None:
            self._show(cached.strips)
            return
        submit(lambda: self._draw(book.id))

    def _draw(self, book_id: str) -> None:
        if self.book is None or self.book.id != book_id:
            return  # another book is highlighted by now
        from reader.tui.images.cells import halfblock_strips
        from reader.tui.images.decode import PictureError, open_picture, scaled

        images = self.services.images
        cover = images.cover(book_id)
        strips: list[Strip] | None = None
        if cover is not None and cover.has_size:
            columns, rows = fit_cells(cover.width, cover.height, 12, COVER_ROWS)
            try:
                picture = scaled(open_picture(images.data(cover.id), (columns, rows * 2)), columns, rows * 2)
                strips = halfblock_strips(picture, columns, rows)
            except PictureError:
                strips = None
        self.post_message(self.CoverDrawn(book_id, strips))

    def on_cover_view_cover_drawn(self, event: CoverDrawn) -> None:
        event.stop()
        if self.book is None or event.book_id != self.book.id:
            return
        if event.strips is None:
            self._hide()
            return
        COVERS.put((event.book_id,), DrawnPicture(event.strips))
        self._show(event.strips)

    def _hide(self) -> None:
        if self.display:  # setting it lays the screen out again, even to the value it has
            self.display = False

    def _show(self, strips: list[Strip]) -> None:
        self._cover_strips = strips
        self.display = True
        self.refresh()

    def render_line(self, y: int) -> Strip:
        width = self.content_region.width or self.size.width
        style = self.rich_style
        blank = Strip.blank(self._cover_strips[0].cell_length if self._cover_strips else 0)
        cover = self._cover_strips[y] if y < len(self._cover_strips) else blank
        left = cover.cell_length + 1
        details = self._details()
        text = details[y] if y < len(details) else ""
        room = max(0, width - left)
        line = Strip([*cover, Segment(" "), Segment(text[:room].ljust(room), style + Style(bold=y == 0))])
        return line.crop_extend(0, width, style)

    def _details(self) -> list[str]:
        book = self.book
        if book is None:
            return []
        room = max(8, (self.content_region.width or 26) - 14)
        words = book.title.split()
        lines: list[str] = []
        for word in words:
            if lines and len(lines[-1]) + 1 + len(word) <= room:
                lines[-1] += " " + word
            else:
                lines.append(word)
        lines = lines[:3]
        if book.author:
            lines.append(book.author)
        lines.append(f"{book.page_count} pages")
        lines.append(book.format.upper())
        return lines
