"""The commands that open the app: they need a terminal and say so; demo --print still prints."""

from __future__ import annotations

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
