"""A dialog built around one input: keys typed before the input has the focus still reach it."""

from __future__ import annotations

from typing import TypeVar

from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Input

ResultType = TypeVar("ResultType")


class InputDialog(ModalScreen[ResultType]):
    """Focuses its (first) input on mount. Keys of a fast burst (`g` then "57" and Enter) that reach
    the dialog before its input has the focus, or that were already on their way to the pane below
    (see MainScreen), are typed into the input instead of being lost."""

    AUTO_FOCUS = "Input"

    async def on_key(self, event: Key) -> None:
        if self.focused is None and await self.type_ahead(event):
            event.stop()
            event.prevent_default()

    async def type_ahead(self, event: Key) -> bool:
        """Type `event` into the input: a character, Backspace or Enter (submits); False for others."""
        field = self.query_one(Input)
        if event.is_printable and event.character:
            field.insert_text_at_cursor(event.character)
        elif event.key == "backspace":
            field.action_delete_left()
        elif event.key == "enter":
            await field.action_submit()
        else:
            return False
        field.focus()
        return True
