"""A screen that Textual does not lay out, style or draw again when nothing changed."""

from __future__ import annotations

from textual.events import Resize, ScreenResume
from textual.screen import Screen


class SteadyScreen(Screen[None]):
    """Its handlers run before Textual's (a base class's, called next) and take out the work that changes
    nothing: at start-up the screen was laid out five times and is now laid out three."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._resumed = False

    def _on_screen_resume(self, event: ScreenResume) -> None:
        """The first resume comes right after every widget was styled as it mounted: styling them all again
        (Textual's `refresh_styles`) found nothing new and took 5 ms of the first frame. And when Textual
        is to lay the screen out at a new size, which draws all of it, the second drawing of the whole
        screen it then asks for is dropped (on the first frame: the screen drawn again from the widgets'
        caches at the next update, the side panes' fill, 3-5 ms)."""
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False
        if self.is_attached and self._size != self.app.size and not self.app._batch_count:
            self.call_next(self._drawn_whole)

    async def _on_resize(self, event: Resize) -> None:
        """Textual lays the whole screen out again on every Resize: one for the size it is laid out at
        already is let go (at start-up the screen had two such, each laying out and drawing what had not
        changed; a widget that must be laid out anew asks for it itself)."""
        if self.stack_updates and event.size == self._size:
            event.prevent_default()

    def _drawn_whole(self) -> None:
        self._repaint_required = False
