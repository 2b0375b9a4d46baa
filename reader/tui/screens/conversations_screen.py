"""The book's earlier conversations: pick one to continue it."""

from __future__ import annotations

from collections.abc import Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from reader.domain.chat import Conversation

NEW = "new"


class ConversationsScreen(ModalScreen[int | str | None]):
    """Dismisses with a conversation id, "new" for a fresh one, or None."""

    AUTO_FOCUS = "*"

    BINDINGS = [Binding("escape", "cancel", "Close", id="conversations.close")]

    def __init__(self, conversations: Sequence[Conversation]) -> None:
        super().__init__()
        self.conversations = list(conversations)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog dialog-tall") as dialog:
            dialog.border_title = "Conversations"
            options = [Option(Content.styled("+ New conversation", "bold"), id=NEW)]
            for conversation in self.conversations:
                title = conversation.title or "(untitled)"
                when = conversation.updated_at.replace("T", " ")[:16]
                options.append(
                    Option(
                        Content.assemble(
                            title,
                            ("  ", ""),
                            (f"{when} · {conversation.message_count} messages", "$text-muted"),
                        ),
                        id=str(conversation.id),
                    )
                )
            yield OptionList(*options, id="conversation-list")
            if not self.conversations:
                yield Static("No earlier conversations about this book.", classes="dialog-text")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        option_id = event.option.id or NEW
        self.dismiss(NEW if option_id == NEW else int(option_id))

    def action_cancel(self) -> None:
        """Close without switching."""
        self.dismiss(None)
