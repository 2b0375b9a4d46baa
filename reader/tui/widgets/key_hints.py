"""One line of key hints for the focused pane (a light stand-in for Textual's Footer)."""

from __future__ import annotations

from textual.binding import Binding
from textual.content import Content
from textual.dom import DOMNode
from textual.screen import Screen
from textual.style import Style
from textual.widgets import Static


def hinted(node: DOMNode, binding: Binding) -> bool:
    """Whether `binding` is hinted: a node's `hint_visible(binding)` may say so for the moment (e.g. a
    key that matters only on some pages), else the binding's `show`."""
    hint_visible = getattr(node, "hint_visible", None)
    visible = hint_visible(binding) if hint_visible is not None else None
    return binding.show if visible is None else bool(visible)


class KeyHints(Static):
    """The shown bindings of the focus chain; click a hint to press its key.

    Call `refresh_bindings()` on a node whose `hint_visible` answer changed.
    """

    def on_mount(self) -> None:
        self._pending = False
        self._shown: list[tuple[str, str, str]] | None = None
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._show()

    def _bindings_changed(self, screen: Screen) -> None:
        """Show the hints anew soon (not after the next frame: the focus set at start-up would reach the
        hints only after the first frame, which showed the app's few keys, not the page's)."""
        if screen is self.screen and not self._pending:
            self._pending = True
            self.call_later(self._show)

    def _hints(self) -> list[tuple[str, str, str]]:
        """(key to press, key as shown, description) per action; a group's bindings share one hint."""
        hints: list[tuple[str, str, str]] = []
        group_at: dict[str, int] = {}
        seen: set[str] = set()
        for node, binding, enabled, _tooltip in self.screen.active_bindings.values():
            if not hinted(node, binding) or not enabled or binding.action in seen:
                continue
            seen.add(binding.action)
            key, shown = binding.key.split(",")[0], self.app.get_key_display(binding)
            if binding.group is None:
                hints.append((key, shown, binding.description))
            elif (index := group_at.get(binding.group.description)) is None:
                group_at[binding.group.description] = len(hints)
                hints.append((key, shown, binding.group.description))
            else:
                first_key, first_shown, description = hints[index]
                hints[index] = (first_key, first_shown + shown, description)
        return hints

    def _show(self) -> None:
        self._pending = False
        hints = self._hints()
        if hints == self._shown:
            return  # bindings change with every widget mounted: most leave the hints as they were
        self._shown = hints
        parts = [self._hint(key, shown, description) for key, shown, description in hints]
        parts.append(self._hint("ctrl+p", "^p", "Commands"))
        self.update(Content("  ").join(parts), layout=False)  # one line high whatever it says

    @staticmethod
    def _hint(key: str, shown: str, description: str) -> Content:
        # the click as a Style, not as "@click=press('k')" markup: every hint's differs, and each such
        # string was parsed on the first frame
        click = Style.from_meta({"@click": f"press({key!r})"})
        return Content.assemble((f" {shown} ", "bold $accent"), description).stylize(click)

    def action_press(self, key: str) -> None:
        """Press `key` as if typed."""
        self.app.simulate_key(key)
