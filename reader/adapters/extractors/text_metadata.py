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
_BYLINE = re.compile(r"^by[ \t]+(\S.{0,80})$", re.IGNORECASE)
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
    """A title line followed by "by Author" among the first lines of the text."""
    lines = [_clean(line) for line in head.splitlines()]
    lines = [line for line in lines if line][:_OPENING_LINES]
    for previous, line in zip(lines, lines[1:], strict=False):
        match = _BYLINE.match(line)
        if match and len(previous) <= 120 and not previous.endswith((".", ",", ";")):
            return {"title": previous, "author": _clean(match.group(1))}
    return {}


def _clean(value: str) -> str:
    return " ".join(value.replace("_", " ").split()).strip(" *[]")
