"""The app's own screen (the three panes), which remembers the keys that bubbled through it; laid out
and drawn only when something changed (`SteadyScreen`)."""

from __future__ import annotations

from collections import deque

from textual.events import Key

from reader.tui.screens.steady_screen import SteadyScreen

RECENT_KEYS = 32


class MainScreen(SteadyScreen):
    """Keys typed right after the one that opens a dialog (`g` then "57") were sent to the focused pane
    and bubble up through here after the dialog opened; `passed` lets the app hand them to the dialog."""

    BLANK = True
    """Drawn as blank lines in its background colour (Textual's switch for a widget with no border and no
    content): the panes and the key hints cover it, yet each frame drew its background line by line
    (measured: 1.5 ms a frame of the first screen's seven, the most of any widget)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._recent: deque[Key] = deque(maxlen=RECENT_KEYS)

    def on_key(self, event: Key) -> None:
        self._recent.append(event)

    def passed(self, event: Key) -> bool:
        """Whether `event` bubbled up through this screen (so it was meant for a pane, not a dialog)."""
        return any(key is event for key in self._recent)
