"""Dataclasses' methods compiled once and kept in a file (reader.saved_code)."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest

from reader.saved_code import SavedCode, SavedPatterns


@pytest.fixture(autouse=True)
def bytecode_written(monkeypatch: pytest.MonkeyPatch) -> None:
    """As Python writes .pyc files by default (this machine's shell sets PYTHONDONTWRITEBYTECODE)."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


def define_point() -> type:
    @dataclasses.dataclass(frozen=True)
    class Point:
        x: int
        y: int = 2
        tags: tuple[str, ...] = ()

    return Point


def test_dataclasses_made_from_saved_code_behave_as_compiled_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "code.marshal"
    first = SavedCode(path)
    monkeypatch.setattr(dataclasses, "exec", first.exec, raising=False)
    define_point()
    compiled = first.compiled
    assert compiled > 0 and first.read == 0
    first.save()
    assert path.exists()

    second = SavedCode(path)
    monkeypatch.setattr(dataclasses, "exec", second.exec, raising=False)
    point = define_point()
    assert second.read == compiled and second.compiled == 0
    a = point(1)
    assert a == point(1, 2) and a != point(1, 3) and hash(a) == hash(point(1))
    assert repr(a).endswith("Point(x=1, y=2, tags=())")
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.x = 5  # type: ignore[misc]


def test_a_corrupt_or_foreign_file_means_compiling_as_usual(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "code.marshal"
    path.write_bytes(b"not marshal data")
    saved = SavedCode(path)
    assert saved.saved == {}
    monkeypatch.setattr(dataclasses, "exec", saved.exec, raising=False)
    assert define_point()(3).y == 2
    saved.save()  # replaces the corrupt file
    assert SavedCode(path).saved

    import marshal

    code = marshal.dumps(compile("1", "<string>", "exec"))
    path.write_bytes(marshal.dumps(("2 another-python 0.0", {"def f(): pass": code})))
    assert SavedCode(path).saved == {}


def test_a_damaged_entry_is_compiled_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import marshal

    from reader.saved_code import python_identity

    path = tmp_path / "code.marshal"
    first = SavedCode(path)
    monkeypatch.setattr(dataclasses, "exec", first.exec, raising=False)
    define_point()
    first.save()
    _, code = marshal.loads(path.read_bytes())
    path.write_bytes(marshal.dumps((python_identity(), dict.fromkeys(code, b"not code"))))
    damaged = SavedCode(path)
    monkeypatch.setattr(dataclasses, "exec", damaged.exec, raising=False)
    point = define_point()
    assert point(4) == point(4, 2)
    assert damaged.read == 0 and damaged.compiled == len(code)


def test_an_unwritable_cache_folder_is_no_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    saved = SavedCode(blocker / "code.marshal")  # its folder cannot be made: a file is in the way
    monkeypatch.setattr(dataclasses, "exec", saved.exec, raising=False)
    define_point()
    saved.save()
    assert not (blocker / "code.marshal").exists()


def test_nothing_is_written_where_python_writes_no_bytecode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved = SavedCode(tmp_path / "code.marshal")
    monkeypatch.setattr(dataclasses, "exec", saved.exec, raising=False)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    define_point()
    saved.save()
    assert saved.compiled and not (tmp_path / "code.marshal").exists()


def test_the_reader_program_saves_the_code_and_reads_it_back(tmp_path: Path) -> None:
    env = {
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "READER_DB": str(tmp_path / "library.db"),
        "HOME": str(tmp_path),
    }
    script = (
        "import sys; from reader.cli.main import run; from reader import saved_code; "
        "sys.argv = ['reader', 'list']; code = run(); s = saved_code._installed; p = saved_code._installed_patterns; "
        "print(code, s.read, s.compiled, p.read, p.compiled)"
    )
    first = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    for kind in ("dataclass", "regex"):  # the cache folder under HOME on any platform
        assert len(list(tmp_path.rglob(f"{kind}-code-*.marshal"))) == 1, kind
    second = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    status, read, compiled, patterns_read, patterns_compiled = second.stdout.split()[-5:]
    assert status == "0" and int(read) > 20 and int(compiled) == 0, (first.stdout, second.stdout)
    assert int(patterns_read) > 5 and int(patterns_compiled) == 0, (first.stdout, second.stdout)


PATTERNS = [
    (r"^\s*chapter\s+(?P<number>\d{1,4}|[ivxlcdm]+)\b", re.IGNORECASE),
    (r"(?m)^(?P<mark>[#>]+)\s(?P<rest>.*)$", 0),
    (
        r"""
        (?P<word>[^\W\d_]+)   # a word
        (?:-(?P=word))?       # repeated after a hyphen
     """,
        re.VERBOSE,
    ),
    (r"(?<=«)[^»]{1,80}(?=»)|\u201c[^\u201d]*\u201d", 0),
    (rb"\x1b\[(?P<params>[0-9;]*)(?P<final>[A-Za-z])", 0),
    (r"[\u4e00-\u9fff]+|[a-z]+(?:'[a-z]+)?", re.IGNORECASE | re.ASCII),
]
TEXTS = [
    "Chapter XII: The Gale",
    "## Heading\n> quote",
    "well-well done",
    "«Bonjour» \u201chello\u201d",
    "中文 Don't",
]


def test_patterns_made_from_saved_programs_are_the_ones_re_makes(tmp_path: Path) -> None:
    path = tmp_path / "regex.marshal"
    first = SavedPatterns(path)
    assert first.agrees()
    made = [first.compile(pattern, flags) for pattern, flags in PATTERNS]
    assert first.compiled == len(PATTERNS) and first.read == 0
    first.save()

    second = SavedPatterns(path)
    again = [second.compile(pattern, flags) for pattern, flags in PATTERNS]
    assert second.read == len(PATTERNS) and second.compiled == 0
    for (pattern, flags), saved, fresh in zip(PATTERNS, again, made, strict=True):
        usual = re._compiler.compile(pattern, flags)  # type: ignore[attr-defined]
        assert saved == usual == fresh  # Pattern's ==: the same program, flags and groups
        assert (saved.groups, saved.groupindex, saved.flags) == (usual.groups, usual.groupindex, usual.flags)
        for text in TEXTS:
            subject = text.encode() if isinstance(pattern, bytes) else text
            assert [m.groupdict() for m in saved.finditer(subject)] == [
                m.groupdict() for m in usual.finditer(subject)
            ]


def test_a_damaged_or_foreign_pattern_file_means_compiling_as_usual(tmp_path: Path) -> None:
    import marshal

    path = tmp_path / "regex.marshal"
    first = SavedPatterns(path)
    for pattern, flags in PATTERNS:
        first.compile(pattern, flags)
    first.save()
    identity, programs = marshal.loads(path.read_bytes())
    damaged = {source: marshal.dumps((0, [1, 2, 3], 0, {}, ())) for source in programs}  # not a program
    path.write_bytes(marshal.dumps((identity, damaged)))
    second = SavedPatterns(path)
    for pattern, flags in PATTERNS:
        assert second.compile(pattern, flags) == re._compiler.compile(pattern, flags)  # type: ignore[attr-defined]
    assert second.read == 0 and second.compiled == len(PATTERNS)
    path.write_bytes(marshal.dumps(("another python", programs)))
    assert SavedPatterns(path).saved == {}


def test_a_pattern_file_grown_past_its_bound_starts_afresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import marshal

    monkeypatch.setattr(SavedPatterns, "max_entries", 3)
    path = tmp_path / "regex.marshal"
    for words in (
        ["tide", "harbour"],
        ["gull"],
        ["storm", "rock"],
    ):  # patterns made from what a reader searched
        saved = SavedPatterns(path)
        for word in words:
            saved.compile(rf"\b{re.escape(word)}\b", re.IGNORECASE)
        saved.save()
    _, programs = marshal.loads(path.read_bytes())
    assert sorted(pattern for pattern, _ in programs) == [r"\brock\b", r"\bstorm\b"]
