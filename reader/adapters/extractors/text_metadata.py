"""Title, author and language a plain-text book states about itself.

Project Gutenberg's plain-text files open with a header of fields ("Title: Dracula", "Author: Bram
Stoker", "Language: English") before the "*** START OF ..." line; copies without it often open with
the title and a "by ..." line. Nothing here is guessed from the story itself.
"""

from __future__ import annotations

import re

HEADER_CHARS = 8000
"""How far into the text the header fields and the opening lines are looked for."""

_FIELD = re.compile(r"^(Title|Author|Language)[ \t]*:[ \t]*(\S.*?)[ \t]*$", re.MULTILINE | re.IGNORECASE)
BYLINE_WORDS = ("by", "von", "par", "di", "de", "door", "por", "av", "af", "od", "из")
"""The word before an author's name on a title page, per language (English, German, French, Italian,
Spanish and Portuguese, Dutch, the Scandinavian languages, the Slavic ones)."""
_BYLINE = re.compile(rf"^(?:{'|'.join(BYLINE_WORDS)})(?:[ \t]+(\S.{{0,80}}))?$", re.IGNORECASE)
_SMALL_WORDS = frozenset("a an and as at but by for from in into of on or the to with".split())
"""Words an English title keeps in lower case inside it (when a title typed in capitals is re-cased)."""
_START = re.compile(r"^\*{3}[ \t]*START OF", re.MULTILINE | re.IGNORECASE)
_LANGUAGES = {
    "english": "en", "french": "fr", "german": "de", "spanish": "es", "italian": "it", "russian": "ru",
    "portuguese": "pt", "dutch": "nl", "latin": "la", "swedish": "sv", "danish": "da", "finnish": "fi",
    "norwegian": "no", "polish": "pl", "greek": "el", "chinese": "zh", "japanese": "ja",
}  # fmt: skip
_OPENING_LINES = 12


def stated_metadata(text: str) -> dict[str, str]:
    """The title, author and language (an ISO code) the text states, as far as it states them."""
    head = text[:HEADER_CHARS]
    start = _START.search(head)
    fields: dict[str, str] = {}
    for match in _FIELD.finditer(head[: start.start()] if start else head):
        key, value = match.group(1).lower(), _clean(match.group(2))
        if value and key not in fields:
            fields[key] = value
    if "language" in fields:
        code = _LANGUAGES.get(fields["language"].lower().split()[0])
        if code:
            fields["language"] = code
        else:
            del fields["language"]
    if "title" not in fields:
        fields.update(_byline(head[start.end() :] if start else head))
    return fields


def _byline(head: str) -> dict[str, str]:
    """A title line followed by "by Author" (or "by" alone, the name on the next line; "von", "par", ...
    in other languages) among the first lines of the text."""
    lines = [_clean(line) for line in head.splitlines()]
    lines = [line for line in lines if line][:_OPENING_LINES]
    for number, (previous, line) in enumerate(zip(lines, lines[1:], strict=False)):
        match = _BYLINE.match(line)
        if not match or len(previous) > 120 or previous.endswith((".", ",", ";")):
            continue
        author = match.group(1)
        if not author:  # the byline word alone: the name is the next line
            author = lines[number + 2] if number + 2 < len(lines) else ""
            if not author or len(author) > 80 or author.endswith((".", ",", ";")):
                continue
        return {"title": _recased(previous), "author": _recased(_clean(author))}
    return {}


def _recased(value: str) -> str:
    """A field typed in capitals ("THE TIME MACHINE", "FRANZ KAFKA") as a title is written; else as it is."""
    if not value.isupper():
        return value
    words = value.lower().split()
    return " ".join(
        word
        if 0 < i < len(words) - 1 and word in _SMALL_WORDS
        else "-".join(p[:1].upper() + p[1:] for p in word.split("-"))
        for i, word in enumerate(words)
    )


def _clean(value: str) -> str:
    return " ".join(value.replace("_", " ").split()).strip(" *[]")
