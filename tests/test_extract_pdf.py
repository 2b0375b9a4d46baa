"""PDF books: labels, outline, metadata, encryption, scanned pages, broken files, worker processes."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from reader.adapters.extractors import pdf as pdf_module
from reader.adapters.extractors import pdf_pages
from reader.adapters.extractors.pdf import PdfExtractor
from reader.domain.errors import EncryptedBookError, ExtractionError
from tests.fixtures_books import add_outline, add_page_labels, encrypt_pdf, page_words, truncate, write_pdf


@pytest.fixture(scope="module")
def labelled_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Seven pages: i-iii front matter, then 1-4, with a two-level outline."""
    path = tmp_path_factory.mktemp("pdf") / "labelled.pdf"
    sections = [(1, "Preface", 0), (4, "Chapter One", 0), (5, "A Section", 1), (6, "Chapter Two", 0)]
    write_pdf(path, 7, sections=sections)
    return add_page_labels(path, roman_pages=3)


def error_of(path: Path, password: str | None = None, kind: type[ExtractionError] = ExtractionError) -> str:
    with pytest.raises(kind) as caught:
        PdfExtractor().extract(path, password=password)
    message = str(caught.value)
    assert "\n" not in message
    assert str(path) in message
    return message


def child_pids() -> set[int]:
    """Processes (zombies included) whose parent is this process."""
    children = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid():
                children.add(int(entry.name))
    return children


def test_pages_labels_text_and_metadata(labelled_pdf: Path) -> None:
    book = PdfExtractor().extract(labelled_pdf)
    assert book.format == "pdf" and book.pagination == "physical"
    assert [p.label for p in book.pages] == ["i", "ii", "iii", "1", "2", "3", "4"]
    # pypdf gives single newlines between these lines: they are joined (only blank lines split paragraphs).
    assert book.pages[4].text == page_words(5) + " A second paragraph of text on this page."
    assert (book.title, book.author, book.language) == ("A Test Book", "Ann Author", "en-GB")
    assert book.warnings == []


def test_outline_chapters_with_levels_and_pages(labelled_pdf: Path) -> None:
    chapters = PdfExtractor().extract(labelled_pdf).chapters
    assert [(c.title, c.start_page, c.level) for c in chapters] == [
        ("Preface", 1, 0),
        ("Chapter One", 4, 0),
        ("A Section", 5, 1),
        ("Chapter Two", 6, 0),
    ]


def test_outline_entries_without_a_page_are_skipped(tmp_path: Path) -> None:
    path = add_outline(
        write_pdf(tmp_path / "o.pdf", 3), [("Start", 0, 0), ("Nowhere", None, 0), ("Inner", 2, 1)]
    )
    book = PdfExtractor().extract(path)
    assert [(c.title, c.start_page, c.level) for c in book.chapters] == [("Start", 1, 0), ("Inner", 3, 1)]
    assert "Left out 1 outline entry pointing to no page of this file." in book.warnings


def test_missing_metadata_falls_back_to_the_file_name(tmp_path: Path) -> None:
    path = write_pdf(tmp_path / "the_silent_harbour.pdf", 1, title=None, author=None, language=None)
    book = PdfExtractor().extract(path)
    assert (book.title, book.author, book.language) == ("The Silent Harbour", "", "")
    assert [p.label for p in book.pages] == ["1"]


def test_password_protected_pdf(tmp_path: Path) -> None:
    path = encrypt_pdf(write_pdf(tmp_path / "locked.pdf", 2), "s3cret")
    message = error_of(path, kind=EncryptedBookError)
    assert "password-protected; run again with --password" in message
    assert "password is wrong" in error_of(path, "nope", kind=EncryptedBookError)
    book = PdfExtractor().extract(path, password="s3cret")
    assert book.pages[1].text.startswith(page_words(2))


def test_empty_user_password_opens_without_asking(tmp_path: Path) -> None:
    path = encrypt_pdf(write_pdf(tmp_path / "owner_only.pdf", 2), "")
    book = PdfExtractor().extract(path)
    assert book.pages[0].text.startswith(page_words(1))
    assert PdfExtractor().extract(path, password="ignored") == book


def test_image_only_pages_import_blank_with_a_warning(tmp_path: Path) -> None:
    path = write_pdf(tmp_path / "scan.pdf", 3, image_only=[1, 3])
    book = PdfExtractor().extract(path)
    assert [bool(p.text) for p in book.pages] == [False, True, False]
    assert any(
        w.startswith(
            "2 of 3 pages have no text layer (scanned images?); they will be blank until read by OCR"
        )
        for w in book.warnings
    )


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"", "is empty (0 bytes)"),
        (b"Just some text, not a PDF at all.\n", "is not a PDF file"),
        (b"%PDF-1.7\n garbage garbage", "cannot read this PDF"),
    ],
)
def test_bad_files_give_one_line_errors(tmp_path: Path, content: bytes, expected: str) -> None:
    path = tmp_path / "bad book.pdf"
    path.write_bytes(content)
    assert expected in error_of(path)


def test_truncated_pdf_is_refused(tmp_path: Path) -> None:
    path = truncate(write_pdf(tmp_path / "cut.pdf", 4), 0.6)
    assert "damaged or truncated" in error_of(path)


def test_missing_file_and_folder(tmp_path: Path) -> None:
    assert "no such file" in error_of(tmp_path / "absent.pdf")
    with pytest.raises(ExtractionError, match="is a folder"):
        PdfExtractor().extract(tmp_path)


@pytest.fixture(scope="module")
def twelve_pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_pdf(
        tmp_path_factory.mktemp("pdf") / "twelve.pdf", 12, sections=[(1, "One", 0), (7, "Two", 0)]
    )


@pytest.mark.skipif(pdf_pages.usable_cpus() < 2, reason="needs two CPUs")
def test_worker_processes_give_the_same_book_and_leave_no_process(
    twelve_pages: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    in_process: list[int] = []
    original = pdf_module.extract_in_process

    def spy(reader, indexes, texts, report, measures=None, fonts=None):  # type: ignore[no-untyped-def]
        in_process.extend(indexes)
        original(reader, indexes, texts, report, measures, fonts)

    monkeypatch.setattr(pdf_module, "extract_in_process", spy)
    before = child_pids()
    calls: list[tuple[int, int]] = []
    parallel = PdfExtractor(parallel_threshold=4).extract(
        twelve_pages, progress=lambda d, t: calls.append((d, t))
    )
    assert child_pids() == before
    assert in_process == []
    assert parallel == PdfExtractor(workers=1).extract(twelve_pages)
    assert in_process == list(range(12))
    assert calls[0] == (0, 12) and calls[-1] == (12, 12)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_worker_failure_falls_back_to_this_process(
    twelve_pages: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pdf_pages, "_WORKER_MODULE", "reader.no_such_module_here")
    before = child_pids()
    book = PdfExtractor(parallel_threshold=4).extract(twelve_pages)
    assert child_pids() == before
    assert [p.text.split(" tells")[0] for p in book.pages] == [f"Page {i}" for i in range(1, 13)]


def test_encrypted_pdf_in_workers(twelve_pages: Path, tmp_path: Path) -> None:
    path = tmp_path / "locked.pdf"
    shutil.copy(twelve_pages, path)
    encrypt_pdf(path, "pw")
    book = PdfExtractor(parallel_threshold=4).extract(path, password="pw")
    assert book.pages[11].text.startswith(page_words(12))


class Cancelled(Exception):
    """Raised by a progress callback to stop an import."""


def test_a_failing_progress_callback_stops_the_workers(twelve_pages: Path) -> None:
    def cancel(done: int, total: int) -> None:
        if done >= 3:
            raise Cancelled

    before = child_pids()
    with pytest.raises(Cancelled):
        PdfExtractor(parallel_threshold=4).extract(twelve_pages, progress=cancel)
    assert child_pids() == before
