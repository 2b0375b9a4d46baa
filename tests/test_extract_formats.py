"""Single-file HTML, FB2 (plain and zipped) and MOBI books: chapters, metadata, limits, DRM."""

from __future__ import annotations

import json
import time
import zipfile
from pathlib import Path

import pytest

from reader.adapters.extractors.fb2 import Fb2Extractor
from reader.adapters.extractors.html_book import HtmlExtractor
from reader.adapters.extractors.mobi_book import MobiExtractor
from reader.adapters.extractors.registry import extractor_for
from reader.cli.main import main
from reader.domain.errors import ExtractionError
from tests.fixtures_books import billion_laughs_doctype, xxe_doctype, zip_bomb_member
from tests.fixtures_formats import fb2_document, write_fb2, write_html_book, write_mobi


def words(chapter: int, count: int) -> list[str]:
    return [f"Chapter {chapter} paragraph {i} " + " ".join(["meadow"] * 40) + "." for i in range(count)]


def error_of(path: Path) -> str:
    with pytest.raises(ExtractionError) as caught:
        extractor_for(path).extract(path)
    message = str(caught.value)
    assert "\n" not in message and "Traceback" not in message
    return message


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_html_book_headings_become_chapters(tmp_path: Path) -> None:
    path = write_html_book(tmp_path / "web.html", [(f"Part {n}", words(n, 30)) for n in (1, 2, 3)])
    assert isinstance(extractor_for(path), HtmlExtractor)
    book = extractor_for(path).extract(path)
    assert (book.title, book.author, book.language, book.format) == ("A Web Book", "Ada Html", "en", "html")
    assert book.pagination == "synthetic" and not book.warnings
    # the h1 is the book's title (seen once); the h2s, seen three times, start documents and pages
    assert [(c.title, c.level) for c in book.chapters] == [("Part 1", 0), ("Part 2", 0), ("Part 3", 0)]
    starts = [c.start_page for c in book.chapters]
    assert starts[0] == 1 and starts == sorted(starts) and len(set(starts)) == 3
    assert book.pages[starts[1] - 1].text.startswith("Part 2\n\nChapter 2 paragraph 0")
    assert all(len(page.text) < 4000 for page in book.pages)
    again = extractor_for(path).extract(path)
    assert [p.text for p in again.pages] == [p.text for p in book.pages]


def test_html_without_meta_tags_takes_author_and_language_from_its_header(tmp_path: Path) -> None:
    # Project Gutenberg's HTML books keep their fields in a preformatted header, not in <meta> tags
    header = "Title: Lamps of the Mill\n\nAuthor: Ada Pre\n\nLanguage: French\n\n*** START OF THE BOOK ***"
    body = "".join(f"<p>{line}</p>" for line in words(1, 30))
    path = tmp_path / "pg.html"
    path.write_text(
        f"<html><head><title>Lamps</title></head><body><pre>{header}</pre><h2>One</h2>{body}</body></html>",
        encoding="utf-8",
    )
    book = extractor_for(path).extract(path)
    assert (book.title, book.author, book.language) == ("Lamps", "Ada Pre", "fr")


def test_html_without_charset_is_decoded_like_a_text_book(tmp_path: Path) -> None:
    text = ["Она шла по дороге к старой мельнице, и ветер гнал листья по полю."] * 8
    path = write_html_book(
        tmp_path / "old.htm",
        [("Глава первая", text)],
        title="Мельница",
        encoding="cp1251",
        charset_meta=False,
    )
    book = extractor_for(path).extract(path)
    assert book.title == "Мельница" and "старой мельнице" in book.pages[0].text


def test_xhtml_entities_never_expand(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-XXE-CONTENT")
    body = "<h1>Title &xxe;</h1><p>Before &xxe; after &nbsp;x.</p>"
    for name, doctype in (("xxe.xhtml", xxe_doctype(secret)), ("lol.xhtml", billion_laughs_doctype())):
        path = tmp_path / name
        path.write_text(
            f'<?xml version="1.0" encoding="utf-8"?>{doctype}<html xmlns="http://www.w3.org/1999/xhtml">'
            f"<head><title>T</title></head><body>{body.replace('&xxe;', '&lol9;' if 'lol' in name else '&xxe;')}"
            "</body></html>"
        )
        start = time.perf_counter()
        book = extractor_for(path).extract(path)
        assert time.perf_counter() - start < 1
        assert "TOP-SECRET" not in repr(book) and "lollol" not in repr(book)
        assert "Before" in book.pages[0].text and "after" in book.pages[0].text  # a bomb may stay literal


def test_fb2_sections_notes_and_images(tmp_path: Path) -> None:
    document = fb2_document(
        [(f"Chapter {n}", words(n, 12)) for n in (1, 2)], notes=[("n1", "The note's own text.")], image=True
    )
    path = write_fb2(tmp_path / "steppe.fb2", document)
    assert isinstance(extractor_for(path), Fb2Extractor)
    book = extractor_for(path).extract(path)
    assert (book.title, book.author, book.language, book.format) == (
        "The Steppe Road",
        "Ivan Petrov",
        "ru",
        "fb2",
    )
    assert [c.title for c in book.chapters] == ["Chapter 1", "Chapter 2", "Notes"]
    whole = "\n".join(page.text for page in book.pages)
    assert "A remark[1] in passing." in whole
    assert book.pages[-1].text.startswith("Notes") and "The note's own text." in book.pages[-1].text
    assert "iVBOR" not in whole  # the binary image is never text
    assert sum(page.visuals.image_count for page in book.pages) == 1
    note = next(c for c in book.chapters if c.title == "Notes")
    chapter_two = next(c for c in book.chapters if c.title == "Chapter 2")
    assert note.start_page > chapter_two.start_page


def test_fb2_zip_and_legacy_encodings(tmp_path: Path) -> None:
    document = fb2_document([("Глава", ["Ветер гнал листья по полю у мельницы."] * 5)], title="Мельница",
                            encoding="windows-1251")  # fmt: skip
    path = write_fb2(tmp_path / "mill.fb2.zip", document, encoding="cp1251")
    book = extractor_for(path).extract(path)
    assert book.title == "Мельница" and "листья" in book.pages[0].text
    undeclared = write_fb2(
        tmp_path / "plain.fb2", document.replace(' encoding="windows-1251"', ""), encoding="cp1251"
    )
    assert "листья" in extractor_for(undeclared).extract(undeclared).pages[0].text


def test_fb2_entities_and_zip_bombs_are_refused(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-XXE-CONTENT")
    for name, doctype, entity in (
        ("xxe.fb2", xxe_doctype(secret, "FictionBook"), "&xxe;"),
        ("lol.fb2", billion_laughs_doctype("FictionBook"), "&lol9;"),
    ):
        document = fb2_document([("One", [f"Before {entity} after."])], doctype=doctype)
        start = time.perf_counter()
        book = extractor_for(write_fb2(tmp_path / name, document)).extract(tmp_path / name)
        assert time.perf_counter() - start < 1
        assert "TOP-SECRET" not in repr(book) and "lollol" not in repr(book)
        assert "Before after." in book.pages[0].text
    bomb = tmp_path / "bomb.fb2.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("book.fb2", fb2_document([("One", ["x"])]))
        archive.writestr("zeros.bin", zip_bomb_member(8 << 20))
    assert "possible zip bomb" in error_of(bomb)
    not_fb2 = tmp_path / "other.fb2"
    not_fb2.write_text("<?xml version='1.0'?><html><body>hi</body></html>")
    assert "not a readable FB2 book" in error_of(not_fb2)


def test_mobi_unpacks_to_html_and_reads_as_a_book(tmp_path: Path) -> None:
    """No MOBI writer is available on PyPI (kindlegen is gone), so the test writes a minimal
    Mobipocket 6 file byte by byte (tests/fixtures_formats.write_mobi) and reads it through the real
    `mobi` unpacker and the HTML path."""
    html = (
        "<html><head><title>x</title></head><body>"
        + "".join(
            f"<h2>Chapter {n}</h2>" + "".join(f"<p>{p}</p>" for p in words(n, 12)) + "<mbp:pagebreak/>"
            for n in (1, 2, 3)
        )
        + "</body></html>"
    )
    path = write_mobi(tmp_path / "tale.mobi", html, title="Kindle Tale", author="Mo Bi")
    assert isinstance(extractor_for(path), MobiExtractor)
    book = extractor_for(path).extract(path)
    assert (book.title, book.author, book.format) == ("Kindle Tale", "Mo Bi", "mobi")
    assert [c.title for c in book.chapters] == ["Chapter 1", "Chapter 2", "Chapter 3"]
    assert book.pages[0].text.startswith("Chapter 1\n\nChapter 1 paragraph 0 meadow")
    assert not list(Path(tmp_path).glob("reader-mobi-*"))


def test_drm_and_damaged_kindle_books_get_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for crypto in (1, 2):
        path = write_mobi(tmp_path / f"locked{crypto}.azw3", "<p>secret text</p>", crypto=crypto)
        assert error_of(path) == (
            f"{path} is DRM-protected (Kindle encryption); reader cannot open it. Import a DRM-free copy instead."
        )
    damaged = tmp_path / "cut.mobi"
    damaged.write_bytes(b"\0" * 60 + b"BOOKMOBI" + b"\0" * 10)
    assert "is not a readable Kindle book" in error_of(damaged)
    garbage = tmp_path / "garbage.mobi"
    garbage.write_bytes(write_mobi(tmp_path / "g.mobi", "<p>x</p>").read_bytes()[:400])
    message = error_of(garbage)
    assert message.startswith(str(garbage)) and "Traceback" not in message
    code, out, err = run(capsys, "import", str(tmp_path / "locked2.azw3"))
    assert code != 0 and "DRM-protected" in out + err and "Traceback" not in out + err


def test_new_formats_import_and_search_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "books"
    folder.mkdir()
    write_html_book(folder / "web.xhtml", [("One", ["The lamplighter sang softly."] * 3)], title="Lamps")
    write_fb2(folder / "road.fb2.zip", fb2_document([("One", ["The caravan reached the oasis."] * 3)]))
    write_mobi(folder / "tale.mobi", "<p>" + "The ferryman rowed on. " * 5 + "</p>", title="Ferry")
    (folder / "unrelated.zip").write_bytes(b"PK\x05\x06" + b"\0" * 18)
    code, out, err = run(capsys, "import", str(folder), "--json")
    outcomes = [json.loads(line) for line in out.splitlines()]
    assert code == 0, out + err
    assert sorted(o["status"] for o in outcomes) == ["imported"] * 3
    for query, title in (("lamplighter", "Lamps"), ("oasis", "The Steppe Road"), ("ferryman", "Ferry")):
        code, out, _ = run(capsys, "search", title, query, "--json")
        assert code == 0 and query in out.lower(), out
