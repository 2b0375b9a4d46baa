"""A scroll view (mixed in before it) that redraws its scrollbars only when its size changes, not on every layout of the screen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.geometry import Size

if TYPE_CHECKING:
    from textual.scroll_view import ScrollView

    _ScrollView = ScrollView
else:
    _ScrollView = object  # a plain mixin: Textual's CSS and component classes come from the widget's own bases


class SteadyScrollbars(_ScrollView):
    """Textual's ScrollView compares the compositor's virtual size (its region) with its own (its content)
    on each layout; they differ for any scrolling view, so every layout of the screen updated and redrew
    its scrollbars and asked for one more frame to show them. Here the update runs when what it is
    computed from has changed: the view's size, its container's, or its content's."""

    _sizes_seen: tuple[Size, Size, Size, Size] | None = None

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        sizes = (size, virtual_size, container_size, self.virtual_size)
        if sizes == self._sizes_seen:
            return False
        self._sizes_seen = sizes
        return super()._size_updated(size, virtual_size, container_size, layout)
