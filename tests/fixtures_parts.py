"""Generators of books with parts over chapters: a Project Gutenberg style EPUB with a nested nav (or a
War and Peace style NCX that nests later parts inside the first), and plain text with BOOK/CHAPTER
headings. Every chapter names its own sailor, so what a recap shows can be traced to its chapter."""

from __future__ import annotations

from pathlib import Path

from tests.fixtures_books import write_hand_epub, xhtml
from tests.fixtures_matter import HEADER, LICENCE

TITLE = "The Two Voyages"
PARTS = ("PART ONE: THE OUTWARD VOYAGE", "PART TWO: THE VOYAGE HOME")
CHAPTERS = (
    ("Chapter 1: Departure", "Chapter 2: The Doldrums"),
    ("Chapter 1: The Storm", "Chapter 2: Landfall"),
)
SAILORS = ("Abernathy", "Blackwood", "Castellan", "Dunmore")
"""The sailor each chapter (in reading order) is about; no other chapter names them."""
LONG_PARAGRAPHS = 14
"""Paragraphs of the first chapter (about 5 pages); the others have 3 (about 1 page)."""
LICENCE_TITLE = "THE FULL PROJECT GUTENBERG LICENSE"

_CARGO = ("barrels of salt cod", "bolts of sailcloth", "casks of rum", "crates of tea", "sacks of flour")
_PLACES = ("the harbour wall", "the northern reef", "the lighthouse", "the customs house", "the shipyard")


def chapter_paragraphs(position: int) -> list[str]:
    """The paragraphs of the chapter at `position` (0-3 in reading order)."""
    sailor = SAILORS[position]
    count = LONG_PARAGRAPHS if position == 0 else 3
    return [
        f"On the morning of day {i + 1} the mate {sailor} counted the {_CARGO[i % 5]} stowed near "
        f"{_PLACES[(i + position) % 5]}, and wrote the tally in the ship's book before the watch changed. "
        f"The captain listened while {sailor} explained why the {_CARGO[(i + 2) % 5]} had shifted in the "
        f"night, and the crew argued about the weather over {_PLACES[(i + 3) % 5]} until the bell rang. "
        f"By evening {sailor} had climbed the rigging {i + 2} times and seen nothing but grey water and "
        "the long swell rolling in from the west under a sky the colour of slate."
        for i in range(count)
    ]


def _markup(paragraphs: list[str], heading: str = "") -> str:
    head = f"<h1>{heading}</h1>" if heading else ""
    return head + "".join(f"<p>{p}</p>" for p in paragraphs)


def _nested_nav(entries: list[tuple[str, str, list[tuple[str, str]]]]) -> str:
    items = ""
    for name, href, children in entries:
        inner = "".join(f'<li><a href="{h}">{n}</a></li>' for n, h in children)
        items += f'<li><a href="{href}">{name}</a>' + (f"<ol>{inner}</ol>" if inner else "") + "</li>"
    return xhtml(f'<nav epub:type="toc"><h1>Contents</h1><ol>{items}</ol></nav>')


def _ncx(points: str) -> str:
    return (
        '<?xml version="1.0" encoding="utf-8"?>'
        '<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">'
        f"<head/><docTitle><text>{TITLE}</text></docTitle><navMap>{points}</navMap></ncx>"
    )


def _point(number: int, name: str, src: str, inner: str = "") -> str:
    return (
        f'<navPoint id="n{number}" playOrder="{number}"><navLabel><text>{name}</text></navLabel>'
        f'<content src="{src}"/>{inner}</navPoint>'
    )


def write_parts_epub(path: Path, *, flat_ncx: bool = False) -> Path:
    """A Gutenberg EPUB: header and title, two parts of two chapters each (each part's title page its
    own document), then the licence. The contents nest the chapters in their parts (EPUB3 nav), or with
    `flat_ncx` are an NCX only that nests PART TWO and its chapters inside PART ONE, as Project
    Gutenberg's War and Peace does."""
    documents = {"header.xhtml": xhtml(_markup([*HEADER, TITLE, "by Ann Author"]))}
    nav: list[tuple[str, str, list[tuple[str, str]]]] = [(TITLE, "header.xhtml", [])]
    position = 0
    for part_number, (part, chapters) in enumerate(zip(PARTS, CHAPTERS, strict=True), start=1):
        documents[f"part{part_number}.xhtml"] = xhtml(_markup([], part))
        children = []
        for chapter in chapters:
            name = f"c{position + 1}.xhtml"
            documents[name] = xhtml(_markup(chapter_paragraphs(position), chapter))
            children.append((chapter, name))
            position += 1
        nav.append((part, f"part{part_number}.xhtml", children))
    documents["licence.xhtml"] = xhtml(_markup(list(LICENCE)))
    nav.append((LICENCE_TITLE, "licence.xhtml", []))
    if not flat_ncx:
        return write_hand_epub(
            path, documents, extra_files={"nav.xhtml": _nested_nav(nav)}, title=TITLE, nav="nav.xhtml"
        )
    numbers = iter(range(1, 100))
    (_, title_href, _), (one, one_href, one_children), (two, two_href, two_children), licence = nav
    inner = "".join(_point(next(numbers), n, h) for n, h in one_children)
    inner += _point(next(numbers), two, two_href)  # PART TWO at the chapters' level, inside PART ONE
    inner += "".join(_point(next(numbers), n, h) for n, h in two_children)
    points = _point(next(numbers), TITLE, title_href) + _point(next(numbers), one, one_href, inner)
    points += _point(next(numbers), licence[0], licence[1])
    return write_hand_epub(path, documents, extra_files={"toc.ncx": _ncx(points)}, title=TITLE, ncx="toc.ncx")


def write_parts_text(path: Path, heading: str = "BOOK") -> Path:
    """The same story as plain text: `heading` ONE / CHAPTER I ..., `heading` TWO / CHAPTER I ..."""
    blocks = [TITLE.upper(), "by Ann Author"]
    position = 0
    for part_number, chapters in enumerate(CHAPTERS):
        blocks.append(f"{heading} {('ONE', 'TWO')[part_number]}")
        for roman, _ in zip(("I", "II"), chapters, strict=True):
            blocks += [f"CHAPTER {roman}", *chapter_paragraphs(position)]
            position += 1
    path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    return path
