"""Code Python compiles at every start-up and does not keep, compiled once and kept in files between runs,
as Python keeps compiled modules in .pyc files: dataclasses' methods and regular expressions.

For every dataclass, `dataclasses` writes the source of its `__init__`, `__repr__`, `__eq__` (and more for
frozen ones) and compiles it with `exec`, each time the class is defined. For every regular expression,
`re` parses the pattern and writes the regex engine's program for it in Python (`re._parser`,
`re._compiler`). Measured on this machine, the app's start-up defines 87 dataclasses (textual's, rich's and
reader's), 72 ms in all, 9 ms of every 14 compiling; and compiles 77 regular expressions, 28 ms. With the
compiled code read from a file, a class costs what running that code costs, and a pattern what making it
from its program costs (`_sre.compile`, the step `re._compiler.compile` ends with).

Only what `dataclasses` hands to `exec` goes through here (its module-level name `exec` is pointed at
`SavedCode.exec`), and patterns `re` compiles from a string (`re._compiler.compile` is pointed at
`SavedPatterns.compile`); the same source gives the same code, so the code is looked up by its source.
Anything wrong with a file (missing, corrupt, written by another Python) means compiling as usual; writing
is skipped when the cache folder cannot be written.
"""

from __future__ import annotations

import _sre
import atexit
import builtins
import marshal
import re
import sys
from collections.abc import Hashable
from pathlib import Path
from types import CodeType
from typing import Any

from reader.cache_file import write_cache_file

FORMAT = 2
"""Bumped when what is saved changes shape (2: each source's code marshalled on its own, read when used)."""

MAX_ENTRIES = 4000
"""A file of dataclass code holding more is started afresh (sources change when the dataclasses do)."""

MAX_PATTERNS = 500
"""A file of patterns holding more is started afresh: some patterns are made from what a reader types (a
search's words), and a file that only grew would cost more to read than it saves (the app's start-up
compiles about 80)."""


def python_identity() -> str:
    """What compiled the code: code objects are only read back by the Python that wrote them."""
    return f"{FORMAT} {sys.implementation.cache_tag} {sys.version}"


class SavedEntries:
    """Compiled code by its source, read from `path` when made and written back at exit when new.

    Each source's code is kept marshalled on its own and unmarshalled when that source is met: the file
    holds what every command run so far compiled (some 900 dataclasses after the demo and a question,
    1 MB), the app's start-up meets about 390 of them (measured: 1.4 ms to read the file, 3 ms for those
    390, against 6.6 ms to unmarshal all of it at once).
    """

    max_entries = MAX_ENTRIES

    def __init__(self, path: Path, identity: str) -> None:
        self.path = path
        self.identity = identity
        self.saved: dict[Any, bytes] = self._load()
        self.fresh: dict[Any, bytes] = {}
        """Code compiled in this run, to be saved."""
        self.read = 0
        """Sources whose code came from the file in this run."""

    @property
    def compiled(self) -> int:
        """Sources compiled in this run (to be saved)."""
        return len(self.fresh)

    def _load(self) -> dict[Any, bytes]:
        try:
            identity, code = marshal.loads(self.path.read_bytes())
        except Exception:  # noqa: BLE001 - a cache: compiling as usual is the fallback
            return {}
        if identity != self.identity or not isinstance(code, dict):
            return {}
        return code

    def _entry(self, source: Hashable) -> Any:
        """The saved code of `source`, unmarshalled (None when there is none or it is damaged)."""
        data = self.saved.get(source)
        if data is None:
            return None
        try:
            return marshal.loads(data)
        except Exception:  # noqa: BLE001 - a damaged entry: compiled again
            return None

    def _add(self, source: Hashable, code: Any) -> None:
        if len(self.fresh) >= self.max_entries:
            return  # a long session making patterns from what is typed: the file would start afresh anyway
        try:
            self.fresh[source] = marshal.dumps(code)
        except ValueError:  # not marshallable: compiled again next time
            pass

    def save(self) -> None:
        """Write the code back if this run compiled any (atomically; nothing when it cannot be written, or
        when Python is told not to write bytecode: PYTHONDONTWRITEBYTECODE, -B)."""
        if not self.fresh or sys.dont_write_bytecode:
            return
        code = (
            {**self.saved, **self.fresh}
            if len(self.saved) + len(self.fresh) <= self.max_entries
            else dict(self.fresh)
        )
        if write_cache_file(self.path, marshal.dumps((self.identity, code))):
            self.saved, self.fresh = code, {}


class SavedCode(SavedEntries):
    """Dataclasses' methods: the code object compiled from each source text given to `exec`."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, python_identity())

    def exec(self, source: Any, globals: Any = None, locals: Any = None, /) -> None:  # noqa: A002
        """`exec`, with a source string's compiled code taken from (or added to) the saved code."""
        if isinstance(source, str):
            code = self._entry(source)
            if isinstance(code, CodeType):
                self.read += 1
            else:
                code = compile(source, "<string>", "exec")
                self._add(source, code)
            source = code
        builtins.exec(source, globals, locals)


def engine_identity() -> str:
    """What a pattern's program is written for: the regex engine of this Python."""
    return f"{python_identity()} sre {_sre.MAGIC} {_sre.CODESIZE}"


class SavedPatterns(SavedEntries):
    """Regular expressions: for each (pattern, flags), what `_sre.compile` makes the pattern from (its final
    flags, the engine's program, its groups and their names)."""

    max_entries = MAX_PATTERNS

    def __init__(self, path: Path) -> None:
        from re import _compiler  # type: ignore[attr-defined]

        super().__init__(path, engine_identity())
        self.compile_as_usual = _compiler.compile

    def compile(self, pattern: Any, flags: int = 0) -> Any:
        """`re._compiler.compile`, with the program of a pattern given as a string taken from (or added to)
        the saved ones."""
        if not isinstance(pattern, (str, bytes)) or flags & re.DEBUG:
            return self.compile_as_usual(pattern, flags)
        source = (pattern, int(flags))
        made = self._entry(source)
        if isinstance(made, tuple) and len(made) == 5:
            try:
                compiled = _sre.compile(pattern, *made)
            except Exception:  # noqa: BLE001 - a damaged entry: compiled again
                pass
            else:
                self.read += 1
                return compiled
        made = self._program(pattern, flags)
        self._add(source, made)
        return _sre.compile(pattern, *made)

    @staticmethod
    def _program(
        pattern: str | bytes, flags: int
    ) -> tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]:
        """What `re._compiler.compile` hands `_sre.compile` after the pattern: made the same way."""
        from re import _compiler, _parser  # type: ignore[attr-defined]

        parsed = _parser.parse(pattern, flags)
        groups: dict[str, int] = parsed.state.groupdict
        names: list[str | None] = [None] * parsed.state.groups
        for name, index in groups.items():
            names[index] = name
        # the opcodes are int subclasses: plain ints marshal
        program = [int(op) for op in _compiler._code(parsed, flags)]
        return (
            int(flags | parsed.state.flags),
            program,
            parsed.state.groups - 1,
            dict(groups),
            tuple(names),
        )

    def agrees(self) -> bool:
        """Whether patterns made here are the ones `re` makes (the same program, flags and groups: Pattern's
        ==), checked on a pattern using what patterns use; False on a Python whose `re` works otherwise."""
        probe = r"(?P<word>\w+)[ \t]*(?:\d{2,4}|[^\W\d]+?)(?i:x|Y)(?=z)(?<!q)(?P=word)\Z"
        try:
            return bool(_sre.compile(probe, *self._program(probe, 0)) == self.compile_as_usual(probe, 0))
        except Exception:  # noqa: BLE001 - not installed: compiling as usual
            return False


_installed: SavedCode | None = None
_installed_patterns: SavedPatterns | None = None


def use_saved_code(path: Path | None = None, patterns_path: Path | None = None) -> SavedCode:
    """Compile dataclasses' methods and regular expressions once (see the module's docstring), from here on
    in this process.

    Called by the `reader` program and the app before their modules are imported; saved at exit. Once per
    process: a second call returns the first's.
    """
    global _installed, _installed_patterns
    if _installed is None:
        import dataclasses
        from re import _compiler  # type: ignore[attr-defined]

        from reader.locations import saved_code_path, saved_patterns_path

        _installed = SavedCode(path or saved_code_path())
        dataclasses.exec = _installed.exec  # type: ignore[attr-defined]
        atexit.register(_installed.save)
        patterns = SavedPatterns(patterns_path or saved_patterns_path())
        if patterns.agrees():
            _installed_patterns = patterns
            _compiler.compile = patterns.compile
            atexit.register(patterns.save)
    return _installed
