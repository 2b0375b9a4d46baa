"""Textual's parsed CSS rules kept in a file between runs, as Python keeps compiled modules in .pyc files."""

from __future__ import annotations

import os
import pickle
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reader.cache_file import write_cache_file

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
    """Parsed rules by source, for one set of CSS variables (a theme), read from `path` at start and
    written back when new. Another theme's variables start the file afresh.

    Reading the saved rules instead of parsing took 38 M instructions off the app's first frame of
    1,358 M (callgrind, 1,000 books: app.tcss and the widgets' default CSS, about 12 ms here). Anything
    wrong with the file (missing, corrupt, from another Textual) means parsing as usual; writing is
    skipped when the cache folder cannot be written.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._identity: tuple[object, ...] | None = None
        self._saved: dict[SourceKey, list[RuleSet]] | None = None
        self._used: dict[SourceKey, list[RuleSet]] = {}
        self._variables: Mapping[str, str] = {}
        self._new = False
        self.read = 0
        """Sources whose rules came from the file in this run."""
        self.parsed = 0
        """Sources parsed in this run (to be saved)."""

    def use_variables(self, variables: Mapping[str, str]) -> None:
        """The CSS variables the rules are parsed with from now on."""
        if variables != self._variables:
            self._variables = dict(variables)
            self._saved = None if self._saved is None else {}
            self._used = {}

    def get(self, key: SourceKey) -> list[RuleSet] | None:
        rules = self._load().get(key)
        if rules is not None:
            self._used[key] = rules
            self.read += 1
        return rules

    def put(self, key: SourceKey, rules: list[RuleSet]) -> None:
        self._used[key] = rules
        self._new = True
        self.parsed += 1

    def save(self) -> None:
        """Write the rules used in this run, if any of them had to be parsed (atomically, never raising)."""
        if not self._new:
            return
        self._new = False
        try:
            data = pickle.dumps(
                (self._identity_now(), self._variables, self._used), protocol=pickle.HIGHEST_PROTOCOL
            )
        except Exception:  # noqa: BLE001 - a cache: parsing again next time is the fallback
            return
        write_cache_file(self.path, data)

    def _identity_now(self) -> tuple[object, ...]:
        if self._identity is None:
            self._identity = textual_identity()
        return self._identity

    def _load(self) -> dict[SourceKey, list[RuleSet]]:
        if self._saved is None:
            self._saved = {}
            try:
                with open(self.path, "rb") as file:
                    identity, variables, saved = pickle.load(file)
                if identity == self._identity_now() and variables == self._variables and isinstance(saved, dict):
                    self._saved = saved
            except Exception:  # noqa: BLE001 - missing, corrupt or from another version: parse as usual
                pass
        return self._saved
