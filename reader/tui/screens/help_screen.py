"""The keys of every part of the app, grouped by where they work."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.binding import Binding as _Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.keys import key_to_character
from textual.screen import ModalScreen
from textual.widgets import Static

KEY_NAMES = {
    "right_square_bracket": "]",
    "left_square_bracket": "[",
    "question_mark": "?",
    "slash": "/",
    "space": "space",
    "pagedown": "PgDn",
    "pageup": "PgUp",
    "escape": "Esc",
    "enter": "Enter",
    "backspace": "Backspace",
    "delete": "Del",
    "up": "↑",
    "down": "↓",
    "left": "←",
    "right": "→",
    "home": "Home",
    "end": "End",
    "tab": "Tab",
}


def key_name(key: str) -> str:
    """One key as the reader types it: `'` for apostrophe, `↓` for down, Ctrl+B, Shift+↑."""
    modifier, plus, base = key.rpartition("+")
    if plus:
        shown = base.upper() if len(base) == 1 else key_name(base)
        return f"{modifier.replace('ctrl', 'Ctrl').replace('shift', 'Shift')}+{shown}"
    if re.fullmatch(r"f\d{1,2}", key):
        return key.upper()
    if key in KEY_NAMES:
        return KEY_NAMES[key]
    character = key_to_character(key)
    return character if character is not None and character.isprintable() and character != " " else key


def key_names(keys: str) -> str:
    """Keys of a binding as the reader types them, e.g. "→, l"."""
    return ", ".join(key_name(key.strip()) for key in keys.split(","))


def help_rows(bindings: Iterable[BindingType]) -> list[tuple[str, str]]:
    """(keys, description) of each binding that has a description."""
    rows = []
    for binding in bindings:
        if isinstance(binding, _Binding) and binding.description:
            rows.append((key_names(binding.key), binding.description))
    return rows


class HelpScreen(ModalScreen[None]):
    """Lists keys by section; any of Esc, q or ? closes it."""

    AUTO_FOCUS = "*"

    BINDINGS = [Binding("escape,q,question_mark,f1", "dismiss_help", "Close help", id="help.close")]

    def __init__(self, sections: Sequence[tuple[str, Sequence[BindingType]]]) -> None:
        super().__init__()
        self.sections = sections

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog dialog-tall", id="help") as dialog:
            dialog.border_title = "Keys"
            dialog.border_subtitle = "Esc closes · Ctrl+P for every command"
            for title, bindings in self.sections:
                rows = help_rows(bindings)
                if not rows:
                    continue
                yield Static(Content.styled(title, "bold $accent"), classes="help-title")
                width = max(len(keys) for keys, _ in rows) + 2
                lines = [
                    Content.assemble((keys.ljust(width), "bold"), description) for keys, description in rows
                ]
                yield Static(Content("\n").join(lines), classes="help-keys")

    def action_dismiss_help(self) -> None:
        """Close the help screen."""
        self.dismiss(None)
