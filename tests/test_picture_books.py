"""Books whose pages are pictures (fixed-layout EPUBs, CBZ comics) import with their pictures kept in
the library, and local OCR reads their text; SVG `<text>` in a spine document is text."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from reader.adapters.extractors.cbz import CbzExtractor
from reader.adapters.extractors.epub import EpubExtractor
from reader.adapters.extractors.registry import detect_format
from reader.cli.main import main
from reader.services import Services
from tests.fixtures_books import chapter_html, write_ebooklib_epub
from tests.fixtures_formats import (
    PICTURE_PAGES,
    PICTURE_SIZE,
    page_picture,
    write_cbz,
    write_picture_epub,
    write_svg_text_epub,
)

COMIC_INFO = """<?xml version="1.0"?>
<ComicInfo><Series>Gull Rock</Series><Number>2</Number><Writer>Ann Author</Writer>
<LanguageISO>en</LanguageISO><Pages><Page Image="0" Bookmark="Dawn"/><Page Image="2" Bookmark="Night"/></Pages>
</ComicInfo>"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def stored_pictures(title: str) -> list[tuple[int, str, bytes]]:
    services = Services.open(None)
    try:
        book = services.find_book(title)
        return [
            (n, picture.media_type, picture.data)
            for n in sorted(services.images.pages_with_pictures(book.id))
            if (picture := services.images.picture(book.id, n)) is not None
        ]
    finally:
        services.close()


def test_a_fixed_layout_epub_of_images_has_a_page_per_picture(tmp_path: Path) -> None:
    path = write_picture_epub(tmp_path / "pictures.epub", svg_pages=(2,), caption="Drawn by A. Painter")
    book = EpubExtractor().extract(path)
    assert len(book.pages) == 3 and book.format == "epub" and book.pagination == "physical"
    assert [p.picture.media_type for p in book.pages if p.picture] == ["image/png"] * 3
    assert book.pages[1].picture is not None
    assert book.pages[1].picture.data == page_picture(PICTURE_PAGES[1], *PICTURE_SIZE)  # the svg's image
    assert book.pages[0].text == "Drawn by A. Painter" and book.pages[2].text == ""
    assert all(p.visuals.importance == 5 for p in book.pages)
    assert [(c.title, c.start_page) for c in book.chapters] == [("Dawn", 1), ("Evening", 3)]
    assert book.warnings[-1].startswith("2 of 3 pages are pictures with no text")


def test_a_cbz_pages_in_natural_order_with_its_comic_info(tmp_path: Path) -> None:
    path = write_cbz(tmp_path / "comic.cbz", comic_info=COMIC_INFO)
    assert detect_format(path) == "cbz"
    book = CbzExtractor().extract(path)
    assert (book.title, book.author, book.language, book.format) == ("Gull Rock 2", "Ann Author", "en", "cbz")
    assert [p.picture.data if p.picture else b"" for p in book.pages] == [
        page_picture(lines, *PICTURE_SIZE) for lines in PICTURE_PAGES
    ]  # page9, page10, page11: not page10, page11, page9
    assert [(c.title, c.start_page) for c in book.chapters] == [("Dawn", 1), ("Night", 3)]
    assert book.warnings == [
        "All 3 pages are pictures with no text: search and the chat see nothing of them until `reader ocr "
        "BOOK` (or `reader import --ocr`) reads them."
    ]
    plain = write_cbz(tmp_path / "volumes.zip", folders=["Volume 1", "Volume 1", "Volume 2"])
    assert detect_format(plain) == "cbz"  # a zip of images is a comic, whatever its name
    assert [(c.title, c.start_page) for c in CbzExtractor().extract(plain).chapters] == [
        ("Volume 1", 1),
        ("Volume 2", 3),
    ]


def test_picture_books_without_the_ocr_extra_say_to_install_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "rapidocr_onnxruntime", None)  # as if the extra were not installed
    code, out, err = run(capsys, "import", str(write_cbz(tmp_path / "comic.cbz")))
    assert code == 0, err
    assert "Imported Comic (3 pages)." in out and "pip install 'reader[ocr]'" in out
    assert [(n, kind) for n, kind, _ in stored_pictures("Comic")] == [
        (1, "image/png"),
        (2, "image/png"),
        (3, "image/png"),
    ]
    services = Services.open(None)
    try:  # the viewer draws a page that is a picture: it stands at the page's start with its size
        shown = services.images.on_page(services.find_book("Comic").id, 1)
    finally:
        services.close()
    assert [(image.offset, image.width, image.height) for image in shown] == [(0, *PICTURE_SIZE)]
    code, _, err = run(capsys, "ocr", "Comic")
    assert code == 1 and len(err.splitlines()) == 1 and "pip install 'reader[ocr]'" in err
    code, out, err = run(capsys, "import", "--ocr", str(write_picture_epub(tmp_path / "pictures.epub")))
    assert code == 1 and "Imported Gull Rock Pictures (3 pages)." in out
    assert err.count("\n") == 1 and "needs local OCR: install the OCR extra: pip install 'reader[ocr]'" in err
    code, out, _ = run(capsys, "info", "Comic")
    assert "pictures  cover none; 3 pages are pictures kept in the library; 0 pages have text from OCR" in out
    code, out, _ = run(capsys, "info", "Comic", "--json")
    assert json.loads(out)["picture_pages"] == 3


def test_import_ocr_reads_a_comic_and_ocr_reads_a_picture_epub(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "import", "--ocr", str(write_cbz(tmp_path / "comic.cbz")))
    assert code == 0, err
    assert "read 3 of 3 pages without a text layer by OCR" in out
    run(capsys, "set-page", "Comic", "3")
    code, out, _ = run(capsys, "search", "Comic", "foghorn", "--json")
    hits = [json.loads(line) for line in out.splitlines()]
    assert hits and hits[0]["start_page"] == 3 and "stormy evening" in hits[0]["text"]

    code, out, err = run(
        capsys, "import", str(write_picture_epub(tmp_path / "pictures.epub", svg_pages=(2,)))
    )
    assert code == 0, err
    code, out, err = run(capsys, "ocr", "Gull Rock Pictures", "--pages", "2")  # the page in an svg
    assert code == 0 and "read 1 of 1 pages" in out, err
    code, out, _ = run(capsys, "search-page", "Gull Rock Pictures", "2", "--json")
    assert json.loads(out)["text"] == "Then Margaret rowed the skiff toward the harbour lantern."

    code, _, _ = run(capsys, "remove", "Gull Rock Pictures", "--yes")
    services = Services.open(None)
    try:
        rows = services.db.conn.execute("SELECT count(*) FROM page_images").fetchone()[0]
        assert rows == 3  # the comic's stay, the removed book's went with it
    finally:
        services.close()


def test_ocr_refuses_a_book_of_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_ebooklib_epub(
        tmp_path / "prose.epub", [("One", chapter_html("One", ["Words on the page."]))], title="Prose"
    )
    run(capsys, "import", str(path))
    code, _, err = run(capsys, "ocr", "Prose")
    assert code == 1 and "Prose has no page pictures" in err


def test_svg_text_in_the_spine_is_text(tmp_path: Path) -> None:
    book = EpubExtractor().extract(write_svg_text_epub(tmp_path / "drawn.epub"))
    text = "\n\n".join(page.text for page in book.pages)
    assert "The keeper lit the lamp at the top of the tower.\n\nA gull cried over the rocks." in text
    assert "Margaret rowed the skiff home before the storm broke." in text
    assert "not the story" not in text
    assert all(page.picture is None for page in book.pages)
