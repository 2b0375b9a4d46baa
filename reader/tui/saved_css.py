"""Textual's parsed CSS rules kept in a file between runs, as Python keeps compiled modules in .pyc files."""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.css.model import RuleSet

FORMAT = 1
"""Bumped when what is saved changes shape."""

SourceKey = tuple[str, Any, bool, int, str]
"""Textual's own key of one parsed source: css, where it was read from, default rules?, tie breaker, scope."""


def textual_identity() -> tuple[object, ...]:
    """What the saved rules were made by: Python, the file format, and the installed Textual's parser files.

    Rules are pickled Textual objects, so another Textual (an upgrade rewrites its files) or another Python
    must not read them. The files' sizes and times stand in for Textual's version, which costs an
    importlib.metadata scan to read.
    """
    import textual.css.model
    import textual.css.parse

    stats = [os.stat(module.__file__ or "") for module in (textual.css.parse, textual.css.model)]
    return (FORMAT, sys.version, textual.css.parse.__file__, *((s.st_size, s.st_mtime_ns) for s in stats))


class SavedCss:
    """Parsed rules by source and CSS variables, read from `path` at start and written back when new.

    Reading the saved rules instead of parsing took the app's first frame from 1,359 M to 1,306 M
    instructions (callgrind; app.tcss and some 40 widgets' default CSS, about 15 ms here). Anything
    wrong with the file (missing, corrupt, from another Textual) means parsing as usual; writing is
    skipped when the cache folder cannot be written.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._identity: tuple[object, ...] | None = None
        self._saved: dict[bytes, list[RuleSet]] | None = None
        self._used: dict[bytes, list[RuleSet]] = {}
        self._new = False
        self.read = 0
        """Sources whose rules came from the file in this run."""
        self.parsed = 0
        """Sources parsed in this run (to be saved)."""

    @staticmethod
    def key(source: SourceKey, variables_digest: bytes) -> bytes:
        return hashlib.blake2b(repr(source).encode() + variables_digest, digest_size=16).digest()

    @staticmethod
    def variables_digest(variables: Mapping[str, str]) -> bytes:
        return hashlib.blake2b(repr(sorted(variables.items())).encode(), digest_size=16).digest()

    def get(self, key: bytes) -> list[RuleSet] | None:
        rules = self._load().get(key)
        if rules is not None:
            self._used[key] = rules
            self.read += 1
        return rules

    def put(self, key: bytes, rules: list[RuleSet]) -> None:
        self._used[key] = rules
        self._new = True
        self.parsed += 1

    def save(self) -> None:
        """Write the rules used in this run, if any of them had to be parsed (atomically, never raising)."""
        if not self._new:
            return
        self._new = False
        try:
            data = pickle.dumps((self._identity_now(), self._used), protocol=pickle.HIGHEST_PROTOCOL)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=self.path.name)
            try:
                with os.fdopen(handle, "wb") as file:
                    file.write(data)
                os.replace(temporary, self.path)
            except BaseException:
                os.unlink(temporary)
                raise
        except Exception:  # noqa: BLE001 - a cache: parsing again next time is the fallback
            pass

    def _identity_now(self) -> tuple[object, ...]:
        if self._identity is None:
            self._identity = textual_identity()
        return self._identity

    def _load(self) -> dict[bytes, list[RuleSet]]:
        if self._saved is None:
            self._saved = {}
            try:
                with open(self.path, "rb") as file:
                    identity, saved = pickle.load(file)
                if identity == self._identity_now() and isinstance(saved, dict):
                    self._saved = saved
            except Exception:  # noqa: BLE001 - missing, corrupt or from another version: parse as usual
                pass
        return self._saved
