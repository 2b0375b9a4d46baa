"""A side pane that paints its frame with the page and mounts its widgets right after the first paint."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import ExitStack

from textual.containers import Vertical
from textual.message import Message
from textual.widget import Widget


class DeferredPane(Vertical):
    """Its border and title show in the app's first frame; `contents()` mounts after that frame.

    The page is what a reader opens the app for; the library and the chat are DeferredPanes. Measured
    with 1,000 books (instructions to the first frame with the page, under callgrind): mounting the
    library's filter and list before the first paint took 1,500 M instructions, after it 1,410 M (about
    30 ms here); the chat's log and input after it, 59 M fewer again; a bare Textual app showing the
    page takes 920 M. Until `filled` the pane has no children: methods that need them return early
    (the fill catches up in `on_filled`), and `when_filled` holds calls that must happen, such as
    focusing.
    """

    class Filled(Message):
        """A deferred pane's contents are mounted (posted to the app)."""

        def __init__(self, pane: DeferredPane) -> None:
            super().__init__()
            self.pane = pane

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.filled = False
        self._waiting: list[Callable[[], object]] = []
        self._batch = ExitStack()
        """The app's batch update, held from when the fill is scheduled until it is done (`_schedule_fill`)."""

    def contents(self) -> Iterable[Widget]:
        """The pane's widgets, mounted once after the first paint."""
        return ()

    def on_filled(self) -> None:
        """Called once the contents are mounted."""

    def on_mount(self) -> None:  # Textual also calls a subclass's own on_mount (no super() call needed)
        after = getattr(self.app, "after_first_page", None)
        if after is None:  # another app: after its first paint
            self.call_after_refresh(self._schedule_fill)
        else:  # once the first page's pictures are drawn too, where the app says when that is
            after(self._schedule_fill)

    def _schedule_fill(self) -> None:
        # Held as one batch from here until the fill is done: the screen is laid out and drawn once for all
        # the panes filling together (and for whatever else asked for a layout meanwhile), not once per
        # pane and again as each one's widgets finish mounting (measured: three or four frames of the
        # whole screen, 30-60 ms each, before the panes were batched). The batch ends after Textual's own
        # follow-up of the mount (queued with call_next when mounting), which lays the pane out again.
        self._batch.enter_context(self.app.batch_update())
        if not self.call_later(self._fill):
            self._batch.close()  # closing: no fill will end it

    def on_unmount(self) -> None:
        self._batch.close()

    async def _fill(self) -> None:
        batch, self._batch = self._batch, ExitStack()
        try:
            widgets = list(self.contents())
            await self.mount_all(widgets)
            if not all(widget.is_attached for widget in widgets):
                return  # the app closed before its first paint was followed up
            self.filled = True
            self.on_filled()
            waiting, self._waiting = self._waiting, []
            for call in waiting:
                call()
            self.app.post_message(self.Filled(self))
        finally:
            self.call_next(batch.close)

    def when_filled(self, call: Callable[[], object]) -> None:
        """Run `call` now if the contents are mounted, else as soon as they are."""
        if self.filled:
            call()
        else:
            self._waiting.append(call)
