"""Local OCR with RapidOCR on ONNX Runtime (the optional `ocr` extra; its models ship in the wheel)."""

from __future__ import annotations

from typing import Any

from reader.domain.errors import ReaderError
from reader.domain.ocr import OCR_EXTRA_HINT

PARAGRAPH_GAP = 1.2
"""A vertical gap between lines larger than this many line heights starts a new paragraph."""


def ocr_available() -> bool:
    """Whether the OCR extra's recognizer is installed, checked without importing it."""
    from importlib.util import find_spec

    return find_spec("rapidocr_onnxruntime") is not None


def lines_to_text(boxes: list[tuple[list[list[float]], str]]) -> str:
    """Recognised boxes (corner points, text) as text: top to bottom, left to right, paragraphs at gaps."""
    rows: list[tuple[float, float, float, str]] = []  # top, bottom, left, text
    for points, text in boxes:
        ys = [p[1] for p in points]
        rows.append((min(ys), max(ys), min(p[0] for p in points), text.strip()))
    rows.sort()
    lines: list[list[tuple[float, float, float, str]]] = []
    for row in rows:
        if lines and row[0] < (lines[-1][0][0] + lines[-1][0][1]) / 2:  # starts above the line's middle
            lines[-1].append(row)
        else:
            lines.append([row])
    paragraphs: list[list[str]] = []
    previous_bottom = None
    for line in lines:
        top = min(r[0] for r in line)
        height = max(r[1] - r[0] for r in line) or 1.0
        text = " ".join(r[3] for r in sorted(line, key=lambda r: r[2]) if r[3])
        if previous_bottom is None or top - previous_bottom > PARAGRAPH_GAP * height:
            paragraphs.append([])
        paragraphs[-1].append(text)
        previous_bottom = max(r[1] for r in line)
    return "\n\n".join(" ".join(p) for p in paragraphs if any(p)).strip()


class RapidOcrRecognizer:
    """Recognises page images with RapidOCR, loaded on first use."""

    name = "rapidocr"

    def __init__(self) -> None:
        self._engine: Any = None

    def _load(self) -> Any:
        if self._engine is None:
            try:
                from rapidocr_onnxruntime import RapidOCR
            except ImportError:
                raise ReaderError(f"Reading pages without text (scans, comics) needs local OCR: {OCR_EXTRA_HINT}.") from None
            self._engine = RapidOCR()
        return self._engine

    def recognize(self, image: bytes) -> str:
        result, _ = self._load()(image)
        return lines_to_text([(box, text) for box, text, _score in result or []])
