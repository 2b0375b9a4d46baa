"""The chat's ask box: typed keys are text (digits too); Esc leaves it and ↑ goes up into the conversation."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import Input


class AskInput(Input):
    """The question box; its key hints say how to leave it, since letters and digits type here."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", "Leave the ask box", id="ask.leave"),
        Binding("up,pageup", "read_log", "Read the chat", id="ask.read"),
    ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While an answer comes, Esc cancels it (the pane's binding, then hinted instead)."""
        if action == "leave":
            return getattr(self.parent, "running", None) is None
        return True

    async def action_leave(self) -> None:
        """Back to the page."""
        await self.run_action("app.leave")

    def action_read_log(self) -> None:
        """Focus the conversation, to scroll it and move between its citations."""
        log = self.parent.query_one("#chat-log") if self.parent is not None else None
        if log is not None:
            log.focus()
