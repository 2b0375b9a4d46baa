"""PDF imports through the command line: labels, outline, passwords and warnings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader.cli.main import main
from tests.fixtures_books import add_outline, add_page_labels, encrypt_pdf, truncate, write_pdf


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_printed_labels_and_outline_reach_the_commands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pdf = write_pdf(tmp_path / "labelled.pdf", pages=6, title="Labelled")
    add_page_labels(pdf, roman_pages=2)
    add_outline(pdf, [("Preface", 0, 0), ("Chapter One", 2, 0), ("A Section", 3, 1), ("Chapter Two", 4, 0)])
    code, out, _ = run(capsys, "import", str(pdf))
    assert code == 0, out

    code, out, _ = run(capsys, "search-page", "Labelled", "ii", "--json")
    page = json.loads(out)
    assert page["page"] == 2 and page["label"] == "ii" and "number2" in page["text"]

    code, out, _ = run(capsys, "search-page", "Labelled", "1", "--json")  # label "1" is the third page
    assert json.loads(out)["page"] == 3
    code, out, _ = run(capsys, "search-page", "Labelled", "#1", "--json")  # "#1" is the first page
    assert json.loads(out)["label"] == "i"

    code, out, _ = run(capsys, "toc", "Labelled", "--json")
    toc = [json.loads(line) for line in out.splitlines()]
    assert [(c["title"], c["start_label"], c["end_label"], c["level"]) for c in toc] == [
        ("Preface", "i", "ii", 0),
        ("Chapter One", "1", "2", 0),
        ("A Section", "2", "2", 1),
        ("Chapter Two", "3", "4", 0),
    ]

    code, out, _ = run(capsys, "set-page", "Labelled", "iv")
    assert code == 1  # no such label, and 'iv' is not a number


def test_encrypted_pdf_needs_the_password(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pdf = encrypt_pdf(write_pdf(tmp_path / "locked.pdf", pages=2, title="Locked"), "s3cret")
    code, _, err = run(capsys, "import", str(pdf))
    assert code == 1 and "--password" in err and len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "import", str(pdf), "--password", "wrong")
    assert code == 1 and "wrong" in err
    code, out, _ = run(capsys, "import", str(pdf), "--password", "s3cret")
    assert code == 0 and "Imported Locked" in out


def test_image_only_pages_import_with_a_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pdf = write_pdf(tmp_path / "scan.pdf", pages=4, title="Scanned", image_only=(2, 3))
    code, out, _ = run(capsys, "import", str(pdf))
    assert code == 0 and "2 of 4 pages have no text layer" in out
    code, out, _ = run(capsys, "info", "Scanned", "--json")
    assert any("no text layer" in w for w in json.loads(out)["warnings"])


def test_corrupt_pdf_fails_cleanly_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pdf = truncate(write_pdf(tmp_path / "broken.pdf", pages=5), keep=0.4)
    code, _, err = run(capsys, "import", str(pdf))
    assert code == 1 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    code, out, _ = run(capsys, "list", "--json")
    assert out == ""
