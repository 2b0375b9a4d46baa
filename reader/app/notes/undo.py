"""Undo for removals: each removal leaves a way to put back what it removed."""

from __future__ import annotations

from collections.abc import Callable

UNDO_DEPTH = 20


class UndoStack:
    """The most recent removals, newest last; `undo` restores the newest and says what it was."""

    def __init__(self) -> None:
        self.entries: list[tuple[str, Callable[[], None]]] = []

    def push(self, description: str, restore: Callable[[], None]) -> None:
        """Remember a removal: `description` names what was removed, `restore` puts it back."""
        self.entries.append((description, restore))
        del self.entries[:-UNDO_DEPTH]

    def undo(self) -> str | None:
        """Restore the newest removal; None when there is nothing to undo."""
        if not self.entries:
            return None
        description, restore = self.entries.pop()
        restore()
        return description

    def __bool__(self) -> bool:
        return bool(self.entries)
