"""The list of books: title, author, reading progress and indexing state per book; a row is drawn only
when it comes on screen."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from textual import on
from textual.binding import Binding
from textual.events import Resize
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from reader.app.pages.page_lookup import story_percent
from reader.domain.models import Book
from reader.tui.widgets.book_rows import BookRows
from reader.tui.widgets.steady_scrollbars import SteadyScrollbars

if TYPE_CHECKING:
    from textual.css.styles import RulesMap

    from reader.domain.enrichment import EnrichmentStatus

BAR_CELLS = 8


def progress_bar(current: int, total: int) -> str:
    """Reading progress as a small bar of `BAR_CELLS` cells."""
    filled = round(BAR_CELLS * current / total) if total else 0
    return "▰" * filled + "▱" * (BAR_CELLS - filled)


def index_state(models: Sequence[str], busy: str | None) -> str:
    """How a book can be searched, when there is more to say than by its words (the default): by meaning
    with an embedding model, or being embedded ("" otherwise)."""
    if busy:
        return busy
    return f"search by meaning ({models[0]})" if models else ""


def enrich_state(status: EnrichmentStatus | None) -> str:
    """How far `reader enrich` got, e.g. "enriched 12/30 · 2 failed" ('' when never run)."""
    if status is None:
        return ""
    text = f"enriched {min(status.done, status.total)}/{status.total}"
    return text + (f" · {status.failed} failed" if status.failed else "")


def book_prompt(
    book: Book,
    models: Sequence[str],
    busy: str | None,
    is_open: bool,
    enrichment: EnrichmentStatus | None = None,
) -> BookRows:
    """Three lines for one book: title, author, progress (a fourth when it has been enriched)."""
    percent = story_percent(book, book.current_page)
    marker = ("▸ ", "bold $accent") if is_open else ("  ", "")
    state = index_state(models, busy)
    lines = [
        [marker, (book.title, "bold")],
        [("  ", ""), (book.author or "unknown author", "$text-muted")],
        [("  ", ""), (progress_bar(percent, 100), "$primary"), (f" {percent}%", ""), (f" · {state}" if state else "", "$text-muted")],
    ]
    if enriched := enrich_state(enrichment):
        lines.append([("  ", ""), (enriched, "$text-muted")])
    return BookRows(lines)


class BookOption(Option):
    """One book's row; its prompt is made when first drawn (most rows of a long list never are)."""

    def __init__(
        self,
        book: Book,
        models: Sequence[str],
        busy: str | None,
        is_open: bool,
        enrichment: EnrichmentStatus | None = None,
    ) -> None:
        super().__init__("", id=book.id)
        self._made: tuple[Book, Sequence[str], str | None, bool, EnrichmentStatus | None] | None = (
            book, models, busy, is_open, enrichment,
        )
        self._lines = 3 + bool(enrich_state(enrichment))

    @property
    def prompt(self) -> BookRows:
        if self._made is not None:
            self._prompt, self._made = book_prompt(*self._made), None
        assert isinstance(self._prompt, BookRows)
        return self._prompt

    def _set_prompt(self, prompt: object) -> None:
        self._made = None
        super()._set_prompt(prompt)  # type: ignore[arg-type]

    @property
    def lines(self) -> int:
        """The rows it takes (its lines are never wrapped: the list cuts them)."""
        return self._lines if self._made is not None else len(self.prompt.lines)


class BookList(SteadyScrollbars, OptionList):
    """Books in the library; the option ids are book ids. Rows are never wrapped, so each option's height
    is its number of lines: the list is laid out without making or measuring the rows off screen."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", id="library.down", show=False),
        Binding("k", "cursor_up", "Up", id="library.up", show=False),
    ]

    _drawn_width = -1
    """The width the drawn rows in Textual's render cache were made for."""

    def on_mount(self) -> None:
        """A list taller than the screen shows its scrollbar from its first layout: found in that layout
        instead, the scrollbar would narrow the rows just drawn and lay the screen out twice more."""
        self._update_lines()
        if self.styles.overflow_y == "auto" and self.virtual_size.height > self.app.size.height:
            self.show_vertical_scrollbar = True
            self.vertical_scrollbar.display = True

    @on(Resize)
    def _keep_rows(self, event: Resize) -> None:
        """Stop Textual's resize handler, which forgets every row's height and drawing on each resize (and
        the list's first one comes after its first frame): heights here need no width, and drawn rows go
        when the width changes (`render_lines`)."""
        event.prevent_default()

    def render_lines(self, crop: Region) -> list[Strip]:
        width = self.scrollable_content_region.width
        if width != self._drawn_width:
            self._drawn_width = width
            self._option_render_cache.clear()
        return super().render_lines(crop)

    def _get_option_render(self, option: Option, style: Style) -> list[Strip]:
        """Textual's, for a book's row without its general path (the prompt made a Visual, put in padding,
        laid out, given link styles, then widened): the row's lines as `BookRows` draws them, padded in
        the row's style to the list's width, with the option's index for the mouse. The same cells as
        Textual draws (tests/test_tui_library_rows.py), in a third of the time on the first screen."""
        prompt = option.prompt
        if not isinstance(prompt, BookRows) or option._divider:
            return super()._get_option_render(option, style)
        padding = self.get_component_styles("option-list--option").padding
        key = (option, style, padding)
        if (strips := self._option_render_cache.get(key)) is None:
            top, right, bottom, left = padding
            width = self.scrollable_content_region.width - self._get_left_gutter_width()
            inner = width - left - right
            if inner <= 0:
                strips = []
            else:
                rich_style = style.rich_style
                blank = Strip.blank(width, rich_style)
                lines = prompt.render_strips(inner, None, style, RenderOptions(self._get_style, cast("RulesMap", self.styles)))
                padded = [line.crop_pad(inner, left, right, rich_style) for line in lines]
                meta = {"option": self._option_to_index[option]}
                strips = [
                    strip.extend_cell_length(width, rich_style).apply_meta(meta)
                    for strip in [blank] * top + padded + [blank] * bottom
                ]
            self._option_render_cache[key] = strips
        return strips

    def show_books(
        self,
        books: Sequence[Book],
        embedded: dict[str, list[str]],
        busy: dict[str, str],
        open_book: str | None,
        enrichment: dict[str, EnrichmentStatus] | None = None,
        *,
        keep_highlight: bool = True,
    ) -> None:
        """Replace the options, keeping the highlighted book when it is still listed (or else the open one);
        without `keep_highlight` the first is highlighted."""
        highlighted = self.highlighted_option.id if self.highlighted_option and keep_highlight else None
        enriched = enrichment or {}
        self.set_options(
            BookOption(b, embedded.get(b.id, ()), busy.get(b.id), b.id == open_book, enriched.get(b.id))
            for b in books
        )
        ids = [book.id for book in books]
        target = highlighted if highlighted in ids else open_book if keep_highlight and open_book in ids else None
        if target is not None:
            self.highlighted = ids.index(target)
        elif ids:
            self.highlighted = 0

    def _update_lines(self) -> None:
        """Textual's, with each row's height known without laying its prompt out, and before the list
        has a size (so the first layout already has the list's full height and scrollbar)."""
        cache = self._line_cache
        lines = cache.lines
        start = lines[-1][0] + 1 if lines else 0
        for index, option in enumerate(self.options[start:], start):
            cache.index_to_line[index] = len(lines)
            height = (option.lines if isinstance(option, BookOption) else 1) + option._divider
            cache.heights[index] = height
            lines.extend((index, line) for line in range(height))
        size = Size(0, len(lines))  # never scrolled sideways: no width to measure
        if size != self.virtual_size:
            self.virtual_size = size
            if self.is_mounted:
                self._scroll_update(size)
