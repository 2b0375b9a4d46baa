"""The pictures of an EPUB, FB2 or HTML book: read once at import, bounded, placed where they stand."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field

from reader.adapters.extractors.epub_pages import FigurePlace
from reader.adapters.extractors.xhtml import REF_SEPARATOR
from reader.domain.images import COVER_PAGE, MAX_BOOK_IMAGE_BYTES, MAX_IMAGE_BYTES, BookImage

ICON_PIXELS = 24
"""A picture smaller than this on a side is an ornament or a drop capital: it is not shown."""

_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
    (b"BM", "image/bmp"),
)


def media_type(data: bytes) -> str:
    """What the bytes are, from their signature ("" when not a picture reader knows)."""
    for signature, kind in _SIGNATURES:
        if data.startswith(signature):
            return kind
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    head = data[:512].lstrip().lower()
    if head.startswith((b"<svg", b"<?xml")) and b"<svg" in data[:4096].lower():
        return "image/svg+xml"
    return ""


def declared_size(data: bytes) -> tuple[int, int]:
    """The pixels a raster picture's header declares, without decoding it ((0, 0) if unreadable)."""
    import warnings

    from PIL import Image  # lazy: only books with pictures need it

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(data)) as image:
                return int(image.width), int(image.height)
    except Exception:  # noqa: BLE001 - a broken or enormous picture: shown as its alt text
        return 0, 0


def split_ref(ref: str) -> tuple[str, str]:
    """(link, alt text) of an IMAGE_REF value."""
    link, _, alt = ref.partition(REF_SEPARATOR)
    return link, alt


@dataclass
class _Read:
    data: bytes
    media_type: str
    width: int
    height: int


@dataclass
class ImageReader:
    """Reads a book's pictures once each, within the per-image and per-book byte limits.

    `locate(document, link)` names a picture (a zip path, a binary's id), None for an external link;
    `load(key)` returns its bytes (None when missing).
    """

    locate: Callable[[str, str], str | None]
    load: Callable[[str], bytes | None]
    max_image_bytes: int = MAX_IMAGE_BYTES
    max_book_bytes: int = MAX_BOOK_IMAGE_BYTES
    spent: int = 0
    skipped: int = 0
    """Pictures left out for their size: they show as their alt text."""
    _read: dict[str, _Read | None] = field(default_factory=dict)

    def read(self, key: str) -> _Read | None:
        if key in self._read:
            return self._read[key]
        data = self.load(key)
        found: _Read | None = None
        if data:
            if len(data) > self.max_image_bytes or self.spent + len(data) > self.max_book_bytes:
                self.skipped += 1
            else:
                kind = media_type(data)
                width, height = declared_size(data) if kind and kind != "image/svg+xml" else (0, 0)
                self.spent += len(data)
                found = _Read(data, kind, width, height)
        self._read[key] = found
        return found

    def images(self, figures: list[FigurePlace], cover: str | None = None) -> list[BookImage]:
        """The figures as BookImages (a missing or oversized picture keeps its place and alt text) and
        the cover: the figure showing it, else an image of its own outside the pages."""
        out: list[BookImage] = []
        for place in figures:
            link, alt = split_ref(place.ref)
            key = self.locate(place.document, link) if link else None
            read = self.read(key) if key else None
            if read is None and not alt:
                continue
            if read is not None and read.width and min(read.width, read.height) < ICON_PIXELS:
                continue
            out.append(self._image(place.page + 1, place.offset, read, alt, cover is not None and key == cover))
        if cover is not None and not any(image.cover for image in out):
            read = self.read(cover)
            if read is not None and read.media_type:
                out.append(self._image(COVER_PAGE, 0, read, "Cover", True))
        return out

    @staticmethod
    def _image(page: int, offset: int, read: _Read | None, alt: str, cover: bool) -> BookImage:
        if read is None:
            return BookImage(page, offset, b"", "", alt, cover=cover)
        return BookImage(page, offset, read.data, read.media_type, alt, read.width, read.height, cover)

    def warnings(self) -> list[str]:
        """One line when pictures were left out for their size."""
        if not self.skipped:
            return []
        many = self.skipped != 1
        return [
            f"{self.skipped} picture{'s' * many} {'were' if many else 'was'} too large to keep "
            f"(over {self.max_image_bytes // 2**20} MB each or {self.max_book_bytes // 2**20} MB a book); "
            f"{'they show' if many else 'it shows'} as alt text."
        ]
