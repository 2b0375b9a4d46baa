"""EPUB books: metadata, navigation, print and synthetic pages, broken and hostile files."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from reader.adapters.extractors.epub import EpubExtractor
from reader.domain.errors import ExtractionError
from reader.domain.extracted import ExtractedBook
from tests.fixtures_books import (
    billion_laughs_doctype,
    chapter_html,
    encryption_xml,
    nav_document,
    ncx_document,
    write_ebooklib_epub,
    write_hand_epub,
    write_zip,
    xhtml,
    xxe_doctype,
    zip_bomb_member,
)


def paragraphs(chapter: int, count: int, words: int = 40) -> list[str]:
    return [f"Chapter {chapter} paragraph {i} " + " ".join(["tide"] * words) + "." for i in range(count)]


def error_of(path: Path, extractor: EpubExtractor | None = None) -> str:
    with pytest.raises(ExtractionError) as caught:
        (extractor or EpubExtractor()).extract(path)
    message = str(caught.value)
    assert "\n" not in message
    assert str(path) in message
    return message


def all_text(book: ExtractedBook) -> str:
    return "\n\n".join(page.text for page in book.pages)


# --- well-formed books ----------------------------------------------------------------------------------


def test_epub3_metadata_synthetic_pages_and_nav_chapters(tmp_path: Path) -> None:
    chapters = [(f"Chapter {n}", paragraphs(n, 30)) for n in (1, 2, 3)]
    path = write_ebooklib_epub(
        tmp_path / "book.epub", [(t, chapter_html(t, ps)) for t, ps in chapters], nav_in_spine=False
    )
    book = EpubExtractor().extract(path)
    assert (book.title, book.author, book.language, book.format) == (
        "An EPUB Book",
        "Eve Writer",
        "fr",
        "epub",
    )
    assert book.pagination == "synthetic" and book.warnings == []
    assert [p.label for p in book.pages] == [str(i) for i in range(1, len(book.pages) + 1)]
    expected = "\n\n".join("\n\n".join([title, *ps]) for title, ps in chapters)
    assert all_text(book) == expected
    assert [c.title for c in book.chapters] == ["Chapter 1", "Chapter 2", "Chapter 3"]
    for chapter in book.chapters:
        assert book.pages[chapter.start_page - 1].text.startswith(chapter.title + "\n\n")
    sizes = [len(page.text) for page in book.pages]
    assert max(sizes) < 3000 and sum(sizes) / len(sizes) > 1500


def test_synthetic_pages_are_stable(tmp_path: Path) -> None:
    chapters = [(f"Chapter {n}", chapter_html(f"Chapter {n}", paragraphs(n, 25))) for n in (1, 2)]
    first = EpubExtractor().extract(write_ebooklib_epub(tmp_path / "a.epub", chapters))
    second = EpubExtractor().extract(write_ebooklib_epub(tmp_path / "b.epub", chapters))
    assert first == second == EpubExtractor().extract(tmp_path / "a.epub")


def test_nested_toc_gives_levels(tmp_path: Path) -> None:
    chapters = [(f"Chapter {n}", chapter_html(f"Chapter {n}", paragraphs(n, 12))) for n in (1, 2, 3)]
    for nav in (True, False):  # EPUB3 nav, then EPUB2 NCX only
        path = write_ebooklib_epub(tmp_path / f"nested{nav}.epub", chapters, nested_toc=True, nav=nav)
        book = EpubExtractor().extract(path)
        assert [(c.title, c.level) for c in book.chapters] == [
            ("Chapter 1", 0),
            ("Chapter 2", 1),
            ("Chapter 3", 1),
        ]
        starts = [c.start_page for c in book.chapters]
        assert starts == sorted(starts) and len(set(starts)) == 3


def test_epub2_ncx_only_book(tmp_path: Path) -> None:
    chapters = [(f"Part {n}", chapter_html(f"Part {n}", paragraphs(n, 5))) for n in (1, 2)]
    book = EpubExtractor().extract(write_ebooklib_epub(tmp_path / "e2.epub", chapters, nav=False))
    assert [(c.title, c.start_page) for c in book.chapters] == [("Part 1", 1), ("Part 2", 2)]
    assert book.pages[1].text.startswith("Part 2")


def test_no_toc_falls_back_to_one_chapter_per_headed_document(tmp_path: Path) -> None:
    documents = {
        "a.xhtml": xhtml("<p>Cover text without a heading.</p>"),
        "b.xhtml": xhtml("<h2>The Arrival</h2><p>Text.</p>"),
        "c.xhtml": xhtml("<h1>The <em>Storm</em></h1><p>More.</p>"),
    }
    book = EpubExtractor().extract(write_hand_epub(tmp_path / "notoc.epub", documents))
    assert [(c.title, c.start_page) for c in book.chapters] == [("The Arrival", 2), ("The Storm", 3)]
    assert (book.title, book.author, book.language) == ("Hand Made", "Zip Maker", "en")


def test_toc_anchor_inside_a_document(tmp_path: Path) -> None:
    first = "".join(f"<p>{p}</p>" for p in paragraphs(1, 40))
    second = "".join(f"<p>{p}</p>" for p in paragraphs(2, 40))
    documents = {"text/one.xhtml": xhtml(f'<h1 id="top">Start</h1>{first}<h2 id="mid">Middle</h2>{second}')}
    nav = nav_document([("Start", "text/one.xhtml"), ("Middle", "text/one.xhtml#mid")])
    path = write_hand_epub(
        tmp_path / "anchor.epub", documents, extra_files={"nav.xhtml": nav}, nav="nav.xhtml"
    )
    book = EpubExtractor().extract(path)
    start, middle = book.chapters
    assert start.start_page == 1 and middle.start_page > 2
    assert "Middle" in book.pages[middle.start_page - 1].text.split("\n\n")
    assert "Middle" not in book.pages[middle.start_page - 2].text.split("\n\n")


# --- print pages ----------------------------------------------------------------------------------------


def page_list_documents() -> dict[str, str]:
    return {
        "one.xhtml": xhtml(
            '<h1 id="c1">One</h1><p>Front text.</p><a id="p1"/><p>First page text.</p>'
            '<p>Still first <span id="p2"/>and now second.</p>'
        ),
        "two.xhtml": xhtml('<h1 id="c2">Two</h1><p>Second page continues.</p><p id="p3">Third page.</p>'),
    }


def test_nav_page_list_gives_print_pages(tmp_path: Path) -> None:
    nav = nav_document(
        [("One", "one.xhtml#c1"), ("Two", "two.xhtml")],
        [("1", "one.xhtml#p1"), ("2", "one.xhtml#p2"), ("3", "two.xhtml#p3"), ("4", "two.xhtml#missing")],
    )
    path = write_hand_epub(
        tmp_path / "pl.epub", page_list_documents(), extra_files={"nav.xhtml": nav}, nav="nav.xhtml"
    )
    book = EpubExtractor().extract(path)
    assert book.pagination == "print"
    assert [(p.label, p.text) for p in book.pages] == [
        ("1", "One\n\nFront text.\n\nFirst page text.\n\nStill first"),
        ("2", "and now second.\n\nTwo\n\nSecond page continues."),
        ("3", "Third page."),
    ]
    assert [(c.title, c.start_page) for c in book.chapters] == [("One", 1), ("Two", 2)]
    assert any("1 of 4 page-list entries" in w for w in book.warnings)


def test_ncx_page_list_gives_print_pages(tmp_path: Path) -> None:
    ncx = ncx_document(
        [("One", "one.xhtml"), ("Two", "two.xhtml#c2")],
        [("ix", "one.xhtml#p1"), ("x", "one.xhtml#p2"), ("xi", "two.xhtml#p3")],
    )
    path = write_hand_epub(
        tmp_path / "ncx.epub", page_list_documents(), extra_files={"toc.ncx": ncx}, ncx="toc.ncx"
    )
    book = EpubExtractor().extract(path)
    assert book.pagination == "print"
    assert [p.label for p in book.pages] == ["ix", "x", "xi"]
    assert [(c.title, c.start_page) for c in book.chapters] == [("One", 1), ("Two", 2)]


def test_pagebreak_markers_give_print_pages(tmp_path: Path) -> None:
    body_one = (
        '<h1>One</h1><p>Opening.</p><span epub:type="pagebreak" id="pg5" title="5"/><p>Page five.</p>'
        '<p>Five then <span epub:type="pagebreak" id="pg6">6</span>six.</p>'
    )
    body_two = '<h1>Two</h1><div role="doc-pagebreak" aria-label="7"></div><p>Page seven.</p>'
    chapters = [("One", body_one), ("Two", body_two)]
    for page_list in (False, True):  # markers alone, then the page-list ebooklib makes from them
        path = write_ebooklib_epub(
            tmp_path / f"pb{page_list}.epub", chapters, page_list=page_list, nav_in_spine=False
        )
        book = EpubExtractor().extract(path)
        assert book.pagination == "print"
        if not page_list:
            assert [(p.label, p.text) for p in book.pages] == [
                ("5", "One\n\nOpening.\n\nPage five.\n\nFive then"),
                ("6", "six.\n\nTwo"),
                ("7", "Page seven."),
            ]
            assert [(c.title, c.start_page) for c in book.chapters] == [("One", 1), ("Two", 2)]
        else:
            # ebooklib labels its page-list entries with the marker's text, else its id.
            assert [p.label for p in book.pages] == ["pg5", "6"]
            assert book.pages[0].text == "One\n\nOpening.\n\nPage five.\n\nFive then"


# --- broken files ---------------------------------------------------------------------------------------


def test_not_a_zip_and_empty_files(tmp_path: Path) -> None:
    text = tmp_path / "text.epub"
    text.write_text("not a zip")
    assert "is not an EPUB" in error_of(text)
    empty = tmp_path / "empty.epub"
    empty.write_bytes(b"")
    assert "is empty (0 bytes)" in error_of(empty)


def test_missing_container_and_opf(tmp_path: Path) -> None:
    no_container = write_zip(tmp_path / "nocontainer.epub", {"OEBPS/a.xhtml": xhtml("<p>x</p>")})
    assert "META-INF/container.xml is missing" in error_of(no_container)
    container = '<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles/></container>'
    no_rootfile = write_zip(tmp_path / "norootfile.epub", {"META-INF/container.xml": container})
    assert "names no package (OPF) file" in error_of(no_rootfile)
    documents = {"a.xhtml": xhtml("<p>x</p>")}
    no_opf = write_hand_epub(tmp_path / "noopf.epub", documents)
    import zipfile

    with zipfile.ZipFile(no_opf) as archive:
        kept = {n: archive.read(n) for n in archive.namelist() if not n.endswith(".opf") and n != "mimetype"}
    write_zip(no_opf, kept)
    assert "package file OEBPS/content.opf is missing" in error_of(no_opf)


def test_broken_spine_missing_resource_and_malformed_xhtml_import_the_rest(tmp_path: Path) -> None:
    documents = {
        "good.xhtml": xhtml("<h1>Good</h1><p>Readable text.</p>"),
        "gone.xhtml": xhtml("<p>never written</p>"),
        "bad.xhtml": "<html><body><p>Unclosed <b>bold text<p>after</body>",
    }
    path = write_hand_epub(tmp_path / "broken.epub", documents, spine=["d0", "ghost", "d1", "d2"])
    import zipfile

    with zipfile.ZipFile(path) as archive:
        kept = {n: archive.read(n) for n in archive.namelist() if n != "OEBPS/gone.xhtml" and n != "mimetype"}
    write_zip(path, kept)
    book = EpubExtractor().extract(path)
    assert all_text(book) == "Good\n\nReadable text.\n\nUnclosed bold text\n\nafter"
    unreadable = next(w for w in book.warnings if "could not be read" in w)
    assert (
        "ghost (not in the manifest)" in unreadable
        and "OEBPS/gone.xhtml (missing from the archive)" in unreadable
    )
    assert any("malformed" in w and "OEBPS/bad.xhtml" in w for w in book.warnings)


def test_missing_images_and_styles_are_named_and_the_text_is_kept(tmp_path: Path) -> None:
    items = (
        '<item id="css" href="style.css" media-type="text/css"/>'
        '<item id="fig" href="images/fig.png" media-type="image/png"/>'
    )
    documents = {"one.xhtml": xhtml('<p>Before the figure.</p><img src="images/fig.png"/><p>After it.</p>')}
    book = EpubExtractor().extract(write_hand_epub(tmp_path / "bare.epub", documents, extra_items=items))
    assert all_text(book) == "Before the figure.\n\nAfter it."
    missing = next(w for w in book.warnings if "missing from the archive" in w)
    assert "2 resources" in missing and "OEBPS/images/fig.png" in missing and "OEBPS/style.css" in missing


def test_a_book_without_readable_text_is_an_error(tmp_path: Path) -> None:
    path = write_hand_epub(tmp_path / "hollow.epub", {"a.xhtml": xhtml("<p>x</p>")}, spine=["nothing"])
    assert "contains no readable text" in error_of(path)
    empty_spine = write_hand_epub(tmp_path / "nospine.epub", {"a.xhtml": xhtml("<p>x</p>")}, spine=[])
    assert "contains no readable text" in error_of(empty_spine)


def test_drm_encrypted_content_is_refused_but_font_obfuscation_is_fine(tmp_path: Path) -> None:
    documents = {"a.xhtml": xhtml("<p>Text.</p>")}
    drm = encryption_xml([("OEBPS/a.xhtml", "http://www.w3.org/2001/04/xmlenc#aes128-cbc")])
    path = write_hand_epub(tmp_path / "drm.epub", documents, extra_files={"META-INF/encryption.xml": drm})
    assert "is DRM-protected (encrypted content); reader cannot import it" in error_of(path)
    fonts = encryption_xml(
        [
            ("OEBPS/font.otf", "http://www.idpf.org/2008/embedding"),
            ("OEBPS/f2.ttf", "http://ns.adobe.com/pdf/enc#RC"),
        ]
    )
    ok = write_hand_epub(tmp_path / "fonts.epub", documents, extra_files={"META-INF/encryption.xml": fonts})
    assert all_text(EpubExtractor().extract(ok)) == "Text."


@pytest.mark.parametrize(
    "name", ["../evil.xhtml", "/etc/evil.xhtml", "OEBPS/../../evil.xhtml", "C:/evil.xhtml"]
)
def test_paths_escaping_the_archive_are_refused(tmp_path: Path, name: str) -> None:
    path = write_hand_epub(tmp_path / "slip.epub", {"a.xhtml": xhtml("<p>x</p>")})
    import zipfile

    with zipfile.ZipFile(path, "a") as archive:
        archive.writestr(zipfile.ZipInfo(name), b"x")
    assert "unsafe path" in error_of(path)


def test_zip_bombs_are_refused(tmp_path: Path) -> None:
    documents = {"a.xhtml": xhtml("<p>x</p>")}
    bomb = write_hand_epub(
        tmp_path / "bomb.epub", documents, extra_files={"zeros.bin": zip_bomb_member(8 << 20)}
    )
    assert bomb.stat().st_size < 100_000
    start = time.perf_counter()
    assert "possible zip bomb" in error_of(bomb)
    assert time.perf_counter() - start < 1
    big = write_hand_epub(tmp_path / "big.epub", {"a.xhtml": xhtml("<p>" + "word " * 100_000 + "</p>")})
    assert "over the 0 MB limit" in error_of(big, EpubExtractor(max_unpacked_bytes=100_000))


def test_xxe_never_reaches_the_book(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-XXE-CONTENT")
    doctype = xxe_doctype(secret)
    documents = {
        "a.xhtml": xhtml("<h1>&xxe;</h1><p>Before &xxe; after.</p>", doctype),
        "b.xhtml": xhtml("<p>Malformed &xxe; <b></p>", doctype),
    }
    nav = xhtml('<nav epub:type="toc"><ol><li><a href="a.xhtml">Toc &xxe;</a></li></ol></nav>', doctype)
    ncx = ncx_document([("Ncx", "a.xhtml")]).replace("<ncx ", xxe_doctype(secret, "ncx") + "<ncx ", 1)
    path = write_hand_epub(
        tmp_path / "xxe.epub",
        documents,
        extra_files={"nav.xhtml": nav, "toc.ncx": ncx},
        nav="nav.xhtml",
        ncx="toc.ncx",
        title="Title &xxe;",
        doctype=xxe_doctype(secret, "package"),
    )
    book = EpubExtractor().extract(path)
    assert "TOP-SECRET" not in repr(book)
    assert book.title == "Title" and [c.title for c in book.chapters] == ["Toc"]
    assert book.pages[0].text == "Before after."


def test_billion_laughs_in_content_and_package_returns_quickly(tmp_path: Path) -> None:
    documents = {"a.xhtml": xhtml("<p>A &lol9; B</p>", billion_laughs_doctype())}
    path = write_hand_epub(
        tmp_path / "lol.epub", documents, title="T &lol9;", doctype=billion_laughs_doctype("package")
    )
    start = time.perf_counter()
    book = EpubExtractor().extract(path)
    assert time.perf_counter() - start < 2
    assert "lollollol" not in repr(book)
    assert book.title == "T" and book.pages[0].text.startswith("A")


def test_empty_metadata_falls_back_to_the_file_name(tmp_path: Path) -> None:
    path = write_hand_epub(
        tmp_path / "the_quiet_shore.epub", {"a.xhtml": xhtml("<p>x</p>")}, title="", author=""
    )
    book = EpubExtractor().extract(path)
    assert (book.title, book.author, book.language) == ("The Quiet Shore", "", "en")


def test_hidden_pagebreak_markers_still_cut_pages(tmp_path: Path) -> None:
    body = (
        '<p>Front.</p><span epub:type="pagebreak" id="p1" title="1" hidden="">1</span><p>Before.</p>'
        '<span epub:type="pagebreak" id="p2" style="display: none">2</span>'
        '<p>After <span style="display:none" id="gone">hidden words</span>visible.</p>'
    )
    book = EpubExtractor().extract(write_hand_epub(tmp_path / "hidden.epub", {"a.xhtml": xhtml(body)}))
    assert [(p.label, p.text) for p in book.pages] == [("1", "Front.\n\nBefore."), ("2", "After visible.")]
