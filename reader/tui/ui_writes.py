"""The app's own writes (reading position, last book): never a wait on the database in a key press.

A write runs at once when the library file is free (it takes well under a millisecond). When another
writer holds it (an import or an embedding run in a worker: one import's write lock held a page turn
for 532 ms), the write goes to one writer thread instead, which does the writes in order and waits
there; later writes queue behind it until it is done, so they never overtake each other.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable

from reader.services import Services

Write = Callable[[], None]
"""A write through `Services` (resolved inside the call, so each thread uses its own connection)."""


class UiWrites:
    """Writes from the UI thread, at once or (when the library file is busy) on one writer thread."""

    def __init__(self, services: Services, report: Callable[[str], object]) -> None:
        self.services = services
        self.report = report
        """Called on the writer thread with a one-line message when a queued write fails; it must not
        wait for the UI thread (which, closing, waits for this thread in `close`)."""
        self._queue: queue.Queue[Write | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self.deferred = 0
        """Writes handed to the writer thread so far (the library file was busy)."""

    def write(self, write: Write) -> None:
        """Do `write` now if nothing is queued and the library file is free, else queue it."""
        if self._queue.unfinished_tasks == 0 and self.services.try_write(write):
            return
        self.deferred += 1
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="reader-ui-writes", daemon=True)
            self._thread.start()
        self._queue.put(write)

    def _run(self) -> None:
        while (write := self._queue.get()) is not None:
            try:
                write()
            except Exception as error:  # noqa: BLE001 - one notice, and the next write still runs
                self.report(f"Could not save the reading position ({type(error).__name__}: {error}).")
            finally:
                self._queue.task_done()
        self._queue.task_done()

    def flush(self) -> None:
        """Wait until every queued write is done (at exit, and in tests)."""
        self._queue.join()

    def close(self, timeout: float = 15.0) -> None:
        """Finish the queued writes and stop the writer thread; after `timeout` seconds (longer than
        the library's 10 s busy timeout) the app closes without it (a daemon thread)."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout)
            self._thread = None
