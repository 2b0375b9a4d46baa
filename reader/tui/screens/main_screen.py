"""The app's own screen (the three panes), which remembers the keys that bubbled through it."""

from __future__ import annotations

from collections import deque

from textual.events import Key, Resize, ScreenResume
from textual.screen import Screen

RECENT_KEYS = 32


class MainScreen(Screen[None]):
    """Keys typed right after the one that opens a dialog (`g` then "57") were sent to the focused pane
    and bubble up through here after the dialog opened; `passed` lets the app hand them to the dialog."""

    BLANK = True
    """Drawn as blank lines in its background colour (Textual's switch for a widget with no border and no
    content): the panes and the key hints cover it, yet each frame drew its background line by line
    (measured: 1.5 ms a frame of the first screen's seven, the most of any widget)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._recent: deque[Key] = deque(maxlen=RECENT_KEYS)
        self._resumed = False

    def _on_screen_resume(self, event: ScreenResume) -> None:
        """Before Textual's handler (which runs next, as a base class's).

        The first resume comes right after every widget was styled as it mounted: styling them all again
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
        """Before Textual's handler, which lays the whole screen out again on every Resize: one for the size
        it is laid out at already is let go (at start-up the screen had two such, each laying out and
        drawing what had not changed; a widget that must be laid out anew asks for it itself)."""
        if self.stack_updates and event.size == self._size:
            event.prevent_default()

    def _drawn_whole(self) -> None:
        self._repaint_required = False

    def on_key(self, event: Key) -> None:
        self._recent.append(event)

    def passed(self, event: Key) -> bool:
        """Whether `event` bubbled up through this screen (so it was meant for a pane, not a dialog)."""
        return any(key is event for key in self._recent)
