"""What a conversation opens with: notices, and a block of text to copy (light: start-up mounts them)."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Static


class NoticeItem(Static):
    """Something worth knowing that is not an error."""

    def __init__(self, message: str) -> None:
        super().__init__(message, classes="chat-notice", markup=False)


class CodeItem(Static, can_focus=True):
    """Text to copy as it is (a config snippet): a framed block whose long lines wrap inside the pane,
    never cut; `c`, Enter or a click copies it exactly (to the terminal's clipboard)."""

    BINDINGS = [Binding("c,enter", "copy", "Copy", id="chat.copy_code")]

    def __init__(self, code: str) -> None:
        super().__init__(code, classes="chat-code", markup=False)
        self.code = code
        self.border_subtitle = "c copies"

    def action_copy(self) -> None:
        """Put the block on the clipboard."""
        self.app.copy_to_clipboard(self.code)
        self.notify("Copied: paste it into the config file.", timeout=3)

    def on_click(self) -> None:
        self.focus()
        self.action_copy()
