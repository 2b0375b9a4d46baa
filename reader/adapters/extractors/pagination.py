"""Stable synthetic pages of about 2,000 characters, cut at paragraph boundaries."""

from __future__ import annotations

import re
from collections.abc import Sequence

from reader.domain.book_matter import page_break_after, page_break_before

TARGET_PAGE_CHARS = 2000

_SENTENCE_END = re.compile(r"[.!?…][\"'”’»)\]]*(?= )|[。！？][\"'”’」』）)]*")


def _sentences(paragraph: str) -> list[tuple[str, str]]:
    """(joiner, sentence) pairs whose concatenation is the paragraph; the joiner is " " or ""."""
    out: list[tuple[str, str]] = []
    start = 0
    for match in _SENTENCE_END.finditer(paragraph):
        out.append(_piece(paragraph[start : match.end()]))
        start = match.end()
    if start < len(paragraph):
        out.append(_piece(paragraph[start:]))
    return [(joiner, text) for joiner, text in out if text]


def _piece(segment: str) -> tuple[str, str]:
    joiner = " " if segment.startswith(" ") else ""
    return joiner, segment.strip(" ")


def _words(joiner: str, sentence: str, limit: int) -> list[tuple[str, str]]:
    """A sentence longer than `limit` cut at the last space before it (or hard, without one)."""
    out: list[tuple[str, str]] = []
    while len(sentence) > limit:
        cut = sentence.rfind(" ", 1, limit + 1)
        if cut > 0:
            out.append((joiner, sentence[:cut]))
            joiner, sentence = " ", sentence[cut + 1 :]
        else:
            out.append((joiner, sentence[:limit]))
            joiner, sentence = "", sentence[limit:]
    if sentence:
        out.append((joiner, sentence))
    return out


def split_long_paragraph(paragraph: str, limit: int) -> list[tuple[str, str]]:
    """Cut a paragraph into (joiner, piece) pairs of at most `limit` characters, at sentence ends if possible.

    Concatenating joiner + piece for every pair gives the paragraph back (the first joiner is "").
    """
    pieces: list[tuple[str, str]] = []
    joiner, current = "", ""
    for sentence_joiner, sentence in _sentences(paragraph):
        if current and len(current) + len(sentence_joiner) + len(sentence) <= limit:
            current += sentence_joiner + sentence
            continue
        if current:
            pieces.append((joiner, current))
            current = ""
        for i, (word_joiner, part) in enumerate(_words(sentence_joiner, sentence, limit)):
            if i:
                pieces.append((joiner, current))
            joiner, current = word_joiner, part
    if current:
        pieces.append((joiner, current))
    if pieces:
        pieces[0] = ("", pieces[0][1])
    return pieces


def paginate_with_index(
    paragraphs: Sequence[str], target_chars: int = TARGET_PAGE_CHARS
) -> tuple[list[str], list[int]]:
    """Pages of about `target_chars`, and the 0-based page on which each paragraph starts.

    Paragraphs are kept whole unless one is much longer than the target (over 1.5 times); it is then cut
    at sentence ends (else at a space). A page ends where its length comes closest to the target.
    Deterministic: the same paragraphs always give the same pages.
    """
    target = max(1, target_chars)
    pages: list[str] = []
    starts: list[int] = []
    parts: list[str] = []
    size = 0
    for paragraph in paragraphs:
        if parts and page_break_before(paragraph):
            pages.append("".join(parts))
            parts, size = [], 0
        if len(paragraph) > target + target // 2:
            units = [
                ("\n\n" if i == 0 else joiner, text)
                for i, (joiner, text) in enumerate(split_long_paragraph(paragraph, target))
            ]
        else:
            units = [("\n\n", paragraph)]
        for i, (separator, text) in enumerate(units):
            if parts:
                grown = size + len(separator) + len(text)
                if grown > target and target - size <= grown - target:
                    pages.append("".join(parts))
                    parts, size = [], 0
            if parts:
                parts.append(separator)
                size += len(separator)
            parts.append(text)
            size += len(text)
            if i == 0:
                starts.append(len(pages))
        if parts and page_break_after(paragraph):
            pages.append("".join(parts))
            parts, size = [], 0
    if parts:
        pages.append("".join(parts))
    return pages, starts


def paginate(paragraphs: Sequence[str], target_chars: int = TARGET_PAGE_CHARS) -> list[str]:
    """Stable synthetic pages of about `target_chars` characters; paragraphs joined by "\\n\\n" inside."""
    return paginate_with_index(paragraphs, target_chars)[0]
