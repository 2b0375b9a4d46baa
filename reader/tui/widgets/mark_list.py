"""A long list drawn lazily: only the rows on screen are made and rendered (10,000 notes open at once)."""

from __future__ import annotations

from collections.abc import Callable

from rich.style import Style
from textual.binding import Binding
from textual.content import Content
from textual.events import Click
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.visual import Visual

CURSOR_STYLE = "reverse"


class MarkList(ScrollView, can_focus=True):
    """`row_height` lines per row from `prompt(index)` (its lines, e.g. a quote and its note under it); a
    cursor row moved with the keys; Enter selects it."""

    BINDINGS = [
        Binding("down,j", "move(1)", "Down", show=False),
        Binding("up,k", "move(-1)", "Up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("home", "move(-1000000000)", "First", show=False),
        Binding("end", "move(1000000000)", "Last", show=False),
        Binding("enter", "select", "Open", show=False),
    ]

    cursor: reactive[int] = reactive(0, layout=False)

    class Selected(Message):
        """Enter (or a click) chose row `index`."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(
        self,
        count: int,
        prompt: Callable[[int], Content],
        *,
        placeholder: str = "",
        row_height: int = 1,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.count = count
        self.row_height = max(1, row_height)
        self.prompt = prompt
        self.placeholder = placeholder
        """What the list says while it has no rows (reading them, or none to list)."""
        self._cache: dict[int, list[Content]] = {}
        self._follow_on_size = False

    def on_mount(self) -> None:
        self.virtual_size = Size(0, self.count * self.row_height)

    def reset(self, count: int, cursor: int = 0, *, placeholder: str | None = None) -> None:
        """Show `count` rows again (after one was removed or put back), the cursor on row `cursor`."""
        self.count = count
        if placeholder is not None:
            self.placeholder = placeholder
        self._cache.clear()
        if self.virtual_size.height != count * self.row_height:
            self.virtual_size = Size(0, count * self.row_height)
        self.cursor = max(0, min(cursor, count - 1))
        self._follow()
        self.refresh()

    def row(self, index: int) -> Content:
        """What row `index` shows (made when first asked for)."""
        return Content("\n").join(self._row_lines(index))

    def _row_lines(self, index: int) -> list[Content]:
        if index not in self._cache:
            lines = self.prompt(index).split("\n")
            self._cache[index] = (lines + [Content("")] * self.row_height)[: self.row_height]
        return self._cache[index]

    def watch_cursor(self) -> None:
        self.refresh()

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        """Scroll to the cursor as soon as the list knows its height (before it is first painted)."""
        changed = super()._size_updated(size, virtual_size, container_size, layout)
        if self._follow_on_size and self.scrollable_content_region.height:
            self._follow()
        return changed

    def _follow(self) -> None:
        height = self.scrollable_content_region.height
        self._follow_on_size = not height
        if not height:
            return
        top, first, last = self.scroll_offset.y, self.cursor * self.row_height, (self.cursor + 1) * self.row_height
        if first < top:
            self.scroll_to(y=first, animate=False, immediate=True)
        elif last > top + height:
            self.scroll_to(y=last - height, animate=False, immediate=True)

    def action_move(self, step: int) -> None:
        """Move the cursor `step` rows."""
        if self.count:
            self.cursor = max(0, min(self.count - 1, self.cursor + step))
            self._follow()

    def action_page(self, direction: int) -> None:
        """Move the cursor a screen."""
        self.action_move(direction * max(1, self.scrollable_content_region.height // self.row_height - 1))

    def action_select(self) -> None:
        """Choose the cursor's row."""
        if self.count:
            self.post_message(self.Selected(self.cursor))

    def on_click(self, event: Click) -> None:
        index = (self.scroll_offset.y + event.y) // self.row_height
        if 0 <= index < self.count:
            self.cursor = index
            self.post_message(self.Selected(index))

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        style: Style = self.rich_style
        index, line = divmod(self.scroll_offset.y + y, self.row_height)
        if not self.count and index == 0 and line == 0 and self.placeholder and width > 0:
            content = Content.styled(self.placeholder, "$text-muted").truncate(width, ellipsis=True)
        elif not 0 <= index < self.count or width <= 0:
            return Strip.blank(width, style)
        else:
            content = self._row_lines(index)[line].truncate(width, ellipsis=True)
        if index == self.cursor:
            content = content.pad_right(width - content.cell_length).stylize_before(CURSOR_STYLE)
        strips = Visual.to_strips(self, content, width, 1, self.visual_style)
        return strips[0].crop_extend(0, width, style) if strips else Strip.blank(width, style)
