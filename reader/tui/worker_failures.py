"""Failed workers, reported up to the app (Textual's Worker.StateChanged stays at the node that ran them)."""

from __future__ import annotations

from textual.message import Message
from textual.message_pump import MessagePump
from textual.worker import Worker, WorkerState


class WorkerFailed(Message):
    """A worker of the sending node failed; the app shows one notice and clears its progress."""

    def __init__(self, group: str, error: BaseException | None) -> None:
        super().__init__()
        self.group = group
        self.error = error


class WriteFailed(Message):
    """A write the UI queued (the reading position, the last book) failed on the writer thread."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


def forward_failure(node: MessagePump, event: Worker.StateChanged) -> None:
    """Post WorkerFailed up from `node` when `event` says one of its workers failed."""
    if event.state == WorkerState.ERROR:
        node.post_message(WorkerFailed(event.worker.group, event.worker.error))
