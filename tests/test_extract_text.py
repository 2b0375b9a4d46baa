"""Plain-text and Markdown books."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader.adapters.extractors.text import TextExtractor
from reader.domain.errors import ExtractionError


def extract_error(path: Path) -> str:
    with pytest.raises(ExtractionError) as caught:
        TextExtractor().extract(path)
    message = str(caught.value)
    assert "\n" not in message and str(path) in message
    return message


def test_plain_text_title_paragraphs_and_pages(tmp_path: Path) -> None:
    path = tmp_path / "the_lighthouse-keeper.txt"
    paragraphs = [f"Paragraph {i} " + "word " * 60 for i in range(60)]
    path.write_text("\n\n".join(p.replace("word word", "word\nword", 3) for p in paragraphs) + "\n")
    book = TextExtractor().extract(path)
    assert book.title == "The Lighthouse Keeper"
    assert book.format == "txt" and book.pagination == "synthetic"
    assert [page.label for page in book.pages] == [str(i) for i in range(1, len(book.pages) + 1)]
    assert len(book.pages) > 3
    assert "\n\n".join(page.text for page in book.pages) == "\n\n".join(
        " ".join(p.split()) for p in paragraphs
    )
    assert TextExtractor().extract(path) == book


def test_plain_text_chapter_lines_start_pages(tmp_path: Path) -> None:
    path = tmp_path / "novel.txt"
    body = "Some prose here. " * 30
    path.write_text(
        f"Foreword text.\n\nCHAPTER I.\n\n{body}\n\nChapter 2: The Storm\n\n{body}\n\nChapter and verse.\n"
    )
    book = TextExtractor().extract(path)
    assert [(c.title, c.start_page) for c in book.chapters] == [
        ("CHAPTER I.", 2),
        ("Chapter 2: The Storm", 3),
    ]
    assert book.pages[1].text.startswith("CHAPTER I.")
    assert book.pages[2].text.endswith("Chapter and verse.")


def test_a_text_without_blank_lines_has_one_paragraph_per_line(tmp_path: Path) -> None:
    path = tmp_path / "lines.txt"
    path.write_text("First line.\nSecond line.\nThird line.")
    assert TextExtractor().extract(path).pages[0].text == "First line.\n\nSecond line.\n\nThird line."


def test_utf8_bom_latin1_and_utf16_are_read(tmp_path: Path) -> None:
    bom = tmp_path / "bom.txt"
    bom.write_bytes("\ufeffCafé au lait.".encode())
    assert TextExtractor().extract(bom).pages[0].text == "Café au lait."
    latin = tmp_path / "latin.txt"
    latin.write_bytes("Café au lait.".encode("latin-1"))
    book = TextExtractor().extract(latin)
    assert (book.pages[0].text, book.encoding) == ("Café au lait.", "latin-1")
    utf16 = tmp_path / "wide.txt"
    utf16.write_bytes("Hello".encode("utf-16"))
    assert TextExtractor().extract(utf16).pages[0].text == "Hello"


def test_empty_blank_and_binary_text_files_are_refused(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert "is empty (0 bytes)" in extract_error(empty)
    blank = tmp_path / "blank.md"
    blank.write_text("\n   \n\t\n")
    assert "contains no text" in extract_error(blank)
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"abc\x00def")
    assert "binary" in extract_error(binary)
    assert "no such file" in extract_error(tmp_path / "missing.txt")


def test_markdown_front_matter_headings_and_chapters(tmp_path: Path) -> None:
    path = tmp_path / "book.md"
    long = "The tide came in and the keeper watched. " * 80
    path.write_text(
        '---\ntitle: "The Keeper of Gull Rock"\nauthor: Ann Writer\nlanguage: en\nother: x\n---\n'
        "An opening note with *emphasis*, __strong__ and a [link](http://example.com).\n\n"
        f"# Part One\n\n## The Storm\n\n{long}\n\n### A minor heading\n\nMinor text.\n\n"
        "```\n# not a heading\n```\n\n"
        f"## The Calm\n\n- first item\n- second item\n\n{long}\n"
    )
    book = TextExtractor().extract(path)
    assert (book.title, book.author, book.language, book.format) == (
        "The Keeper of Gull Rock",
        "Ann Writer",
        "en",
        "markdown",
    )
    assert book.pages[0].text == "An opening note with emphasis, strong and a link."
    chapters = [(c.title, c.start_page, c.level) for c in book.chapters]
    assert chapters[0] == ("Part One", 2, 0)
    assert [c[0] for c in chapters] == ["Part One", "The Storm", "The Calm"]
    assert [c[2] for c in chapters] == [0, 1, 1]
    for chapter in book.chapters:
        assert book.pages[chapter.start_page - 1].text.startswith(chapter.title)
    storm = book.pages[chapters[1][1] - 1 : chapters[2][1] - 1]
    storm_text = "\n\n".join(page.text for page in storm)
    assert "A minor heading\n\nMinor text.\n\n# not a heading" in storm_text
    assert "first item\n\nsecond item" in book.pages[chapters[2][1] - 1].text


def test_markdown_title_falls_back_to_a_single_h1_then_the_file_name(tmp_path: Path) -> None:
    titled = tmp_path / "x.md"
    titled.write_text("# The Only Title\n\nText.\n\n## Chapter\n\nMore.\n")
    assert TextExtractor().extract(titled).title == "The Only Title"
    untitled = tmp_path / "my_notes.markdown"
    untitled.write_text("Intro.\n\n# One\n\nA.\n\n# Two\n\nB.\n")
    book = TextExtractor().extract(untitled)
    assert book.title == "My Notes"
    assert [(c.title, c.start_page) for c in book.chapters] == [("One", 2), ("Two", 3)]


def test_a_gutenberg_header_or_a_byline_gives_title_author_and_language(tmp_path) -> None:
    from reader.adapters.extractors.text import TextExtractor

    header = (
        "The Project Gutenberg eBook of Tern Head, by Ann Writer\n\nThis eBook is for the use of anyone.\n\n"
        "Title: Tern Head\n       A Second Title\n\nAuthor: Ann Writer\n\nLanguage: English\n\n"
        "*** START OF THE PROJECT GUTENBERG EBOOK TERN HEAD ***\n\n"
    )
    story = "CHAPTER I\n\n" + "Martha Pell walked to the quay and looked at the sea. " * 40
    gutenberg = tmp_path / "pg123.txt"
    gutenberg.write_text(header + story, encoding="utf-8")
    book = TextExtractor().extract(gutenberg)
    assert (book.title, book.author, book.language) == ("Tern Head", "Ann Writer", "en")
    byline = tmp_path / "copy.txt"
    byline.write_text("Tern Head\n\nby Ann Writer\n\n" + story, encoding="utf-8")
    book = TextExtractor().extract(byline)
    assert (book.title, book.author) == ("Tern Head", "Ann Writer")
    # a title page typed in capitals, the byline word alone on its line (German "von"), the name under it
    title_page = tmp_path / "kafka.txt"
    title_page.write_text(
        "        DIE VERWANDLUNG\n\n             VON\n\n          FRANZ KAFKA\n\n" + story, encoding="utf-8"
    )
    book = TextExtractor().extract(title_page)
    assert (book.title, book.author) == ("Die Verwandlung", "Franz Kafka")
    caps = tmp_path / "caps.txt"
    caps.write_text("A TALE OF THE TERN HEAD\n\nBY ANN WRITER\n\n" + story, encoding="utf-8")
    assert (TextExtractor().extract(caps).title, TextExtractor().extract(caps).author) == (
        "A Tale of the Tern Head",
        "Ann Writer",
    )
    plain = tmp_path / "a_plain_book.txt"
    plain.write_text(story, encoding="utf-8")
    unstated = TextExtractor().extract(plain)
    assert unstated.title == "A Plain Book"  # no stated title: the file name
    assert unstated.language == "en"  # no stated language: the one its common words are
