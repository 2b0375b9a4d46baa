"""A label and a progress bar shown while books import and embed in the background."""

from __future__ import annotations

from textual.containers import Vertical
from textual.widgets import Static


class ImportProgress(Vertical):
    """Hidden until an import starts (its widgets are made then, keeping start-up light)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.display = False
        self._state: tuple[str, int, int] | None = None

    def step(self, label: str, done: int, total: int) -> None:
        """Show `label` with `done` of `total` (total 0 means unknown)."""
        self._state = (label, done, total)
        self.display = True
        if not self.children:
            from textual.widgets import ProgressBar

            self.mount(
                Static("", id="import-label", markup=False), ProgressBar(show_eta=False, id="import-bar")
            )
            self.call_after_refresh(self._show_state)
        else:
            self._show_state()

    def _show_state(self) -> None:
        if self._state is None or not self.children:
            return
        from textual.widgets import ProgressBar

        label, done, total = self._state
        self.query_one("#import-label", Static).update(label)
        self.query_one(ProgressBar).update(total=total or None, progress=done)

    def finish(self) -> None:
        """Hide the bar."""
        self._state = None
        self.display = False
