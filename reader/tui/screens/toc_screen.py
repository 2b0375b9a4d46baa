"""The table of contents: pick a chapter to go to its first page."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from reader.domain.models import Chapter


class TocScreen(ModalScreen[int | None]):
    """Chapters with their printed start labels; dismisses with the chosen start page."""

    AUTO_FOCUS = "*"

    BINDINGS = [
        Binding("escape,t", "cancel", "Close", id="toc.close"),
        Binding("j", "cursor('down')", "Down", show=False),
        Binding("k", "cursor('up')", "Up", show=False),
    ]

    def __init__(
        self, chapters: Sequence[Chapter], label: Callable[[int], str], current_page: int, horizon: int
    ) -> None:
        super().__init__()
        self.chapters = list(chapters)
        self.label = label
        self.current_page = current_page
        self.horizon = horizon

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog dialog-tall") as dialog:
            dialog.border_title = "Contents"
            options = []
            for chapter in self.chapters:
                prompt = Content.assemble(
                    "  " * chapter.level,
                    chapter.title,
                    ("  ", ""),
                    (f"p. {self.label(chapter.start_page)}", "$text-muted"),
                )
                if chapter.start_page > self.horizon:
                    prompt = prompt.stylize("italic")
                options.append(Option(prompt))  # no id: a part and its first chapter share a page
            yield OptionList(*options, id="toc-list")

    def on_mount(self) -> None:
        toc = self.query_one(OptionList)
        current = [i for i, c in enumerate(self.chapters) if c.start_page <= self.current_page]
        if current:
            toc.highlighted = current[-1]
        toc.focus()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.chapters[event.option_index].start_page)

    def action_cursor(self, direction: str) -> None:
        """Move the highlight with vim keys."""
        toc = self.query_one(OptionList)
        toc.action_cursor_down() if direction == "down" else toc.action_cursor_up()

    def action_cancel(self) -> None:
        """Close without going anywhere."""
        self.dismiss(None)
