"""The commands that open the app: they need a terminal and say so; demo --print still prints."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from reader.cli.main import build_parser, main


def test_open_and_default_need_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 2  # under pytest stdin is not a terminal
    assert "needs a terminal" in capsys.readouterr().err
    assert main([]) == 2
    assert "reader demo --print" in capsys.readouterr().err
    assert main(["open", "keeper"]) == 2


def test_open_names_a_missing_book(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--print"]) == 0
    capsys.readouterr()
    assert main(["open", "no such title whatsoever"]) == 1
    assert "No book matches" in capsys.readouterr().err


def test_open_is_a_command() -> None:
    args = build_parser().parse_args(["open", "Gull Rock"])
    assert args.book == "Gull Rock"


def test_the_command_table_matches_what_the_modules_register() -> None:
    from reader.cli.main import COMMAND_MODULES, command_module

    for name, commands in COMMAND_MODULES.items():
        parser = argparse.ArgumentParser()
        subparsers = parser.add_subparsers()
        command_module(name).register(subparsers)
        assert tuple(subparsers.choices) == commands, name


def test_a_command_loads_only_its_own_module() -> None:
    """`reader open` must not pay for the chat, OCR or enrichment modules (checked in a fresh process)."""
    code = (
        "import sys; from reader.cli.main import build_parser; build_parser(['open', 'x']); "
        "print(sorted(m for m in sys.modules if m.startswith('reader.cli.') and m.endswith('_commands')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['reader.cli.app_commands']"
    assert build_parser(["--help"]).format_help().count("stats") == 1  # help lists every command
    assert "ocr" in build_parser(["no-such-command"]).format_help()  # argparse names the real ones


def test_the_library_option_is_not_taken_for_a_command() -> None:
    from reader.cli.main import modules_for

    assert modules_for(["--db", "open", "list"]) == ["library_commands"]  # a library file named "open"
    assert modules_for(["--db", "lib.db"]) == ["app_commands"]
    assert modules_for([]) == ["app_commands"]
