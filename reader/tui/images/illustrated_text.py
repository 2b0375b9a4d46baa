"""The page's text with its pictures drawn where they stand: text paints at once, pictures as they are ready."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip

from reader.startup import release_picture_styles
from reader.tui.images.figures import Figure
from reader.tui.images.picture_cache import PictureCache, ScaledPictures
from reader.tui.images.picture_thread import submit
from reader.tui.images.protocol import CELLS, DEFAULT_CELL_PIXELS, OFF
from reader.tui.images.render import DrawnPicture
from reader.tui.page_selection import PageLines
from reader.tui.widgets.page_text import PageText

CAPTION_MARK = "▣ "
"""Starts a caption line (and no line of a book's text, so selections never match it)."""

SHARED_CACHE = PictureCache()
SCALED = ScaledPictures()
"""Scaled pictures, kept on the picture thread (see picture_thread)."""


class IllustratedPageText(PageText):
    """PageText whose wrapped lines have pictures spliced in before the line where each stands."""

    class PictureDrawn(Message):
        """A worker drew (or failed to draw) one picture of page `token`."""

        def __init__(
            self, token: int, key: tuple[Any, ...], cache_key: tuple[Any, ...], drawn: DrawnPicture | None, error: str
        ) -> None:
            super().__init__()
            self.token = token
            self.key = key
            self.cache_key = cache_key
            self.drawn = drawn
            self.error = error

    def __init__(self, *, id: str | None = None, cache: PictureCache | None = None) -> None:
        super().__init__(id=id)
        self.protocol = CELLS
        self.cell_pixels = DEFAULT_CELL_PIXELS
        """A terminal cell's size in pixels (what Kitty's protocol draws a picture at)."""
        self.cache = cache if cache is not None else SHARED_CACHE
        self.figures: list[Figure] = []
        self.failed: dict[tuple[Any, ...], str] = {}
        """Pictures that could not be drawn, with why (their alt text stands in their place)."""
        self.noticed: set[tuple[Any, ...]] = set()
        self.token = 0
        """Counts pages shown: a picture drawn for an earlier page is dropped."""
        self.pictures_drawn = 0
        """Pictures drawn on this widget so far (not those that failed: see `failed`)."""
        self.last_draw_seconds = 0.0
        """How long the last picture drawn took after its page's text was on screen (for the benchmark)."""
        self._base: list[Strip] = []
        self._deferring = False
        self._caption: tuple[str, Style] = ("", Style())
        self._sixel_marks: dict[int, tuple[str, int]] = {}
        self._sixel_rows: dict[int, tuple[str, int]] = {}
        """Line index -> (its part of a Sixel picture, the picture's indent) for the page on screen."""
        self._shown_at = 0.0
        self._settled_posted = False
        self._shown_lines: dict[tuple[Any, ...], list[Strip]] = {}
        """The lines of the pictures on the page shown, made once for it (the cache keeps them compact)."""

    # --- what the page shows -----------------------------------------------------------------------

    def illustrate(self, figures: list[Figure], find: Callable[[], list[Figure]] | None = None) -> None:
        """The pictures of the page about to be shown (call before `show`); they draw after it paints.
        `find`, run off the UI thread, finds more (a PDF page's figures): their places open when found."""
        self.token += 1
        if self._shown_lines and self.protocol == CELLS:
            release_picture_styles()  # the page left had pictures drawn in cells (see reader.startup)
        self._shown_lines = {}
        self.figures = self._drawable(figures)
        self._shown_at = time.perf_counter()
        if self.figures:
            self.call_after_refresh(self._draw, self.token)
        if find is not None and self.protocol != OFF:
            token = self.token
            submit(lambda: self._find_in_thread(token, find))

    def _drawable(self, figures: list[Figure]) -> list[Figure]:
        """With images "off" only a whole page asked for with `p` is drawn (pictures show as alt text)."""
        if self.protocol == OFF:
            return [f for f in figures if f.whole_page] or [
                Figure(f.key, f.offset, f.alt, 0, 0, f.load) for f in figures
            ]
        return figures

    class PicturesSettled(Message):
        """Every picture of the first page with pictures is drawn or known not to draw (posted once)."""

    class FiguresFound(Message):
        """A worker found the figures of page `token`."""

        def __init__(self, token: int, figures: list[Figure]) -> None:
            super().__init__()
            self.token = token
            self.figures = figures

    def _find_in_thread(self, token: int, find: Callable[[], list[Figure]]) -> None:
        if token != self.token:
            return  # the reader has turned on
        try:
            figures = find()
        except Exception:  # noqa: BLE001 - no figures found is no figures shown; the text is all there
            return
        if figures:
            self.post_message(self.FiguresFound(token, figures))

    def on_illustrated_page_text_figures_found(self, event: FiguresFound) -> None:
        event.stop()
        if event.token != self.token:
            return
        self.figures = self.figures + self._drawable(event.figures)
        if self._wrapped_width > 0:
            self._splice()
            self.refresh()
        self._draw(self.token)

    def _wrap(self) -> None:
        self._deferring = bool(self.figures)  # the size is set once, with the pictures in
        try:
            super()._wrap()
        finally:
            self._deferring = False
        self._base = self._strips
        self._sixel_rows = {}
        if self.figures and self._wrapped_width > 0:
            self._splice()

    def _set_virtual_size(self, size: Size) -> None:
        if not self._deferring:
            super()._set_virtual_size(size)

    def _splice(self) -> None:
        """The wrapped text with a block per picture inserted before the line holding its offset."""
        width = self._wrapped_width
        self._sixel_marks = {}
        strips = list(self._base)
        plain = self.content.plain
        lines = PageLines.from_lines(plain, [strip.text for strip in strips])
        placed = sorted(enumerate(self.figures), key=lambda pair: (pair[1].offset, pair[0]), reverse=True)
        style, pane_rows = self.rich_style, self.scrollable_content_region.height or 24
        for _, figure in placed:
            at = len(strips) if figure.offset >= len(plain) or not strips else lines.line_of(figure.offset)
            if at < len(strips) and lines.starts[at] < figure.offset and lines.ends[at] > lines.starts[at]:
                at += 1  # stands inside a line (a loose offset): after it
            strips[at:at] = self._block(figure, width, style, pane_rows)
        self._strips = strips
        marks = self._sixel_marks
        self._sixel_rows = {n: marks[id(s)] for n, s in enumerate(strips) if id(s) in marks} if marks else {}
        self._set_virtual_size(Size(width, len(strips)))

    def settled(self) -> bool:
        """Whether every picture of the page on screen is drawn or known not to draw."""
        width = self._wrapped_width
        if width <= 0:
            return False
        for figure in self.figures:
            if figure.key in self.failed or self.protocol == OFF and not figure.whole_page:
                continue
            columns, rows = self._picture_size(figure, width)
            if not columns or self.cache.get((figure.key, columns, rows, self.protocol)) is None:
                return False
        return True

    def _picture_size(self, figure: Figure, width: int) -> tuple[int, int]:
        return figure.cells(width, self.scrollable_content_region.height or 24)

    def _block(self, figure: Figure, width: int, style: Style, pane_rows: int) -> list[Strip]:
        """The picture's lines (drawn, or a frame with its alt text until then), its caption, a blank line."""
        columns, rows = figure.cells(width, pane_rows)
        picture = self.cache.get((figure.key, columns, rows, self.protocol)) if columns else None
        if picture is None:
            drawn = frame(figure.alt, self.failed.get(figure.key, ""), width, rows, columns, style)
        else:
            key = (figure.key, columns, rows, self.protocol)
            if key not in self._shown_lines:
                self._shown_lines[key] = picture.lines()
            drawn = self._shown_lines[key]
            pad = max(0, (width - columns) // 2)
            for strip, sixel in zip(drawn, picture.sixels, strict=False):
                self._sixel_marks[id(strip)] = (sixel, pad)
        caption = Strip([Segment(_clip(CAPTION_MARK + figure.alt, width), style + self._caption_style())])
        return [*drawn, caption, Strip.blank(width, style)]

    def render_lines(self, crop: Region) -> list[Strip]:
        strips = super().render_lines(crop)
        if self._sixel_rows:
            self._paint_sixels(crop)
        return strips

    def _paint_sixels(self, crop: Region) -> None:
        """After the frame that repaints `crop` (blanks where Sixel pictures stand), draw their lines."""
        from reader.tui.images.sixel import RESTORE_CURSOR, SAVE_CURSOR, placed

        region = self.content_region
        top = self.styles.padding.top
        parts = []
        for y in range(max(crop.y, top), min(crop.bottom, top + region.height)):
            part = self._sixel_rows.get(self.scroll_offset.y + y - top)
            if part is not None:
                sixel, pad = part
                parts.append(placed(sixel, region.x + pad, region.y + y - top))
        if parts:
            data = SAVE_CURSOR + "".join(parts) + RESTORE_CURSOR
            self.call_after_refresh(self.write_terminal, data)

    def _caption_style(self) -> Style:
        """Italic in the theme's `$picture-caption` colour (looked up once per theme)."""
        theme = self.app.theme
        if self._caption[0] != theme:
            colour = self.app.get_css_variables().get("picture-caption")
            style = Style(italic=True) + (Style(color=colour) if colour else Style(dim=True))
            self._caption = (theme, style)
        return self._caption[1]

    # --- drawing off the UI thread -----------------------------------------------------------------

    def _draw(self, token: int) -> None:
        if token != self.token:
            return
        self._shown_at = time.perf_counter()  # the page's text is on screen: the pictures follow from here
        width = self._wrapped_width or self.scrollable_content_region.width
        if width <= 0:  # not laid out yet (figures found before the first layout): after it
            self.call_after_refresh(self._draw, token)
            return
        jobs = []
        for figure in self.figures:
            columns, rows = self._picture_size(figure, width)
            if figure.key in self.failed or self.protocol == OFF and not figure.whole_page:
                continue
            if not columns:
                jobs.append((figure, 0, 0, 0))  # loaded only to say why it cannot be drawn
                continue
            if self.cache.get((figure.key, columns, rows, self.protocol)) is None:
                jobs.append((figure, columns, rows, max(0, (width - columns) // 2)))
        if jobs:
            submit(lambda: self._draw_in_thread(token, jobs))
        else:
            self.last_draw_seconds = time.perf_counter() - self._shown_at

    def _draw_in_thread(self, token: int, jobs: list[tuple[Figure, int, int, int]]) -> None:
        from reader.tui.images.decode import PictureError, scaled
        from reader.tui.images.render import draw_picture, pixel_size

        protocol = self.protocol
        for figure, columns, rows, pad in jobs:
            if token != self.token:
                return  # the reader has turned on: this page's pictures are not wanted now
            key = (figure.key, columns, rows, protocol)
            try:
                width, height = pixel_size(protocol, columns, rows, self.cell_pixels)
                picture = SCALED.get(key)
                if picture is None:
                    image = figure.load((width, height))
                    if not columns:
                        raise PictureError("its size is unknown")
                    picture = scaled(image, width, height, letterbox=figure.whole_page)
                    SCALED.put(key, picture)
                drawn = draw_picture(protocol, picture, columns, rows, pad, self.cell_pixels)
            except PictureError as error:
                self.post_message(self.PictureDrawn(token, figure.key, key, None, str(error)))
                continue
            except Exception as error:  # noqa: BLE001 - a picture must never take the page down
                problem = f"it cannot be drawn ({type(error).__name__})"
                self.post_message(self.PictureDrawn(token, figure.key, key, None, problem))
                continue
            self.post_message(self.PictureDrawn(token, figure.key, key, drawn, ""))

    def on_illustrated_page_text_picture_drawn(self, event: PictureDrawn) -> None:
        event.stop()
        drawn = event.drawn
        if drawn is not None and self.cache.get(event.cache_key) is None:
            if drawn.transmit:
                self.write_terminal(drawn.transmit)
            release = drawn.release
            self.cache.put(event.cache_key, drawn, (lambda: self.write_terminal(release)) if release else None)
        if event.error:
            self.failed[event.key] = event.error
            if event.key not in self.noticed:
                self.noticed.add(event.key)
                alt = next((f.alt for f in self.figures if f.key == event.key), "A picture")
                self.notify(f"{alt}: {event.error}; its alt text is shown.", severity="warning", timeout=5)
        if event.token != self.token:
            return
        if drawn is not None:
            self.pictures_drawn += 1
        self.last_draw_seconds = time.perf_counter() - self._shown_at
        if self._wrapped_width > 0:
            self._splice()
            self.refresh()
        if not self._settled_posted and self.settled():
            self._settled_posted = True
            self.post_message(self.PicturesSettled())

    def on_unmount(self) -> None:
        services = getattr(self.app, "services", None)
        figures = services.pdf_figures_made() if services is not None else None
        if figures is not None:
            submit(figures.close)  # PDFium is used from the picture thread only

    def write_terminal(self, data: str) -> None:
        """Send escape sequences to the terminal, in order with the screen's updates (none when headless)."""
        driver = self.app._driver
        if driver is not None and not self.app.is_headless:
            driver.write(data)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def frame(alt: str, problem: str, width: int, rows: int, columns: int, style: Style) -> list[Strip]:
    """The alt text in a box as wide as the picture will be (the pane when unknown), `rows` high (3 at
    least when the picture cannot be drawn)."""
    inner = max(4, (columns or min(width, 48)) - 2)
    pad = " " * max(0, (width - inner - 2) // 2)
    lines = [_clip(alt or "Illustration", inner)]
    if problem:
        lines.append(_clip(f"({problem})", inner))
    rows = max(rows, len(lines) + 2)
    body = ["┌" + "─" * inner + "┐"]
    middle = rows - 2
    top = max(0, (middle - len(lines)) // 2)
    for row in range(middle):
        index = row - top
        text = lines[index] if 0 <= index < len(lines) else ""
        body.append("│" + text.center(inner)[:inner] + "│")
    body.append("└" + "─" * inner + "┘")
    dim = style + Style(dim=True)
    return [Strip([Segment(pad + line, dim)]) for line in body]
