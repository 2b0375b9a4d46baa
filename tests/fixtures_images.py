"""Illustrated books written by the tests: EPUB, FB2 and HTML with PNG, JPEG, GIF and SVG pictures,
a broken picture and a decompression bomb (a 20000 x 20000 PNG that is small on disk)."""

from __future__ import annotations

import base64
import io
import struct
import zlib
from collections.abc import Sequence
from pathlib import Path

from tests.fixtures_books import XHTML_NS, write_hand_epub, xhtml
from tests.fixtures_formats import FB2_NS, XLINK_NS

PROSE = (
    "Alice sat on the bank beside her sister and had nothing to do; once or twice she peeped into the "
    "book her sister was reading, but it had no pictures or conversations in it. "
)


def picture(kind: str = "PNG", width: int = 320, height: int = 200, colour: str = "red") -> bytes:
    """A small picture (a coloured box on white with a diagonal) in `kind` (PNG, JPEG or GIF)."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle((width // 8, height // 8, width * 7 // 8, height * 7 // 8), fill=colour)
    draw.line((0, 0, width, height), fill="black", width=3)
    buffer = io.BytesIO()
    image.save(buffer, kind)
    return buffer.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def bomb_png(side: int = 20000) -> bytes:
    """A valid 1-bit PNG of side x side pixels whose rows are all zero: a few KB that decode to 50 MB+."""
    row = b"\x00" * (1 + (side + 7) // 8)
    compressor = zlib.compressobj(9)
    data = b"".join(compressor.compress(row) for _ in range(side)) + compressor.flush()
    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")


BROKEN_PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + b"garbage, not a picture" * 4
SVG_DRAWING = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><title>A vector map</title>'
    '<rect x="10" y="10" width="180" height="80" fill="green"/></svg>'
)


def write_illustrated_epub(path: Path, *, extra_pictures: Sequence[tuple[str, bytes, str]] = ()) -> Path:
    """An EPUB with a cover (EPUB 3 cover-image, shown in an SVG wrapper on the first page) and chapters
    with a PNG, a JPEG and a GIF picture between paragraphs, an inline SVG drawing, and a missing picture.
    `extra_pictures` ((file name, bytes, alt text)) adds a chapter with those pictures."""
    cover = picture("JPEG", 300, 450, "navy")
    files: dict[str, str | bytes] = {
        "images/cover.jpg": cover,
        "images/rabbit.png": picture("PNG", 320, 240, "red"),
        "images/tea.jpg": picture("JPEG", 400, 300, "green"),
        "images/cat.gif": picture("GIF", 200, 200, "purple"),
    }
    documents = {
        "cover.xhtml": xhtml(
            '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            'width="100%" height="100%" viewBox="0 0 300 450">'
            '<image width="300" height="450" xlink:href="images/cover.jpg"/></svg>'
        ),
        "c1.xhtml": xhtml(
            "<h1>Down the Rabbit-Hole</h1>"
            f"<p>{PROSE}</p>"
            '<div><img src="images/rabbit.png" alt="The White Rabbit checks his watch"/></div>'
            f"<p>{PROSE}</p>"
            '<p><img src="images/missing.png" alt="A picture the book lost"/></p>'
            f"<p>{PROSE}</p>"
        ),
        "c2.xhtml": xhtml(
            "<h1>A Mad Tea-Party</h1>"
            f"<p>{PROSE}</p>"
            '<p><img src="images/tea.jpg" alt="The tea-party"/></p>'
            f"<p>{PROSE}</p>"
            '<p><img src="images/cat.gif" alt="The Cheshire Cat"/></p>'
            f"{SVG_DRAWING}"
            f"<p>{PROSE}</p>"
        ),
    }
    manifest = (
        '<item id="cover-image" href="images/cover.jpg" media-type="image/jpeg" properties="cover-image"/>'
        '<item id="rabbit" href="images/rabbit.png" media-type="image/png"/>'
        '<item id="tea" href="images/tea.jpg" media-type="image/jpeg"/>'
        '<item id="cat" href="images/cat.gif" media-type="image/gif"/>'
    )
    if extra_pictures:
        body = "<h1>Odd Pictures</h1>"
        for name, data, alt in extra_pictures:
            files[f"images/{name}"] = data
            manifest += f'<item id="x-{name}" href="images/{name}" media-type="image/png"/>'
            body += f'<p>{PROSE}</p><p><img src="images/{name}" alt="{alt}"/></p>'
        documents["c3.xhtml"] = xhtml(body + f"<p>{PROSE}</p>")
    return write_hand_epub(path, documents, extra_files=files, title="Alice Illustrated", extra_items=manifest)


def write_picture_book(path: Path, pages: int) -> Path:
    """An EPUB of `pages` chapters, each a paragraph and its own picture (for memory over many pages)."""
    files: dict[str, str | bytes] = {}
    documents: dict[str, str] = {}
    manifest = ""
    colours = ("red", "green", "blue", "orange", "purple", "teal", "olive", "maroon")
    for number in range(1, pages + 1):
        name = f"images/p{number}.png"
        files[name] = picture("PNG", 480, 320 + number % 7, colours[number % len(colours)])
        manifest += f'<item id="i{number}" href="{name}" media-type="image/png"/>'
        documents[f"c{number}.xhtml"] = xhtml(
            f"<h1>Plate {number}</h1><p>{PROSE}</p><p><img src=\"{name}\" alt=\"Plate {number}\"/></p>"
        )
    return write_hand_epub(path, documents, extra_files=files, title="A Book of Plates", extra_items=manifest)


def write_illustrated_fb2(path: Path) -> Path:
    """An FB2 with a cover page image and a PNG and a JPEG picture in its text, carried as binaries."""
    binaries = {
        "cover.jpg": ("image/jpeg", picture("JPEG", 300, 450, "maroon")),
        "map.png": ("image/png", picture("PNG", 400, 300, "teal")),
        "horse.jpg": ("image/jpeg", picture("JPEG", 360, 240, "olive")),
    }
    text = "".join(f"<p>{PROSE}</p>" for _ in range(2))
    body = (
        f"<section><title><p>The Map</p></title>{text}"
        '<image l:href="#map.png" alt="A map of the steppe"/>'
        f"{text}</section>"
        f"<section><title><p>The Horse</p></title>{text}"
        '<image l:href="#horse.jpg" title="A grey horse"/>'
        f"{text}</section>"
    )
    binary = "".join(
        f'<binary id="{name}" content-type="{kind}">{base64.b64encode(data).decode()}</binary>'
        for name, (kind, data) in binaries.items()
    )
    document = (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        f'<FictionBook xmlns="{FB2_NS}" xmlns:l="{XLINK_NS}"><description><title-info>'
        "<genre>prose</genre><author><first-name>Ivan</first-name><last-name>Petrov</last-name></author>"
        '<book-title>The Steppe Atlas</book-title><coverpage><image l:href="#cover.jpg"/></coverpage>'
        "<lang>en</lang></title-info></description>"
        f"<body>{body}</body>{binary}</FictionBook>"
    )
    path.write_text(document, encoding="utf-8")
    return path


def write_illustrated_html(path: Path) -> Path:
    """A single-file HTML book with an embedded (data: URL) PNG and a picture in a file beside it."""
    (path.parent / "plate.gif").write_bytes(picture("GIF", 240, 180, "orange"))
    inline = base64.b64encode(picture("PNG", 300, 200, "blue")).decode()
    body = (
        f"<h1>Plates</h1><h2>One</h2><p>{PROSE}</p>"
        f'<p><img src="data:image/png;base64,{inline}" alt="A blue plate"/></p><p>{PROSE}</p>'
        f'<h2>Two</h2><p>{PROSE}</p><p><img src="plate.gif" alt="An orange plate"/></p><p>{PROSE}</p>'
    )
    path.write_text(
        f'<!DOCTYPE html>\n<html xmlns="{XHTML_NS}"><head><meta charset="utf-8"><title>Plates</title></head>'
        f"<body>{body}</body></html>",
        encoding="utf-8",
    )
    return path
