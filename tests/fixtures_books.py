"""Generators of test books: PDFs (fpdf2 + pypdf), EPUBs (ebooklib and hand-made zips), broken files."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from pathlib import Path

XHTML_NS = "http://www.w3.org/1999/xhtml"
EPUB_NS = "http://www.idpf.org/2007/ops"


def page_words(number: int) -> str:
    """A sentence unique to a page, easy to find in extracted text."""
    return f"Page {number} tells of the keeper and the lamp number{number}."


# --- PDF ---------------------------------------------------------------------------------------------


def write_pdf(
    path: Path,
    pages: int = 3,
    *,
    title: str | None = "A Test Book",
    author: str | None = "Ann Author",
    language: str | None = "en-GB",
    sections: Sequence[tuple[int, str, int]] = (),
    image_only: Sequence[int] = (),
) -> Path:
    """A PDF of `pages` text pages (1-based `image_only` pages get only drawn shapes).

    `sections` are (page, title, level) outline entries made with fpdf2's start_section.
    """
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_compression(True)
    if title is not None:
        pdf.set_title(title)
    if author is not None:
        pdf.set_author(author)
    if language is not None:
        pdf.set_lang(language)
    pdf.set_font("Helvetica", size=11)
    by_page: dict[int, list[tuple[str, int]]] = {}
    for page, name, level in sections:
        by_page.setdefault(page, []).append((name, level))
    for number in range(1, pages + 1):
        pdf.add_page()
        for name, level in by_page.get(number, []):
            pdf.start_section(name, level=level)
        if number in image_only:
            pdf.set_fill_color(40, 40, 40)
            pdf.rect(20, 20, 120, 160, style="F")
            continue
        pdf.multi_cell(0, 6, page_words(number))
        pdf.ln(6)
        pdf.multi_cell(0, 6, "A second paragraph of text on this page.")
    pdf.output(str(path))
    return path


FIGURE_LAYOUTS = ("figure", "captioned", "vector", "prose", "prose+small", "blank")
"""Pages `write_figure_pdf` can make: a full-page image; an image with a caption; a vector chart with a
caption; a page of prose; prose with a small image; an empty page."""

PROSE = (
    "The keeper climbed the stair each night and trimmed the wick by the light of the harbour. "
    "Salt fog pressed at the glass while the bell rang over the cold grey water below the cliff. "
)


def figure_png(width: int = 240, height: int = 180) -> bytes:
    """A small diagram as PNG bytes (boxes and a line), for pages with figures."""
    import io

    from PIL import Image, ImageDraw

    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle((10, 10, width - 10, height - 10), outline="black", width=3)
    draw.line((10, height - 10, width - 10, 10), fill="red", width=3)
    draw.ellipse((width // 3, height // 3, width // 2, height // 2), outline="blue", width=2)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def write_figure_pdf(path: Path, layouts: Sequence[str], *, title: str = "Figures and Prose") -> Path:
    """A PDF with one page per entry of `layouts` (see FIGURE_LAYOUTS); page n's text names n."""
    import io

    from fpdf import FPDF

    png = figure_png()
    pdf = FPDF()
    pdf.set_title(title)
    pdf.set_font("Helvetica", size=11)
    pdf.set_auto_page_break(False)
    line = {"new_x": "LMARGIN", "new_y": "NEXT"}
    for number, layout in enumerate(layouts, start=1):
        pdf.add_page()
        if layout == "figure":
            pdf.image(io.BytesIO(png), x=0, y=0, w=pdf.w, h=pdf.h)
        elif layout == "captioned":
            pdf.image(io.BytesIO(png), x=20, y=25, w=170)
            pdf.set_xy(pdf.l_margin, 160)
            pdf.multi_cell(0, 6, f"Figure {number}. The lamp mechanism of the light, page {number}.", **line)
        elif layout == "vector":
            pdf.set_fill_color(90, 120, 200)
            for bar in range(6):
                height = 30 + 18 * (bar % 4)
                pdf.rect(30 + bar * 26, 200 - height, 18, height, style="F")
            pdf.line(25, 200, 190, 200)
            pdf.line(25, 40, 25, 200)
            pdf.set_xy(pdf.l_margin, 210)
            pdf.multi_cell(0, 6, f"Figure {number}. Storms per month at the rock, page {number}.", **line)
        elif layout in ("prose", "prose+small"):
            pdf.set_xy(pdf.l_margin, 20)
            pdf.multi_cell(0, 6, page_words(number), **line)
            for _ in range(13 if layout == "prose" else 11):
                pdf.multi_cell(0, 6, PROSE * 2, **line)
            if layout == "prose+small":
                pdf.image(io.BytesIO(png), x=pdf.w - 40, y=pdf.h - 35, w=24)
        elif layout != "blank":
            raise ValueError(f"unknown page layout {layout!r}")
    pdf.output(str(path))
    return path


def add_page_labels(path: Path, roman_pages: int) -> Path:
    """Label the first `roman_pages` pages i, ii, iii... and the rest 1, 2, 3... (rewrites the file)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(path))
    count = len(writer.pages)
    if roman_pages:
        writer.set_page_label(0, roman_pages - 1, style="/r", start=1)
    if roman_pages < count:
        writer.set_page_label(roman_pages, count - 1, style="/D", start=1)
    with path.open("wb") as handle:
        writer.write(handle)
    return path


def add_outline(path: Path, entries: Sequence[tuple[str, int | None, int]]) -> Path:
    """Replace the outline with (title, 0-based page or None for no destination, level) entries."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(path))
    parents: list = []
    for title, page, level in entries:
        parent = parents[level - 1] if level > 0 else None
        item = writer.add_outline_item(title=title, page_number=page, parent=parent)
        parents[level:] = [item]
    with path.open("wb") as handle:
        writer.write(handle)
    return path


def encrypt_pdf(path: Path, user_password: str, owner_password: str = "owner-secret") -> Path:
    """Encrypt a PDF in place with AES-256 (an empty user password still opens without one)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(path))
    writer.encrypt(user_password, owner_password, algorithm="AES-256")
    with path.open("wb") as handle:
        writer.write(handle)
    return path


def truncate(path: Path, keep: float = 0.5) -> Path:
    """Cut a file to a fraction of its size."""
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])
    return path


def lose_startxref(path: Path) -> Path:
    """Blank out the `startxref` keyword: pypdf stops ("startxref not found"), PDFium rebuilds the xref."""
    data = path.read_bytes()
    assert b"startxref" in data
    path.write_bytes(data.replace(b"startxref", b"         "))
    return path


def mistype_page_tree(path: Path) -> Path:
    """Make the page tree's /Type wrong: pypdf finds no pages, PDFium still walks the tree."""
    data = path.read_bytes()
    assert b"/Type /Pages" in data
    path.write_bytes(data.replace(b"/Type /Pages", b"/Type /Pagez"))
    return path


def break_page_tree(path: Path) -> Path:
    """Point the page tree's /Kids at no object: neither pypdf nor PDFium can find a page."""
    import re

    data = path.read_bytes()
    broken = re.sub(rb"/Kids \[[^\]]*\]", b"/Kids 999 0 R", data, count=1)
    assert broken != data
    path.write_bytes(broken)
    return path


# --- EPUB with ebooklib --------------------------------------------------------------------------------


def chapter_html(title: str, paragraphs: Sequence[str], heading: str = "h1") -> str:
    """Body markup of a chapter: a heading and paragraphs."""
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return f"<{heading}>{title}</{heading}>{body}"


def write_ebooklib_epub(
    path: Path,
    chapters: Sequence[tuple[str, str]],
    *,
    title: str | None = "An EPUB Book",
    author: str | None = "Eve Writer",
    language: str = "fr",
    nav: bool = True,
    ncx: bool = True,
    nested_toc: bool = False,
    page_list: bool = True,
    nav_in_spine: bool = True,
) -> Path:
    """An EPUB written by ebooklib from (title, body markup) chapters.

    nav=False gives an EPUB2-style book with only an NCX; page_list=False stops ebooklib from turning
    pagebreak spans into a nav page-list; nested_toc puts chapters 2.. under chapter 1.
    """
    from ebooklib import epub

    book = epub.EpubBook()
    book.set_identifier("test-book-id")
    if title is not None:
        book.set_title(title)
    book.set_language(language)
    if author is not None:
        book.add_author(author)
    items = []
    for number, (name, body) in enumerate(chapters, start=1):
        item = epub.EpubHtml(title=name, file_name=f"text/ch{number}.xhtml", lang=language)
        item.content = body
        book.add_item(item)
        items.append(item)
    if nested_toc and len(items) > 1:
        book.toc = [(epub.Section(items[0].title, href=items[0].file_name), items[1:])]
    else:
        book.toc = items
    if ncx:
        book.add_item(epub.EpubNcx())
    if nav:
        book.add_item(epub.EpubNav())
    book.spine = (["nav"] if nav and nav_in_spine else []) + items
    epub.write_epub(str(path), book, {"epub3_pages": page_list})
    return path


# --- hand-made EPUB zips --------------------------------------------------------------------------------

CONTAINER = """<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="{opf}" media-type="application/oebps-package+xml"/></rootfiles>
</container>"""


def xhtml(body: str, doctype: str = "", title: str = "t") -> str:
    """A complete XHTML document around `body`."""
    return (
        f'<?xml version="1.0" encoding="utf-8"?>{doctype}\n'
        f'<html xmlns="{XHTML_NS}" xmlns:epub="{EPUB_NS}"><head><title>{title}</title></head>'
        f"<body>{body}</body></html>"
    )


def opf(
    documents: Sequence[str],
    *,
    title: str = "Hand Made",
    author: str = "Zip Maker",
    language: str = "en",
    extra_items: str = "",
    spine: Sequence[str] | None = None,
    nav: str | None = None,
    ncx: str | None = None,
    doctype: str = "",
    meta: str = "",
) -> str:
    """An OPF package listing `documents` (paths relative to the OPF; `.svg` ones are SVG documents) in
    the manifest and spine; `meta` is added to the metadata (e.g. a rendition:layout)."""
    items = "".join(
        f'<item id="d{i}" href="{doc}" media-type="{"image/svg+xml" if doc.endswith(".svg") else "application/xhtml+xml"}"/>'
        for i, doc in enumerate(documents)
    )
    if nav:
        items += f'<item id="nav" href="{nav}" media-type="application/xhtml+xml" properties="nav"/>'
    if ncx:
        items += f'<item id="ncx" href="{ncx}" media-type="application/x-dtbncx+xml"/>'
    refs = spine if spine is not None else [f"d{i}" for i in range(len(documents))]
    itemrefs = "".join(f'<itemref idref="{ref}"/>' for ref in refs)
    toc = ' toc="ncx"' if ncx else ""
    return (
        f'<?xml version="1.0" encoding="utf-8"?>{doctype}\n'
        '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">'
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
        f'<dc:identifier id="id">hand-made</dc:identifier><dc:title>{title}</dc:title>'
        f"<dc:creator>{author}</dc:creator><dc:language>{language}</dc:language>{meta}</metadata>"
        f"<manifest>{items}{extra_items}</manifest><spine{toc}>{itemrefs}</spine></package>"
    )


def write_zip(path: Path, files: dict[str, str | bytes], *, mimetype: bool = True) -> Path:
    """A zip with an EPUB mimetype first (stored) and the given members (deflated)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        if mimetype:
            archive.writestr(
                zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED
            )
        for name, data in files.items():
            archive.writestr(name, data)
    return path


def write_hand_epub(
    path: Path,
    documents: dict[str, str],
    *,
    extra_files: dict[str, str | bytes] | None = None,
    **opf_options: object,
) -> Path:
    """An EPUB with OEBPS/content.opf and the given documents (names relative to OEBPS/)."""
    files: dict[str, str | bytes] = {"META-INF/container.xml": CONTAINER.format(opf="OEBPS/content.opf")}
    files["OEBPS/content.opf"] = opf(list(documents), **opf_options)
    for name, content in documents.items():
        files[f"OEBPS/{name}"] = content
    files.update(
        {f"OEBPS/{k}" if not k.startswith("META-INF/") else k: v for k, v in (extra_files or {}).items()}
    )
    return write_zip(path, files)


def nav_document(toc: Sequence[tuple[str, str]], pages: Sequence[tuple[str, str]] = ()) -> str:
    """An EPUB3 nav document with a toc and an optional hidden page-list of (label, href) entries."""
    toc_items = "".join(f'<li><a href="{href}">{name}</a></li>' for name, href in toc)
    body = f'<nav epub:type="toc"><h1>Contents</h1><ol>{toc_items}</ol></nav>'
    if pages:
        page_items = "".join(f'<li><a href="{href}">{label}</a></li>' for label, href in pages)
        body += f'<nav epub:type="page-list" hidden=""><ol>{page_items}</ol></nav>'
    return xhtml(body)


def ncx_document(toc: Sequence[tuple[str, str]], pages: Sequence[tuple[str, str]] = ()) -> str:
    """An NCX with a navMap and an optional pageList of (label, src) entries."""
    points = "".join(
        f'<navPoint id="n{i}" playOrder="{i}"><navLabel><text>{name}</text></navLabel>'
        f'<content src="{src}"/></navPoint>'
        for i, (name, src) in enumerate(toc, start=1)
    )
    targets = "".join(
        f'<pageTarget id="p{i}" type="normal" value="{i}"><navLabel><text>{label}</text></navLabel>'
        f'<content src="{src}"/></pageTarget>'
        for i, (label, src) in enumerate(pages, start=1)
    )
    page_list = f"<pageList>{targets}</pageList>" if pages else ""
    return (
        '<?xml version="1.0" encoding="utf-8"?>'
        '<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">'
        f"<head/><docTitle><text>t</text></docTitle><navMap>{points}</navMap>{page_list}</ncx>"
    )


def encryption_xml(entries: Sequence[tuple[str, str]]) -> str:
    """META-INF/encryption.xml encrypting (uri, algorithm) entries."""
    data = "".join(
        '<enc:EncryptedData xmlns:enc="http://www.w3.org/2001/04/xmlenc#">'
        f'<enc:EncryptionMethod Algorithm="{algorithm}"/>'
        f'<enc:CipherData><enc:CipherReference URI="{uri}"/></enc:CipherData></enc:EncryptedData>'
        for uri, algorithm in entries
    )
    namespace = "urn:oasis:names:tc:opendocument:xmlns:container"
    return f'<?xml version="1.0"?><encryption xmlns="{namespace}">{data}</encryption>'


def billion_laughs_doctype(root: str = "html", levels: int = 10) -> str:
    """A DOCTYPE whose entity &lol9; would expand to 10**levels copies of "lol"."""
    entities = ['<!ENTITY lol0 "lol">']
    for level in range(1, levels):
        entities.append(f'<!ENTITY lol{level} "{f"&lol{level - 1};" * 10}">')
    return f"<!DOCTYPE {root} [{''.join(entities)}]>"


def xxe_doctype(secret: Path, root: str = "html") -> str:
    """A DOCTYPE declaring &xxe; as the contents of a local file, plus a parameter-entity variant."""
    uri = secret.resolve().as_uri()
    return f'<!DOCTYPE {root} [<!ENTITY xxe SYSTEM "{uri}"><!ENTITY % pxxe SYSTEM "{uri}"> %pxxe;]>'


def zip_bomb_member(size: int) -> bytes:
    """A member of `size` zero bytes: it deflates about a thousand times."""
    return bytes(size)


def deflated_size(data: bytes) -> int:
    """How big `data` is once deflated in a zip (for sanity checks in tests)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("x", data)
    return len(buffer.getvalue())
