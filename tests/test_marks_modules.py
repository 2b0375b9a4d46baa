"""The page viewer's marks are split by job into small modules that import each other without cycles."""

from __future__ import annotations

import ast
from pathlib import Path

import reader

TUI = Path(reader.__file__).parent / "tui"
MARK_MODULES = ("marked_page", "mark_writes", "visual_mode", "search_hits", "page_marks", "page_content")


def runtime_imports(path: Path) -> set[str]:
    """The reader.tui widget and pane modules `path` imports at run time (TYPE_CHECKING blocks left out)."""
    found: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(("reader.tui.widgets.", "reader.tui.panes.")):
            found.add(node.module.rsplit(".", 1)[1])
    return found


def module_file(name: str) -> Path:
    """A widget's or pane's file (the page viewer and its marks are panes; their parts widgets)."""
    pane = TUI / "panes" / f"{name}.py"
    return pane if pane.exists() else TUI / "widgets" / f"{name}.py"


def test_mark_modules_are_small_and_import_without_cycles() -> None:
    graph = {name: runtime_imports(module_file(name)) for name in (*MARK_MODULES, "page_viewer")}
    for name in MARK_MODULES:
        assert len(module_file(name).read_text(encoding="utf-8").splitlines()) <= 300, name
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join((*path, name))
        if name in done or name not in graph:
            return
        for imported in graph[name]:
            visit(imported, (*path, name))
        done.add(name)

    visit("page_viewer", ())
    assert set(MARK_MODULES) <= done
    assert "page_viewer" not in set().union(*(graph[name] for name in MARK_MODULES))
