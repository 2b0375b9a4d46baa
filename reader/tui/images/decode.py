"""Decoding a picture's bytes into a small RGB image of a given size, safely: never on the UI thread."""

from __future__ import annotations

import io
from typing import Any

MAX_DECODE_PIXELS = 40_000_000
"""Pictures declaring more pixels than this (a decompression bomb: 20000 x 20000) are not decoded."""


class PictureError(Exception):
    """A picture that cannot be drawn: broken, too large or of an unsupported kind (its message says which)."""


def open_picture(data: bytes, size: tuple[int, int] | None = None) -> Any:
    """The picture as a PIL image, loaded, in RGB; PictureError when it is broken, huge or unsupported.
    With `size` (the pixels it will be drawn at) a JPEG is decoded at the smallest scale that covers it."""
    import warnings

    from PIL import Image

    if not data:
        raise PictureError("the book does not contain this picture")
    if data.lstrip()[:5].lower() in (b"<svg ", b"<?xml") or b"<svg" in data[:512].lower():
        raise PictureError("SVG drawings cannot be drawn in the terminal")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            if image.width * image.height > MAX_DECODE_PIXELS:
                raise PictureError(f"the picture is too large to draw ({image.width} x {image.height} pixels)")
            if image.format == "JPEG" and size is not None:
                image.draft("RGB", size)  # a big JPEG decoded at 1/2, 1/4 or 1/8 of its size
            image.load()
    except PictureError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        raise PictureError(f"the picture is too large to draw ({error})") from None
    except Exception as error:  # noqa: BLE001 - PIL raises many kinds for broken files
        raise PictureError(f"the picture cannot be read ({type(error).__name__})") from None
    if image.mode in ("RGBA", "LA", "P", "PA") or "transparency" in image.info:
        base = Image.new("RGB", image.size, (255, 255, 255))
        rgba = image.convert("RGBA")
        base.paste(rgba, mask=rgba.getchannel("A"))
        return base
    return image.convert("RGB")


def scaled(image: Any, width: int, height: int, *, letterbox: bool = False) -> Any:
    """`image` resized to width x height pixels; with `letterbox` its shape is kept and it is centred
    on white."""
    from PIL import Image

    width, height = max(1, width), max(1, height)
    if image.size == (width, height):
        return image
    image = image.copy()
    image.thumbnail((width * 2, height * 2), Image.Resampling.BILINEAR, reducing_gap=2.0)
    if not letterbox:
        return image.resize((width, height), Image.Resampling.LANCZOS)
    image.thumbnail((width, height), Image.Resampling.LANCZOS)
    canvas = Image.new("RGB", (width, height), (255, 255, 255))
    canvas.paste(image, ((width - image.width) // 2, (height - image.height) // 2))
    return canvas
