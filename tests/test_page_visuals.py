"""Visual measurements at import: images and drawings on PDF pages, images in EPUB markup, the 1-5 score."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfWriter
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    FloatObject,
    NameObject,
    NumberObject,
)

from reader.adapters.extractors import pdf_pages
from reader.adapters.extractors.epub import EpubExtractor
from reader.adapters.extractors.pdf import PdfExtractor
from reader.adapters.extractors.xhtml import IMAGE, parse_xhtml, tokens
from reader.domain.visuals import score_visual_importance
from reader.services import Services
from tests.fixtures_books import FIGURE_LAYOUTS, write_figure_pdf, write_hand_epub, xhtml


@pytest.fixture(scope="module")
def figure_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_figure_pdf(tmp_path_factory.mktemp("figures") / "figures.pdf", FIGURE_LAYOUTS)


def by_layout(path: Path, extractor: PdfExtractor | None = None) -> dict[str, object]:
    book = (extractor or PdfExtractor()).extract(path)
    return {layout: page.visuals for layout, page in zip(FIGURE_LAYOUTS, book.pages, strict=True)}


# --- the score ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("figure_area", "chars", "image_area", "expected"),
    [
        (0.0, 3000, 0.0, 1),  # prose
        (0.02, 2500, 0.02, 1),  # an ornament in prose
        (1.0, 0, 1.0, 5),  # a full-page figure
        (0.33, 50, 0.33, 4),  # a figure with a caption
        (0.6, 150, 0.0, 5),  # a big chart with a caption
        (0.45, 1500, 0.45, 3),  # half figure, half prose
        (0.1, 2000, 0.1, 1),  # a small image in prose
        (0.1, 300, 0.1, 2),  # a small image and a little text
        (1.0, 2500, 1.0, 2),  # a scan with a text layer, or a background image
    ],
)
def test_score_from_figure_area_and_text(
    figure_area: float, chars: int, image_area: float, expected: int
) -> None:
    assert score_visual_importance(figure_area, chars, image_area) == expected


def test_scores_stay_in_one_to_five() -> None:
    for area in (0.0, 0.03, 0.05, 0.15, 0.2, 0.35, 0.5, 0.55, 0.9, 1.0):
        for chars in (0, 100, 599, 600, 1199, 1200, 5000):
            assert 1 <= score_visual_importance(area, chars, area) <= 5


# --- PDF pages ------------------------------------------------------------------------------------


def test_generated_pages_score_as_their_layout(figure_book: Path) -> None:
    visuals = by_layout(figure_book)
    full, captioned, vector = visuals["figure"], visuals["captioned"], visuals["vector"]
    assert (full.image_count, full.image_area, full.importance) == (1, 1.0, 5)  # type: ignore[attr-defined]
    assert captioned.image_count == 1 and 0.25 < captioned.image_area < 0.45  # type: ignore[attr-defined]
    assert captioned.importance >= 4  # type: ignore[attr-defined]
    assert vector.image_count == 0 and vector.drawing_area > 0.15 and vector.importance >= 4  # type: ignore[attr-defined]
    for prose in ("prose", "prose+small", "blank"):
        assert visuals[prose].importance == 1, prose  # type: ignore[attr-defined]
    assert visuals["prose+small"].image_count == 1  # type: ignore[attr-defined]
    assert visuals["prose"].image_count == 0 and visuals["prose"].drawing_area == 0  # type: ignore[attr-defined]


def test_worker_processes_measure_the_same(figure_book: Path) -> None:
    if pdf_pages.usable_cpus() < 2:
        pytest.skip("needs two CPUs")
    assert by_layout(figure_book, PdfExtractor(parallel_threshold=2)) == by_layout(
        figure_book, PdfExtractor(workers=1)
    )


def test_measuring_can_be_switched_off_and_the_text_is_the_same(figure_book: Path) -> None:
    measured = PdfExtractor().extract(figure_book)
    plain = PdfExtractor(measure_visuals=False).extract(figure_book)
    assert [p.text for p in measured.pages] == [p.text for p in plain.pages]
    assert all(p.visuals.importance == 1 and p.visuals.image_count == 0 for p in plain.pages)


def _image_xobject() -> DecodedStreamObject:
    image = DecodedStreamObject()
    image.set_data(b"\x80")
    image.update(
        {
            NameObject("/Type"): NameObject("/XObject"),
            NameObject("/Subtype"): NameObject("/Image"),
            NameObject("/Width"): NumberObject(1),
            NameObject("/Height"): NumberObject(1),
            NameObject("/ColorSpace"): NameObject("/DeviceGray"),
            NameObject("/BitsPerComponent"): NumberObject(8),
        }
    )
    return image


def _page_with_content(writer: PdfWriter, content: bytes, xobjects: dict[str, object]) -> None:
    page = writer.add_blank_page(width=400, height=400)
    stream = DecodedStreamObject()
    stream.set_data(content)
    page[NameObject("/Contents")] = writer._add_object(stream)
    resources = DictionaryObject({NameObject("/XObject"): DictionaryObject(xobjects)})  # type: ignore[arg-type]
    page[NameObject("/Resources")] = resources


def test_an_image_inside_a_scaled_form_and_an_inline_image_are_placed_by_their_matrices(
    tmp_path: Path,
) -> None:
    writer = PdfWriter()
    image_ref = writer._add_object(_image_xobject())
    form = DecodedStreamObject()
    form.set_data(b"q 100 0 0 100 0 0 cm /Im1 Do Q")
    form.update(
        {
            NameObject("/Type"): NameObject("/XObject"),
            NameObject("/Subtype"): NameObject("/Form"),
            NameObject("/BBox"): ArrayObject(
                [NumberObject(0), NumberObject(0), NumberObject(100), NumberObject(100)]
            ),
            NameObject("/Matrix"): ArrayObject(
                [
                    FloatObject(2),
                    NumberObject(0),
                    NumberObject(0),
                    FloatObject(2),
                    NumberObject(0),
                    NumberObject(0),
                ]
            ),
            NameObject("/Resources"): DictionaryObject(
                {NameObject("/XObject"): DictionaryObject({NameObject("/Im1"): image_ref})}
            ),
        }
    )
    form_ref = writer._add_object(form)
    # the form doubles a 100x100 image: 200x200 of a 400x400 page is a quarter of it
    _page_with_content(writer, b"q 1 0 0 1 100 100 cm /Fm1 Do Q", {NameObject("/Fm1"): form_ref})  # type: ignore[dict-item]
    # an inline image over the left half of the page
    _page_with_content(writer, b"q 200 0 0 400 0 0 cm BI /W 1 /H 1 /BPC 8 /CS /G ID \x80 EI Q", {})
    path = tmp_path / "forms.pdf"
    with path.open("wb") as handle:
        writer.write(handle)
    form_page, inline_page = PdfExtractor().extract(path).pages
    assert form_page.visuals.image_count == 1 and form_page.visuals.image_area == pytest.approx(
        0.25, abs=0.03
    )
    assert inline_page.visuals.image_count == 1 and inline_page.visuals.image_area == pytest.approx(
        0.5, abs=0.03
    )
    assert inline_page.visuals.importance == 5


def test_rules_frames_and_backgrounds_are_not_drawings(tmp_path: Path) -> None:
    writer = PdfWriter()
    rules = b"0 0 0 RG 20 380 m 380 380 l S 20 20 m 380 20 l S "  # header and footer rules
    frame = b"10 10 380 380 re S "  # a frame around the text block
    background = b"1 1 0.9 rg 0 0 400 400 re f "  # a page-sized fill
    _page_with_content(writer, rules + frame + background, {})
    _page_with_content(writer, b"0 0 1 rg 50 50 200 150 re f 50 50 m 250 50 l S", {})  # a real drawing
    path = tmp_path / "rules.pdf"
    with path.open("wb") as handle:
        writer.write(handle)
    decorated, drawn = PdfExtractor().extract(path).pages
    assert decorated.visuals.drawing_area == 0 and decorated.visuals.importance == 1
    assert drawn.visuals.drawing_area == pytest.approx(0.19, abs=0.05) and drawn.visuals.importance >= 3


# --- EPUB pages -----------------------------------------------------------------------------------


def test_img_and_svg_become_image_tokens_with_an_area_estimate() -> None:
    body = (
        '<p>Text</p><img src="a.png" width="600" height="400"/><img src="dot.png" width="16" height="16"/>'
        '<svg viewBox="0 0 10 10"><rect width="10" height="10"/></svg>'
        '<img src="half.png" style="width: 50%"/><img src="hidden.png" hidden=""/>'
    )
    root = parse_xhtml(xhtml(body).encode()).root
    images = [float(value) for kind, value in tokens(root) if kind == IMAGE]
    assert images == [0.5, 0.01, 0.35, 0.25]


def test_epub_pages_with_pictures_score_high_and_prose_scores_one(tmp_path: Path) -> None:
    prose = "".join(f"<p>{'The keeper trimmed the wick and watched the sea. ' * 8}</p>" for _ in range(6))
    documents = {
        "c1.xhtml": xhtml(f"<h1>One</h1>{prose}"),
        "plate.xhtml": xhtml('<div><img src="map.png" width="600" height="800"/></div>'),
        "c2.xhtml": xhtml(
            '<h1>Two</h1><figure><img src="lamp.png"/><figcaption>The lamp.</figcaption></figure>'
        ),
        "c3.xhtml": xhtml(f"<h1>Three</h1>{prose}"),
    }
    path = write_hand_epub(
        tmp_path / "pictures.epub",
        documents,
        extra_files={"map.png": b"png", "lamp.png": b"png"},
    )
    book = EpubExtractor().extract(path)
    by_text = {page.text.split("\n")[0]: page.visuals for page in book.pages}
    assert by_text["One"].importance == 1 and by_text["Three"].importance == 1
    # the plate (a document without text) and the figure both land on chapter two's page
    two = by_text["Two"]
    assert two.image_count == 2 and two.importance == 5


def test_import_stores_the_visuals_and_pages_read_them_back(figure_book: Path) -> None:
    services = Services.open()
    outcome = services.importer.import_file(figure_book)
    assert outcome.book is not None
    pages = services.books.pages(outcome.book.id)
    assert [p.visual_importance for p in pages] == [5, 4, 4, 1, 1, 1]
    assert [p.has_figures for p in pages] == [True, True, True, False, False, False]
    assert pages[0].visuals.image_area == 1.0 and pages[2].visuals.drawing_area > 0.15
    services.close()


def test_a_page_stored_before_the_visuals_reads_as_prose(tmp_path: Path) -> None:
    import sqlean

    from reader.adapters.sqlite.book_repository import SqliteBookRepository
    from reader.adapters.sqlite.connection import open_connection
    from reader.adapters.sqlite.migrations import SCHEMA_VERSION, migrate

    path = tmp_path / "v4.db"
    old = sqlean.connect(str(path), isolation_level=None)
    migrate(old, target=SCHEMA_VERSION - 1)
    old.execute(
        "INSERT INTO books (id, title, format, source_path, page_count, index_version, imported_at) "
        "VALUES ('b', 'Old', 'pdf', '/x', 1, 1, '2026-01-01')"
    )
    old.execute("INSERT INTO pages (book_id, number, label) VALUES ('b', 1, 'i')")
    old.close()
    (page,) = SqliteBookRepository(open_connection(path)).pages("b")
    assert (page.label, page.visual_importance, page.visuals.image_count, page.has_figures) == (
        "i",
        1,
        0,
        False,
    )


def test_a_page_that_cannot_be_measured_keeps_its_text(
    figure_book: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(page: object) -> None:
        raise ValueError("no /MediaBox")

    monkeypatch.setattr(pdf_pages, "PageVisualsMeter", broken)
    book = PdfExtractor(workers=1).extract(figure_book)
    plain = PdfExtractor(workers=1, measure_visuals=False).extract(figure_book)
    assert [p.text for p in book.pages] == [p.text for p in plain.pages]
    assert all(p.visuals.importance == 1 for p in book.pages)
