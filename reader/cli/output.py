"""Printing for the command line: one-line errors, JSON lines and a progress line."""

from __future__ import annotations

import sys
import time
from typing import Any


def error_line(message: str) -> None:
    """Print an error as one line on stderr."""
    print(f"reader: {' '.join(message.split())}", file=sys.stderr)


def json_line(obj: dict[str, Any]) -> None:
    import json  # here, not at the top: every command imports this module, few print JSON

    print(json.dumps(obj, ensure_ascii=False))


class ProgressLine:
    """A single self-rewriting progress line on stderr (only when stderr is a terminal)."""

    def __init__(self, stream: Any = None, min_interval: float = 0.1) -> None:
        self.stream = stream or sys.stderr
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.min_interval = min_interval
        self._last = 0.0
        self._shown = False

    def update(self, label: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if done < total and now - self._last < self.min_interval:
            return
        self._last = now
        width = 24
        filled = int(width * done / total) if total else width
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(f"\r{label[:40]:40} [{bar}] {done}/{total}")
        self.stream.flush()
        self._shown = True

    def clear(self) -> None:
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False
