"""Books in the further formats, written by the tests: single-file HTML, FB2 and (hand-made) MOBI."""

from __future__ import annotations

import base64
import struct
import zipfile
from collections.abc import Sequence
from pathlib import Path

FB2_NS = "http://www.gribuser.ru/xml/fictionbook/2.0"
XLINK_NS = "http://www.w3.org/1999/xlink"
# A 1x1 transparent PNG, carried by the FB2 as a binary.
PIXEL_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


def write_html_book(
    path: Path,
    chapters: Sequence[tuple[str, Sequence[str]]],
    *,
    title: str = "A Web Book",
    author: str = "Ada Html",
    book_heading: bool = True,
    encoding: str = "utf-8",
    charset_meta: bool = True,
) -> Path:
    """An HTML book: <title>, an author meta, an optional h1 for the book, one h2 per chapter."""
    meta = f'<meta charset="{encoding}">' if charset_meta else ""
    body = f"<h1>{title}</h1>" if book_heading else ""
    for heading, paragraphs in chapters:
        body += f"<h2>{heading}</h2>" + "".join(f"<p>{p}</p>" for p in paragraphs)
    html = (
        f'<!DOCTYPE html>\n<html lang="en"><head>{meta}<title>{title}</title>'
        f'<meta name="author" content="{author}"></head><body>{body}</body></html>'
    )
    path.write_bytes(html.encode(encoding))
    return path


def fb2_document(
    chapters: Sequence[tuple[str, Sequence[str]]],
    *,
    title: str = "The Steppe Road",
    first: str = "Ivan",
    last: str = "Petrov",
    notes: Sequence[tuple[str, str]] = (),
    image: bool = False,
    doctype: str = "",
    encoding: str = "utf-8",
) -> str:
    """A FictionBook 2 document: description, a body of titled sections, a notes body, a binary."""
    sections = ""
    for number, (heading, paragraphs) in enumerate(chapters):
        text = "".join(f"<p>{p}</p>" for p in paragraphs)
        if number == 0 and notes:
            text += '<p>A remark<a l:href="#n1" type="note">1</a> in passing.</p>'
        if number == 0 and image:
            text += '<image l:href="#pic"/>'
        sections += f"<section><title><p>{heading}</p></title>{text}</section>"
    note_sections = "".join(
        f'<section id="{ident}"><title><p>{ident[1:]}</p></title><p>{text}</p></section>'
        for ident, text in notes
    )
    notes_body = f'<body name="notes"><title><p>Notes</p></title>{note_sections}</body>' if notes else ""
    binary = (
        f'<binary id="pic" content-type="image/png">{base64.b64encode(PIXEL_PNG).decode()}</binary>'
        if image
        else ""
    )
    return (
        f'<?xml version="1.0" encoding="{encoding}"?>\n{doctype}'
        f'<FictionBook xmlns="{FB2_NS}" xmlns:l="{XLINK_NS}"><description><title-info>'
        f"<genre>prose</genre><author><first-name>{first}</first-name><last-name>{last}</last-name></author>"
        f"<book-title>{title}</book-title><lang>ru</lang></title-info></description>"
        f"<body>{sections}</body>{notes_body}{binary}</FictionBook>"
    )


def write_fb2(path: Path, document: str, encoding: str = "utf-8") -> Path:
    """Write an FB2 document; a name ending in .zip gets it zipped as book.fb2."""
    data = document.encode(encoding)
    if path.name.endswith(".zip"):
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("book.fb2", data)
    else:
        path.write_bytes(data)
    return path


def _exth(author: str) -> bytes:
    data = author.encode("utf-8")
    record = struct.pack(">II", 100, 8 + len(data)) + data
    body = struct.pack(">II", 12 + len(record), 1) + record
    padding = b"\0" * (-len(body) % 4)
    return b"EXTH" + body + padding


def write_mobi(
    path: Path, html: str, *, title: str = "Kindle Tale", author: str = "", crypto: int = 0
) -> Path:
    """A minimal Mobipocket 6 book written byte by byte: a Palm database of one header record,
    uncompressed 4096-byte text records of `html` and an EOF record (no images, no index).
    `crypto` sets the encryption type a DRM-protected book carries (1 or 2)."""
    text = html.encode("utf-8")
    chunks = [text[i : i + 4096] for i in range(0, len(text), 4096)] or [b""]
    mobi_length = 0xE8
    header = bytearray(16 + mobi_length)
    struct.pack_into(">HHIHHHH", header, 0, 1, 0, len(text), len(chunks), 4096, crypto, 0)
    header[16:20] = b"MOBI"
    struct.pack_into(">IIIII", header, 20, mobi_length, 2, 65001, 0x1234, 6)
    for offset in range(0x28, 0x50, 4):  # orthographic, inflection, index names and keys, extra indexes
        struct.pack_into(">I", header, offset, 0xFFFFFFFF)
    struct.pack_into(">I", header, 0x50, len(chunks) + 1)  # first non-book record
    exth = _exth(author) if author else b""
    name = title.encode("utf-8")
    struct.pack_into(">II", header, 0x54, len(header) + len(exth), len(name))
    struct.pack_into(">I", header, 0x5C, 9)  # locale: English
    struct.pack_into(">I", header, 0x68, 6)  # minimum reader version
    struct.pack_into(">I", header, 0x6C, 0xFFFFFFFF)  # first image record: none
    struct.pack_into(">I", header, 0x80, 0x40 if author else 0)  # EXTH present
    for offset in (0xA4, 0xB8, 0xBC, 0xC0, 0xC4, 0xC8, 0xCC, 0xD0, 0xD4, 0xD8, 0xDC, 0xE0, 0xE4, 0xE8, 0xF4):
        struct.pack_into(">I", header, offset, 0xFFFFFFFF)
    struct.pack_into(">HH", header, 0xC0, 1, len(chunks))  # first and last content record
    struct.pack_into(">H", header, 0xF2, 0)  # no trailing entries
    record0 = bytes(header) + exth + name + b"\0" * (4 - len(name) % 4 + 2048)
    records = [record0, *chunks, b"\xe9\x8e\r\n"]
    start = 78 + 8 * len(records) + 2
    offsets = []
    for record in records:
        offsets.append(start)
        start += len(record)
    pdb = bytearray(78)
    pdb[:32] = title.encode("ascii", "replace")[:31].ljust(32, b"\0")
    pdb[60:68] = b"BOOKMOBI"
    struct.pack_into(">I", pdb, 68, len(records) * 2 - 1)
    struct.pack_into(">H", pdb, 76, len(records))
    entries = b"".join(struct.pack(">II", offset, 2 * i) for i, offset in enumerate(offsets))
    path.write_bytes(bytes(pdb) + entries + b"\0\0" + b"".join(records))
    return path


def page_picture(lines: Sequence[str], width: int = 1240, height: int = 1754) -> bytes:
    """A scanned page: `lines` drawn in black on white with Pillow, as PNG bytes (about 150 dpi A4)."""
    import io

    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=36)
    for number, line in enumerate(lines):
        draw.text((100, 120 + number * 60), line, fill=0, font=font)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def write_scanned_pdf(
    path: Path, pages: Sequence[Sequence[str]], *, text_pages: Sequence[int] = (), title: str = "Scanned"
) -> Path:
    """A PDF whose pages are each one picture of their lines (no text layer); the 1-based
    `text_pages` are ordinary text pages instead."""
    import io

    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_title(title)
    pdf.set_font("Helvetica", size=12)
    for number, lines in enumerate(pages, start=1):
        pdf.add_page()
        if number in text_pages:
            for line in lines:
                pdf.cell(0, 8, line, new_x="LMARGIN", new_y="NEXT")
        else:
            pdf.image(io.BytesIO(page_picture(lines)), x=0, y=0, w=pdf.w, h=pdf.h)
    pdf.output(str(path))
    return path


SCANNED_PAGES = [
    ["Preface by the editor of this volume."],
    ["The lighthouse keeper told Margaret", "about seventeen gulls at dawn."],
    ["Then Margaret rowed the skiff", "toward the harbour lantern."],
    ["Nobody but Margaret answered", "the foghorn that stormy evening."],
]
"""The lines of a four-page scanned book whose first page alone has a text layer."""


def write_scanned_book(folder: Path) -> Path:
    """`SCANNED_PAGES` as a scanned PDF, "scan.pdf" in `folder`."""
    return write_scanned_pdf(folder / "scan.pdf", SCANNED_PAGES, text_pages=[1], title="Gull Rock Scan")


# --- Books whose pages are pictures --------------------------------------------------------------------

PICTURE_PAGES = [
    ["The lighthouse keeper told Margaret", "about seventeen gulls at dawn."],
    ["Then Margaret rowed the skiff", "toward the harbour lantern."],
    ["Nobody but Margaret answered", "the foghorn that stormy evening."],
]
"""The lines drawn on each page of the picture books below (a page per entry)."""

FIXED_LAYOUT = '<meta property="rendition:layout">pre-paginated</meta>'
PICTURE_SIZE = (760, 1075)
"""The picture books' page size in pixels: small for quick OCR, wide enough for every line."""


def write_picture_epub(
    path: Path,
    pages: Sequence[Sequence[str]] = PICTURE_PAGES,
    *,
    title: str = "Gull Rock Pictures",
    svg_pages: Sequence[int] = (),
    caption: str = "",
) -> Path:
    """A fixed-layout EPUB whose pages are each one PNG of their lines: an `<img>`, or for the 1-based
    `svg_pages` an `<svg><image/></svg>` (the usual fixed-layout markup); `caption` is a little text on
    the first page; a nav names the first and last pages."""
    from tests.fixtures_books import nav_document, write_hand_epub, xhtml

    documents: dict[str, str] = {}
    pictures: dict[str, str | bytes] = {}
    items = ""
    for number, lines in enumerate(pages, start=1):
        name = f"images/page{number}.png"
        pictures[name] = page_picture(lines, PICTURE_SIZE[0], PICTURE_SIZE[1])
        items += f'<item id="img{number}" href="{name}" media-type="image/png"/>'
        if number in svg_pages:
            body = (
                '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                f'width="100%" height="100%" viewBox="0 0 760 1075"><image width="760" height="1075" '
                f'xlink:href="../{name}"/></svg>'
            )
        else:
            body = f'<div><img src="../{name}" width="760" height="1075" alt=""/></div>'
        if number == 1 and caption:
            body += f"<p>{caption}</p>"
        documents[f"text/page{number}.xhtml"] = xhtml(body)
    toc = [("Dawn", "text/page1.xhtml"), ("Evening", f"text/page{len(pages)}.xhtml")]
    documents_and_nav = {**documents, "nav.xhtml": nav_document(toc)}
    return write_hand_epub(
        path,
        documents_and_nav,
        extra_files=pictures,
        title=title,
        nav="nav.xhtml",
        spine=[f"d{i}" for i in range(len(documents))],
        extra_items=items,
        meta=FIXED_LAYOUT,
    )


def write_cbz(
    path: Path,
    pages: Sequence[Sequence[str]] = PICTURE_PAGES,
    *,
    comic_info: str | None = None,
    folders: Sequence[str] = (),
) -> Path:
    """A comic archive of PNG pages named so that only a natural sort orders them (page9 before page10),
    in `folders` (one per page, when given), with a ComicInfo.xml when given."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        order = list(enumerate(pages, start=9))  # page9.png, page10.png, page11.png ...
        for index, (number, lines) in enumerate(reversed(order)):
            folder = f"{folders[len(order) - 1 - index]}/" if folders else ""
            archive.writestr(
                f"{folder}page{number}.png", page_picture(lines, PICTURE_SIZE[0], PICTURE_SIZE[1])
            )
        archive.writestr("__MACOSX/._page9.png", b"resource fork")
        if comic_info is not None:
            archive.writestr("ComicInfo.xml", comic_info)
    return path


def write_svg_text_epub(path: Path) -> Path:
    """An EPUB whose story is SVG `<text>`: one XHTML page with an inline svg, one SVG spine document."""
    from tests.fixtures_books import write_hand_epub, xhtml

    inline = xhtml(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 800">'
        "<title>not the story</title>"
        '<text x="10" y="40">The keeper lit the lamp</text>'
        '<text x="10" y="60">at the top of the tower.</text>'
        '<text x="10" y="140"><tspan>A gull cried</tspan> <tspan>over the rocks.</tspan></text>'
        "</svg>"
    )
    document = (
        '<?xml version="1.0" encoding="utf-8"?>'
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 800">'
        '<rect width="600" height="800" fill="white"/>'
        '<text x="20" y="50">Margaret rowed the skiff home</text>'
        '<text x="20" y="70">before the storm broke.</text>'
        "</svg>"
    )
    return write_hand_epub(path, {"one.xhtml": inline, "two.svg": document}, title="Drawn Words")
