"""Front and back matter: the publisher's pages around a story (Project Gutenberg's header and licence,
a contents list, a transcriber's note, an index).

They stay readable, but the story's companion features (X-Ray, recaps, default search, reading
progress) leave them out. Pure text rules, shared by the extractors (which start a new page where
such matter begins or ends) and the import (which finds the story's pages).
"""

from __future__ import annotations

import re

_GUTENBERG_START = re.compile(
    r"^\W{0,6}\**\s*start\s+of\s+(?:the|this)\s+project\s+gutenberg\b", re.IGNORECASE
)
"""Project Gutenberg's "*** START OF THE PROJECT GUTENBERG EBOOK X ***": the story follows it."""
_GUTENBERG_END = re.compile(
    r"^\W{0,6}(?:\**\s*end\s+of\s+(?:the\s+|this\s+)?project\s+gutenberg(?:['’]s)?\b"
    r"|end\s+of\s+(?:the\s+|this\s+)?project\s+gutenberg\s+e-?(?:book|text))",
    re.IGNORECASE,
)
""""*** END OF THE PROJECT GUTENBERG EBOOK X ***" or "End of the Project Gutenberg EBook of X":
the licence follows."""
_THE_END = re.compile(r"^\W{0,6}(?:the\s+end|finis)\W{0,6}$", re.IGNORECASE)
""""THE END" or "Finis" on a line of its own: near the end of a book, what follows is the publisher's."""
_MATTER_HEADING = re.compile(
    r"^\W{0,3}(?:(?:[a-z]+\s+)?transcriber['’]?s?\s+notes?|table\s+of\s+contents|contents|list\s+of\s+illustrations"
    r"|illustrations|index|copyright(?:\s+page)?|title\s+page|colophon|cover|licen[cs]e"
    r"|the\s+full\s+project\s+gutenberg\s+licen[cs]e|about\s+this\s+e-?book|also\s+by\b.*)\W{0,3}$",
    re.IGNORECASE,
)
"""A heading (a line of its own, or a contents entry) that names front or back matter."""


def starts_story(paragraph: str) -> bool:
    """Whether a paragraph is a marker after which the story begins (a new page follows it)."""
    return bool(_GUTENBERG_START.match(paragraph))


def ends_story(paragraph: str) -> bool:
    """Whether a paragraph is a marker where the story has ended (a new page starts at it)."""
    return bool(_GUTENBERG_END.match(paragraph))


def closes_story(paragraph: str) -> bool:
    """Whether a paragraph is "THE END" (a new page follows it; near the end, the story ends here)."""
    return len(paragraph) <= 20 and bool(_THE_END.match(paragraph.strip()))


def opens_matter(paragraph: str) -> bool:
    """Whether a paragraph is a heading of front or back matter ("Contents", "Transcriber's Note")."""
    first_line = paragraph.strip().split("\n", 1)[0]
    return len(first_line) <= 60 and bool(_MATTER_HEADING.match(first_line))


def matter_title(title: str) -> bool:
    """Whether a contents entry names front or back matter rather than a part of the story."""
    return len(title) <= 60 and bool(_MATTER_HEADING.match(title.strip()))


def page_break_before(paragraph: str) -> bool:
    """Whether synthetic pagination starts a new page at this paragraph (matter begins here)."""
    return ends_story(paragraph) or (opens_matter(paragraph) and not _generic_heading(paragraph))


def page_break_after(paragraph: str) -> bool:
    """Whether synthetic pagination ends the page after this paragraph (the story begins or ends)."""
    return starts_story(paragraph) or closes_story(paragraph)


def _generic_heading(paragraph: str) -> bool:
    """"Illustrations", "Index" and "Cover" alone can head a story's own pages: no page break for them."""
    first_line = paragraph.strip().split("\n", 1)[0].strip(" .:[]").lower()
    return first_line in ("illustrations", "index", "cover")
