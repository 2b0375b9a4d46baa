"""Generators of books with front and back matter: Project Gutenberg style plain text and EPUB."""

from __future__ import annotations

from pathlib import Path

from tests.fixtures_books import nav_document, write_hand_epub, xhtml

TITLE = "The Cliff Walk"
CHAPTER_TITLES = ("The Harbour", "The Letter", "The Storm", "The Return")
ROMAN = ("I", "II", "III", "IV")
LICENCE_WORDS = "Literary Archive Foundation"

HEADER = (
    f"The Project Gutenberg eBook of {TITLE}",
    "This ebook is for the use of anyone anywhere in the United States and most other parts of the world "
    "at no cost and with almost no restrictions whatsoever. You may copy it, give it away or re-use it "
    "under the terms of the Project Gutenberg License included with this ebook or online at "
    "www.gutenberg.org.",
    f"Title: {TITLE}",
    "Author: Ann Author",
    "Release date: May 1, 2020 [eBook #99999]",
    "Language: English",
    f"*** START OF THE PROJECT GUTENBERG EBOOK {TITLE.upper()} ***",
)
LICENCE = (
    f"*** END OF THE PROJECT GUTENBERG EBOOK {TITLE.upper()} ***",
    "Updated editions will replace the previous one: the old editions will be renamed.",
    "THE FULL PROJECT GUTENBERG LICENSE",
    "PLEASE READ THIS BEFORE YOU DISTRIBUTE OR USE THIS WORK",
    *[
        f"Section {n}. The Project Gutenberg {LICENCE_WORDS} owns a compilation copyright in the "
        "collection of Project Gutenberg electronic works. Nearly all the individual works in the "
        "collection are in the public domain in the United States. Redistribution is subject to the "
        "trademark license, especially commercial redistribution, and the Project Gutenberg "
        f"{LICENCE_WORDS} asks that you keep this notice with every copy."
        for n in range(1, 9)
    ],
)


def story_paragraphs(chapter: int) -> list[str]:
    """Eight paragraphs of one chapter of the story, each saying which chapter it is."""
    return [
        f"Mina Harker walked along the cliff path in chapter {chapter}, paragraph {i}, thinking of "
        "Jonathan Harker and of the old lighthouse beyond Whitby harbour. The wind was cold and the sea "
        "was grey, and every evening Mina wrote in her journal what the day had brought to the harbour."
        for i in range(1, 9)
    ]


def gutenberg_text() -> str:
    """A Project Gutenberg plain-text book: header, title, contents, four chapters, THE END, licence."""
    parts = [*HEADER, TITLE.upper(), "by Ann Author", "Contents"]
    parts += [f"CHAPTER {roman}. {name}" for roman, name in zip(ROMAN, CHAPTER_TITLES, strict=True)]
    for number, (roman, name) in enumerate(zip(ROMAN, CHAPTER_TITLES, strict=True), start=1):
        parts += [f"CHAPTER {roman}. {name}", *story_paragraphs(number)]
    parts += ["THE END", *LICENCE]
    return "\n\n".join(parts) + "\n"


def write_gutenberg_text(path: Path) -> Path:
    """`gutenberg_text()` in a UTF-8 .txt file."""
    path.write_text(gutenberg_text(), encoding="utf-8")
    return path


def _markup(paragraphs: list[str], heading: str = "") -> str:
    head = f"<h1>{heading}</h1>" if heading else ""
    return head + "".join(f"<p>{p}</p>" for p in paragraphs)


def write_gutenberg_epub(path: Path) -> Path:
    """A Project Gutenberg EPUB: its first document holds the header and title, its last the licence;
    the contents open with a title entry before "Chapter 1"."""
    documents = {"header.xhtml": xhtml(_markup([*HEADER, TITLE, "by Ann Author"]))}
    toc = [(TITLE, "header.xhtml")]
    for number, name in enumerate(CHAPTER_TITLES, start=1):
        heading = f"Chapter {number}: {name}"
        documents[f"ch{number}.xhtml"] = xhtml(_markup(story_paragraphs(number), heading))
        toc.append((heading, f"ch{number}.xhtml"))
    documents["licence.xhtml"] = xhtml(_markup(list(LICENCE)))
    return write_hand_epub(
        path,
        documents,
        extra_files={"nav.xhtml": nav_document(toc)},
        title=TITLE,
        author="Ann Author",
        nav="nav.xhtml",
    )
