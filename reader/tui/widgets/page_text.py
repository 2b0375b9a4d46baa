"""The text of one page: wrapped once per page, width and style; only the visible lines are drawn."""

from __future__ import annotations

from rich.style import Style
from textual.content import Content
from textual.events import MouseDown, MouseMove, MouseUp, Resize
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.visual import Visual

from reader.tui.page_selection import PageLines
from reader.tui.widgets.steady_scrollbars import SteadyScrollbars


class PageText(SteadyScrollbars, ScrollView, can_focus=False, inherit_bindings=False):
    """Scrolls within its own region, so a new page needs one layout pass, not two (unlike a Static)."""

    ALLOW_SELECT = False
    """Mouse selection is the page's own (it becomes a highlight), not Textual's copy selection."""

    class MouseSelect(Message):
        """The mouse pressed ("down"), dragged ("drag") or let go ("up") at character `offset` of the text
        (-1: let go outside it)."""

        def __init__(self, offset: int, phase: str) -> None:
            super().__init__()
            self.offset = offset
            self.phase = phase

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.content = Content("")
        self._strips: list[Strip] = []
        self._wrapped_width = 0
        self._wrapped_style: object = None
        self._line_style = Style()
        self._line_width = 0

    @property
    def text(self) -> str:
        """The plain text shown."""
        return self.content.plain

    def show(self, content: Content, *, to_end: bool = False) -> None:
        """Show `content` from its top (or its end)."""
        self.content = content
        self._wrap()
        height = self.scrollable_content_region.height
        top = max(0, len(self._strips) - height) if to_end else 0
        self.scroll_to(y=top, animate=False, immediate=True, force=True)
        self.refresh()

    def restyle(self, content: Content) -> None:
        """Show `content` (the same text, styled anew) where the page is scrolled to now."""
        self.content = content
        self._wrap()
        self.refresh()

    def lines(self) -> PageLines:
        """Where each line on screen starts and ends in the text."""
        return PageLines.from_lines(self.content.plain, [strip.text for strip in self._strips])

    def scroll_to_line(self, line: int) -> None:
        """Scroll just enough to show wrapped `line` (a third of the way down when it was far off)."""
        height = self.scrollable_content_region.height
        top = self.scroll_offset.y
        if top <= line < top + height:
            return
        self.scroll_to(y=max(0, line - height // 3), animate=False, immediate=True)

    def _offset(self, event: MouseDown | MouseMove | MouseUp) -> int | None:
        position = event.get_content_offset(self)
        if position is None or not self._strips:
            return None
        return self.lines().offset_at(self.scroll_offset.y + position.y, position.x)

    def on_mouse_down(self, event: MouseDown) -> None:
        if (offset := self._offset(event)) is not None:
            self.capture_mouse()
            self._selecting = True
            self.post_message(self.MouseSelect(offset, "down"))

    def on_mouse_move(self, event: MouseMove) -> None:
        if getattr(self, "_selecting", False) and (offset := self._offset(event)) is not None:
            self.post_message(self.MouseSelect(offset, "drag"))

    def on_mouse_up(self, event: MouseUp) -> None:
        if getattr(self, "_selecting", False):
            self._selecting = False
            self.release_mouse()
            offset = self._offset(event)
            self.post_message(self.MouseSelect(-1 if offset is None else offset, "up"))

    def _style_key(self) -> object:
        """What the wrapped lines' colours come from: the theme (for $variables) and the widget's style."""
        return (self.app.theme, self.visual_style)

    def _wrap(self) -> None:
        width = self.scrollable_content_region.width
        self._wrapped_width = width
        self._wrapped_style = self._style_key()
        if width <= 0:
            self._strips = []
            return
        self._strips = Visual.to_strips(self, self.content, width, None, self.visual_style)
        self._set_virtual_size(Size(width, len(self._strips)))

    def _set_virtual_size(self, size: Size) -> None:
        """Set the scrollable size; a new page of the same width needs no layout pass of the screen.

        `virtual_size` asks for a layout of the whole screen whenever it changes (every page has its
        own number of lines), which costs more than drawing the page. With a stable scrollbar gutter
        only the scrollbar changes, unless it appears or disappears, so only that is updated; also when
        the width changed, which a layout of the screen did already. Whether it shows is decided here,
        so the layout that places it comes at once: found by that layout instead, it took one more.
        """
        if self.styles.scrollbar_gutter != "stable":
            self.virtual_size = size
            return
        showed = (self.show_vertical_scrollbar, self.show_horizontal_scrollbar)
        self.set_reactive(PageText.virtual_size, size)
        self._refresh_scrollbars()
        if (self.show_vertical_scrollbar, self.show_horizontal_scrollbar) != showed:
            self.refresh(layout=True)  # the scrollbar is placed in the next layout (the first page's: the side panes')
        else:
            self._scroll_update(size)

    def on_resize(self, event: Resize) -> None:
        if self.scrollable_content_region.width != self._wrapped_width:
            self._wrap()
            self.refresh()

    def render_lines(self, crop: Region) -> list[Strip]:
        if (
            self._style_key() != self._wrapped_style
            or self.scrollable_content_region.width != self._wrapped_width
        ):
            self._wrap()  # the first frame: laid out for the first time, before the Resize event
        # the style and width are the same for every line of one render: look them up once
        self._line_style = self.rich_style
        self._line_width = self.scrollable_content_region.width
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        width, style = self._line_width, self._line_style
        index = self.scroll_offset.y + y
        if 0 <= index < len(self._strips):
            return self._strips[index].crop_extend(0, width, style)
        return Strip.blank(width, style)
