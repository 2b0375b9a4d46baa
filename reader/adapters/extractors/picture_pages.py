"""Books whose pages are pictures (fixed-layout EPUBs, comics): what the pages say about themselves,
and the warning that their text waits for OCR."""

from __future__ import annotations

import mimetypes

from reader.domain.models import PageVisuals
from reader.domain.visuals import score_visual_importance

PICTURE_TYPES = {
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".png": "image/png",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".bmp": "image/bmp",
    ".avif": "image/avif",
    ".jxl": "image/jxl",
    ".tif": "image/tiff",
    ".tiff": "image/tiff",
    ".svg": "image/svg+xml",
}
"""Image files a page can be, by suffix (lower case)."""
OCR_ENGINE = "rapidocr_onnxruntime"
"""The OCR extra's recognizer package (reader.adapters.ocr.rapid_ocr)."""


def picture_type(name: str, declared: str = "") -> str:
    """The media type of an image file: as declared (a manifest's), else from its suffix."""
    if declared.startswith("image/"):
        return declared
    suffix = "." + name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return PICTURE_TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"


def picture_visuals(text: str) -> PageVisuals:
    """A page that is one picture, with whatever text it has beside it (a caption, a copyright line)."""
    return PageVisuals(1, 1.0, 0.0, score_visual_importance(1.0, len(text), 1.0))


def ocr_warning(blank: int, total: int) -> str:
    """The warning for `blank` of `total` pages that are pictures with no text yet."""
    from importlib.util import find_spec  # the OCR extra's recognizer, found without importing it

    how = "`reader ocr BOOK` (or `reader import --ocr`) reads them"
    if find_spec(OCR_ENGINE) is None:
        how += "; it needs the OCR extra: pip install 'reader[ocr]'"
    pages = "page is a picture" if total == 1 else "pages are pictures"
    share = f"{blank} of {total} {pages}" if blank != total else f"All {total} {pages}"
    return f"{share} with no text: search and the chat see nothing of them until {how}."
