"""Cutting page text into page-aligned chunks (domain.models.join_chunks puts it back together)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from reader.domain.models import Chunk

TARGET_CHUNK_CHARS = 700
"""About a paragraph or two: small enough to rank well, large enough to carry context."""

_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+|(?<=[.!?…][\"'”’)\]])\s+")


@dataclass(frozen=True)
class ChunkPiece:
    """Text of one chunk and whether it continues the previous chunk's paragraph."""

    text: str
    continues: bool


def _split_long_paragraph(paragraph: str, limit: int) -> list[str]:
    """Split a paragraph longer than `limit` at sentence ends (else spaces) into pieces."""
    sentences = [s for s in _SENTENCE_END.split(paragraph) if s]
    pieces: list[str] = []
    current = ""
    for sentence in sentences:
        while len(sentence) > limit:
            cut = sentence.rfind(" ", 0, limit)
            cut = cut if cut > 0 else limit
            head, sentence = sentence[:cut].strip(), sentence[cut:].strip()
            if current:
                pieces.append(current)
                current = ""
            if head:
                pieces.append(head)
        if current and len(current) + 1 + len(sentence) > limit:
            pieces.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}" if current else sentence
    if current:
        pieces.append(current)
    return pieces


def split_page(text: str, target: int = TARGET_CHUNK_CHARS) -> list[ChunkPiece]:
    """Group a page's paragraphs into chunks of about `target` characters, never crossing the page."""
    pieces: list[ChunkPiece] = []
    current: list[str] = []
    size = 0

    def flush() -> None:
        nonlocal current, size
        if current:
            pieces.append(ChunkPiece("\n\n".join(current), False))
            current, size = [], 0

    for paragraph in (p.strip() for p in text.split("\n\n")):
        if not paragraph:
            continue
        if len(paragraph) > 2 * target:
            flush()
            parts = _split_long_paragraph(paragraph, target)
            pieces.extend(ChunkPiece(part, i > 0) for i, part in enumerate(parts))
            continue
        if current and size + len(paragraph) > target:
            flush()
        current.append(paragraph)
        size += len(paragraph) + 2
    flush()
    return pieces


def make_chunks(book_id: str, pages: Iterable[str]) -> list[Chunk]:
    """Chunks for a whole book; page numbers are 1-based."""
    chunks: list[Chunk] = []
    for number, text in enumerate(pages, start=1):
        for piece in split_page(text):
            index = len(chunks)
            chunks.append(
                Chunk(
                    id=f"{book_id[:16]}-{index}",
                    book_id=book_id,
                    index=index,
                    start_page=number,
                    end_page=number,
                    text=piece.text,
                    continues_paragraph=piece.continues,
                )
            )
    return chunks

