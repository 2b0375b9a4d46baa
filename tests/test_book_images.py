"""Pictures kept at import: placed where they stand in EPUB, FB2 and HTML books, covers, limits, the
schema step that adds them, and a re-import or removal that replaces or drops them."""

from __future__ import annotations

from pathlib import Path

from reader.adapters.extractors.epub import EpubExtractor
from reader.adapters.extractors.fb2 import Fb2Extractor
from reader.adapters.extractors.html_book import HtmlExtractor
from reader.adapters.sqlite.connection import open_connection
from reader.adapters.sqlite.migrations import BOOK_IMAGES_FROM, SCHEMA_VERSION, migrate
from reader.domain.images import COVER_PAGE, fit_cells
from reader.services import Services
from tests.fixtures_images import (
    BROKEN_PNG,
    PROSE,
    bomb_png,
    write_illustrated_epub,
    write_illustrated_fb2,
    write_illustrated_html,
)


def test_epub_pictures_stand_before_the_paragraph_they_precede(tmp_path: Path) -> None:
    book = EpubExtractor().extract(write_illustrated_epub(tmp_path / "alice.epub"))
    placed = {image.alt: image for image in book.images}
    rabbit = placed["The White Rabbit checks his watch"]
    text = book.pages[rabbit.page - 1].text
    assert rabbit.media_type == "image/png" and (rabbit.width, rabbit.height) == (320, 240)
    assert text[:rabbit.offset].rstrip().endswith("conversations in it.")  # after the first paragraph
    assert text[rabbit.offset:].startswith(PROSE[:20])
    assert text[: rabbit.offset].count(PROSE[:20]) == 1
    assert placed["The tea-party"].media_type == "image/jpeg"
    assert placed["The Cheshire Cat"].media_type == "image/gif"
    lost = placed["A picture the book lost"]
    assert lost.data == b"" and lost.media_type == ""  # its place and alt text are kept
    svg = placed["A vector map"]
    assert svg.data == b""  # an SVG drawing has no picture file: its title stands in its place
    cover = next(image for image in book.images if image.cover)
    assert cover.media_type == "image/jpeg" and (cover.width, cover.height) == (300, 450)
    assert cover.page == 1 and cover.offset == 0  # the cover page's picture is the cover


def test_an_oversized_or_broken_picture_keeps_its_place_without_its_size(tmp_path: Path) -> None:
    book = EpubExtractor().extract(
        write_illustrated_epub(
            tmp_path / "odd.epub", extra_pictures=[("bomb.png", bomb_png(), "Vast"), ("broken.png", BROKEN_PNG, "Torn")]
        )
    )
    placed = {image.alt: image for image in book.images}
    assert placed["Vast"].width == 0 and placed["Vast"].data  # a bomb is not measured (nor decoded)
    assert placed["Torn"].width == 0


def test_fb2_pictures_come_from_its_binaries_and_its_cover_from_the_coverpage(tmp_path: Path) -> None:
    book = Fb2Extractor().extract(write_illustrated_fb2(tmp_path / "atlas.fb2"))
    kinds = {image.alt: (image.media_type, image.page) for image in book.images}
    assert kinds["A map of the steppe"] == ("image/png", 1)
    assert kinds["A grey horse"][0] == "image/jpeg"
    cover = next(image for image in book.images if image.cover)
    assert cover.page == COVER_PAGE and cover.media_type == "image/jpeg"


def test_html_pictures_embedded_or_beside_the_file(tmp_path: Path) -> None:
    book = HtmlExtractor().extract(write_illustrated_html(tmp_path / "plates.html"))
    assert {(image.alt, image.media_type) for image in book.images} == {
        ("A blue plate", "image/png"),
        ("An orange plate", "image/gif"),
    }


def test_a_book_over_the_picture_budget_says_so_once(tmp_path: Path) -> None:
    from reader.adapters.extractors import epub as epub_module
    from reader.adapters.extractors.book_images import ImageReader

    path = write_illustrated_epub(tmp_path / "alice.epub")
    original = epub_module.ImageReader

    def small(locate, load):  # noqa: ANN001, ANN202 - a reader with a budget of two small pictures
        return ImageReader(locate, load, max_image_bytes=8000, max_book_bytes=9000)

    epub_module.ImageReader = small  # type: ignore[assignment]
    try:
        book = EpubExtractor().extract(path)
    finally:
        epub_module.ImageReader = original  # type: ignore[misc]
    assert sum("too large to keep" in warning for warning in book.warnings) == 1
    assert sum(1 for image in book.images if image.data) < 4


def test_stored_pictures_are_read_by_page_replaced_on_reimport_and_dropped_with_the_book(tmp_path: Path) -> None:
    services = Services.open()
    path = write_illustrated_epub(tmp_path / "alice.epub")
    book = services.importer.import_file(path).book
    assert book is not None
    first = services.images.on_page(book.id, 1)
    assert [image.alt for image in first][1:] == ["The White Rabbit checks his watch", "A picture the book lost"]
    assert services.images.data(first[1].id)[:4] == b"\x89PNG"
    assert services.images.data(first[2].id) == b""
    assert services.images.cover(book.id) is not None
    assert services.images.pages_with_images(book.id) == {1, 2}
    services.importer.import_file(path, force=True)
    assert len(services.images.on_page(book.id, 1)) == len(first)
    blobs = services.db.conn.execute("SELECT count(*) FROM image_blobs WHERE book_id = ?", (book.id,)).fetchone()[0]
    assert blobs == 4  # each distinct picture once (the cover, rabbit, tea, cat)
    services.books.remove(book.id)
    assert services.db.conn.execute("SELECT count(*) FROM page_images").fetchone()[0] == 0
    assert services.db.conn.execute("SELECT count(*) FROM image_blobs").fetchone()[0] == 0


def test_the_schema_step_adds_the_picture_tables_to_a_library_of_the_previous_version(tmp_path: Path) -> None:
    import sqlean

    path = tmp_path / "old.db"
    old = sqlean.connect(str(path), isolation_level=None)
    migrate(old, target=BOOK_IMAGES_FROM)
    old.execute(
        "INSERT INTO books (id, title, format, source_path, page_count, index_version, imported_at) "
        "VALUES ('b1', 'Old', 'epub', '/x', 3, 5, '2026-01-01')"
    )
    assert not old.execute("SELECT name FROM sqlite_master WHERE name = 'page_images'").fetchall()
    old.close()
    conn = open_connection(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    from reader.adapters.sqlite.image_repository import SqliteImageRepository

    images = SqliteImageRepository(conn)
    assert images.on_page("b1", 1) == [] and images.cover("b1") is None
    assert conn.execute("SELECT index_version FROM books").fetchone()[0] == 5  # `reader reindex` brings pictures


def test_cells_keep_a_pictures_shape_within_the_pane() -> None:
    assert fit_cells(400, 300, 50, 30) == (50, 19)
    assert fit_cells(300, 450, 50, 12) == (16, 12)  # a tall cover is limited by rows
    assert fit_cells(40, 40, 50, 30) == (5, 2)  # a small picture is not blown up
    assert fit_cells(0, 10, 50, 30) == (0, 0)
