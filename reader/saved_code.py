"""The methods `dataclasses` writes for each dataclass, compiled once and kept in a file between runs, as
Python keeps compiled modules in .pyc files.

For every dataclass, `dataclasses` writes the source of its `__init__`, `__repr__`, `__eq__` (and more for
frozen ones) and compiles it with `exec`, each time the class is defined. Python caches the compiled code
of modules, not these strings: measured on this machine, the app's start-up defines 87 dataclasses
(textual's, rich's and reader's), 72 ms in all, 9 ms of every 14 compiling. With the compiled code read
from the file, a class costs what running that code costs.

Only what `dataclasses` hands to `exec` goes through here (its module-level name `exec` is pointed at
`SavedCode.exec`); the same source text always gives the same code, so the code is looked up by its text.
Anything wrong with the file (missing, corrupt, written by another Python) means compiling as usual;
writing is skipped when the cache folder cannot be written.
"""

from __future__ import annotations

import atexit
import builtins
import marshal
import sys
from pathlib import Path
from types import CodeType
from typing import Any

from reader.cache_file import write_cache_file

FORMAT = 2
"""Bumped when what is saved changes shape (2: each source's code marshalled on its own, read when used)."""

MAX_ENTRIES = 4000
"""A file holding more is started afresh (sources change when the dataclasses do)."""


def python_identity() -> str:
    """What compiled the code: code objects are only read back by the Python that wrote them."""
    return f"{FORMAT} {sys.implementation.cache_tag} {sys.version}"


class SavedCode:
    """Compiled code by source text, read from `path` when made and written back at exit when new.

    Each source's code is kept marshalled on its own and unmarshalled when that source is met: the file
    holds the dataclasses of every command run so far (some 900 after the demo and a question, 1 MB), the
    app's start-up meets about 390 of them (measured: 1.4 ms to read the file, 3 ms for those 390, against
    6.6 ms to unmarshal all of it at once).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.saved: dict[str, bytes] = self._load()
        self.fresh: dict[str, bytes] = {}
        """Code compiled in this run, to be saved."""
        self.read = 0
        """Sources whose code came from the file in this run."""

    @property
    def compiled(self) -> int:
        """Sources compiled in this run (to be saved)."""
        return len(self.fresh)

    def _load(self) -> dict[str, bytes]:
        try:
            identity, code = marshal.loads(self.path.read_bytes())
        except Exception:  # noqa: BLE001 - a cache: compiling as usual is the fallback
            return {}
        if identity != python_identity() or not isinstance(code, dict):
            return {}
        return code

    def exec(self, source: Any, globals: Any = None, locals: Any = None, /) -> None:  # noqa: A002
        """`exec`, with a source string's compiled code taken from (or added to) the saved code."""
        if isinstance(source, str):
            code = self._code(source)
            if code is None:
                code = compile(source, "<string>", "exec")
                self.fresh[source] = marshal.dumps(code)
            source = code
        builtins.exec(source, globals, locals)

    def _code(self, source: str) -> CodeType | None:
        data = self.saved.get(source)
        if data is None:
            return None
        try:
            code = marshal.loads(data)
        except Exception:  # noqa: BLE001 - a damaged entry: compiled again
            return None
        if not isinstance(code, CodeType):
            return None
        self.read += 1
        return code

    def save(self) -> None:
        """Write the code back if this run compiled any (atomically; nothing when it cannot be written, or
        when Python is told not to write bytecode: PYTHONDONTWRITEBYTECODE, -B)."""
        if not self.fresh or sys.dont_write_bytecode:
            return
        code = {**self.saved, **self.fresh} if len(self.saved) + len(self.fresh) <= MAX_ENTRIES else dict(self.fresh)
        if write_cache_file(self.path, marshal.dumps((python_identity(), code))):
            self.saved, self.fresh = code, {}


_installed: SavedCode | None = None


def use_saved_code(path: Path | None = None) -> SavedCode:
    """Compile dataclasses' methods once (see the module's docstring), from here on in this process.

    Called by the `reader` program and the app before their modules are imported; saved at exit. Once per
    process: a second call returns the first's.
    """
    global _installed
    if _installed is None:
        import dataclasses

        if path is None:
            from reader.locations import saved_code_path

            path = saved_code_path()
        _installed = SavedCode(path)
        dataclasses.exec = _installed.exec  # type: ignore[attr-defined]
        atexit.register(_installed.save)
    return _installed
