"""The chat's ask box: typed keys are text (digits too); Esc leaves it and ↑ goes up into the conversation."""

from __future__ import annotations

from typing import ClassVar

from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.widgets import Input


class AskInput(Input):
    """The question box; its key hints say how to leave it, since letters and digits type here."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", "Leave the ask box", id="ask.leave"),
        Binding("up,pageup", "read_log", "Read the chat", id="ask.read"),
    ]

    async def action_leave(self) -> None:
        """Back to the page (while an answer runs, Esc cancels it instead: the pane's binding)."""
        if getattr(self.parent, "running", None) is not None:
            raise SkipAction()
        await self.run_action("app.leave")

    def action_read_log(self) -> None:
        """Focus the conversation, to scroll it and move between its citations."""
        log = self.parent.query_one("#chat-log") if self.parent is not None else None
        if log is not None:
            log.focus()
