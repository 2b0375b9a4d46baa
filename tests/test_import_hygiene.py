"""The core (domain/ and app/) never imports the UI, the LLM client or the SQLite driver."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import reader.app
import reader.domain

FORBIDDEN = ("textual", "litellm", "sqlean", "sqlite3", "sqlite_vec", "pypdf", "ebooklib", "openai")


def core_modules() -> list[str]:
    names = []
    for package in (reader.domain, reader.app):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            names.append(info.name)
    return names


def test_core_imports_no_outer_layer() -> None:
    modules = core_modules()
    assert "reader.domain.models" in modules
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        f"print(','.join(m for m in {FORBIDDEN!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"core imported: {out.stdout.strip()}"


def test_cli_start_up_does_not_import_litellm() -> None:
    code = "import sys; import reader.cli.main, reader.services; print('litellm' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


LAZY_AT_START_UP = (
    "reader.domain.ports",
    "reader.domain.search",
    "reader.adapters.sqlite.bookmark_repository",
    "reader.tui.screens.marks_screen",
    "reader.tui.screens.text_screen",
)
"""Imported where they are used (dialogs, imports, removals), not by the app's start-up."""


def test_app_start_up_does_not_import_lazy_modules() -> None:
    code = (
        "import sys; import reader.services, reader.tui.app\n"
        f"print(','.join(m for m in {LAZY_AT_START_UP!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"start-up imported: {out.stdout.strip()}"
