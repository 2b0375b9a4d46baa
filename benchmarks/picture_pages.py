"""Illustrated books for the TUI benchmark: the same text with a 1 MP picture on every page, or without."""

from __future__ import annotations

import io
import random
import zipfile
from pathlib import Path

CONTAINER = (
    '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
    '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>'
    "</rootfiles></container>"
)
WORDS = "the keeper climbed stair each night trimmed wick light harbour salt fog glass bell rang cold".split()


def picture(rng: random.Random, width: int = 1200, height: int = 834) -> bytes:
    """A 1 MP JPEG with shapes and noise (so it compresses like an illustration, not a flat colour)."""
    from PIL import Image, ImageDraw

    image = Image.effect_noise((width, height), 40).convert("RGB")
    draw = ImageDraw.Draw(image)
    for _ in range(30):
        x, y = rng.randrange(width), rng.randrange(height)
        colour = tuple(rng.randrange(256) for _ in range(3))
        draw.ellipse((x, y, x + rng.randrange(40, 300), y + rng.randrange(40, 300)), fill=colour)
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=85)
    return buffer.getvalue()


def write_book(path: Path, pages: int, *, pictures: bool, seed: int = 7) -> Path:
    """An EPUB of `pages` chapters of three paragraphs, with a 1 MP picture after the first when `pictures`."""
    rng = random.Random(seed)
    files: dict[str, str | bytes] = {"META-INF/container.xml": CONTAINER}
    items, refs = [], []
    distinct = [picture(rng) for _ in range(8)] if pictures else []
    for number in range(1, pages + 1):
        paragraphs = [
            " ".join(rng.choice(WORDS) for _ in range(90)).capitalize() + "." for _ in range(3)
        ]
        figure = ""
        if pictures:
            name = f"images/p{number}.jpg"
            # distinct bytes per page (a different comment), so no two pages share a cached picture
            files[f"OEBPS/{name}"] = distinct[number % len(distinct)] + number.to_bytes(4, "big")
            items.append(f'<item id="i{number}" href="{name}" media-type="image/jpeg"/>')
            figure = f'<p><img src="{name}" alt="Plate {number}"/></p>'
        body = f"<h1>Chapter {number}</h1><p>{paragraphs[0]}</p>{figure}<p>{paragraphs[1]}</p><p>{paragraphs[2]}</p>"
        files[f"OEBPS/c{number}.xhtml"] = (
            '<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml">'
            f"<head><title>c</title></head><body>{body}</body></html>"
        )
        items.append(f'<item id="c{number}" href="c{number}.xhtml" media-type="application/xhtml+xml"/>')
        refs.append(f'<itemref idref="c{number}"/>')
    title = "Plates" if pictures else "Plain"
    files["OEBPS/content.opf"] = (
        '<?xml version="1.0" encoding="utf-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" '
        'unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
        f"<dc:identifier id=\"id\">{title}</dc:identifier><dc:title>{title}</dc:title><dc:language>en</dc:language>"
        f"</metadata><manifest>{''.join(items)}</manifest><spine>{''.join(refs)}</spine></package>"
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        for name, data in files.items():
            archive.writestr(name, data)
    return path
