"""One long-lived thread for pictures: decoding and drawing run there, one job at a time, so its SQLite
connection and open PDF are reused from page to page (a thread per page would open a connection each)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

_executor: ThreadPoolExecutor | None = None
_lock = threading.Lock()


def submit(job: Callable[[], None]) -> Future[None]:
    """Run `job` on the picture thread (after the jobs before it)."""
    global _executor
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="reader-pictures")
        return _executor.submit(job)


def warm() -> None:
    """Load the picture machinery (Pillow, its decoders, the drawing code) on the picture thread, so
    the first picture a reader meets is not slowed by it; the app calls this after its first paint."""
    submit(_load_machinery)


def _load_machinery() -> None:
    from PIL import Image

    Image.preinit()  # the JPEG, PNG, GIF and BMP decoders

    import reader.tui.images.cells
    import reader.tui.images.decode
    import reader.tui.images.render  # noqa: F401 - imported to be loaded
