"""Book structure from the book's own evidence: plain-text headings of every common kind, contents lists,
levels, decoding by how the text reads, and EPUB chapters that open pages or come from headings."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader.adapters.extractors.epub import EpubExtractor
from reader.adapters.extractors.text import TextExtractor
from reader.adapters.extractors.text_decoding import _by_reading, decode_text
from tests.fixtures_books import nav_document, write_hand_epub, xhtml

PROSE = (
    "The lamp burned low over the harbour while the keeper wrote his letter, and the tide came in "
    "across the rocks below the tower as it had every night of the long winter. "
)


def prose(n: int = 8) -> str:
    """A few paragraphs of story, each long enough to be prose."""
    return "\n\n".join(PROSE * 2 for _ in range(n))


def chapters_of(tmp_path: Path, text: str, name: str = "book.txt") -> list[tuple[str, int]]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return [(c.title, c.level) for c in TextExtractor().extract(path).chapters]


def test_numerals_with_titles_make_stories_and_bare_numerals_their_sections(tmp_path: Path) -> None:
    stories = ["A SCANDAL IN BOHEMIA", "THE RED-HEADED LEAGUE", "A CASE OF IDENTITY"]
    text = "THE ADVENTURES\n\nby A. Writer\n\n" + "\n\n".join(
        f"{number}. {title}\n\n" + "\n\n".join(f"{part}.\n\n{prose()}" for part in ("I", "II", "III"))
        for number, title in zip(("I", "II", "III"), stories, strict=True)
    )
    found = chapters_of(tmp_path, text)
    assert [t for t, level in found if level == 0] == [f"{n}. {t}" for n, t in zip(("I", "II", "III"), stories, strict=True)]
    assert [t for t, level in found if level == 1] == ["I.", "II.", "III."] * 3


def test_a_contents_list_confirms_title_headings_and_is_never_chapters(tmp_path: Path) -> None:
    titles = ["STORY OF THE DOOR", "SEARCH FOR MR. HYDE", "DR. JEKYLL WAS QUITE AT EASE", "THE LAST NIGHT"]
    text = (
        "STRANGE CASE\n\nContents\n\n"
        + "\n".join(f" {t}" for t in titles)
        + "\n\n"
        + "\n\n".join(f"{t}\n\n{prose()}" for t in titles)
    )
    assert chapters_of(tmp_path, text) == [(t, 0) for t in titles]


def test_a_numeral_line_takes_its_title_from_the_line_below(tmp_path: Path) -> None:
    titles = ["An Irate Neighbor", "Selling in Haste", "Mr. Harrison at Home"]
    text = "\n\n".join(f"{n}\n\n{t}\n\n{prose()}" for n, t in zip(("I", "II", "III"), titles, strict=True))
    assert chapters_of(tmp_path, text) == [
        ("I. An Irate Neighbor", 0),
        ("II. Selling in Haste", 0),
        ("III. Mr. Harrison at Home", 0),
    ]


def test_division_words_of_several_kinds_and_languages(tmp_path: Path) -> None:
    text = (
        "PREFACE\n\n" + prose(2) + "\n\n"
        "STAVE ONE: MARLEY'S GHOST\n\n" + prose() + "\n\nSTAVE TWO: THE FIRST OF THE THREE SPIRITS\n\n" + prose()
    )
    assert chapters_of(tmp_path, text) == [
        ("PREFACE", 0),
        ("STAVE ONE: MARLEY'S GHOST", 0),
        ("STAVE TWO: THE FIRST OF THE THREE SPIRITS", 0),
    ]
    french = "\n\n".join(
        f"{part} PARTIE\n\n" + "\n\n".join(f"{n}\n\n{prose()}" for n in ("I", "II", "III"))
        for part in ("PREMIÈRE", "DEUXIÈME")
    )
    assert chapters_of(tmp_path, french, "bovary.txt") == [
        ("PREMIÈRE PARTIE", 0),
        ("I", 1),
        ("II", 1),
        ("III", 1),
        ("DEUXIÈME PARTIE", 0),
        ("I", 1),
        ("II", 1),
        ("III", 1),
    ]


def test_acts_over_scenes_and_short_scenes(tmp_path: Path) -> None:
    text = "\n\n".join(
        f"ACT {act}\n\n"
        + "\n\n".join(
            f"SCENE {scene}. A public place.\n\nSAMPSON.\nI strike quickly, being moved.\n\n"
            + (prose(2) if scene != "II" else "GREGORY.\nNo.")
            for scene in ("I", "II", "III")
        )
        for act in ("I", "II")
    )
    found = chapters_of(tmp_path, text, "play.txt")
    assert [t for t, level in found if level == 0] == ["ACT I", "ACT II"]
    assert [t for t, level in found if level == 1] == [f"SCENE {s}. A public place." for s in ("I", "II", "III")] * 2


def test_what_is_not_a_chapter(tmp_path: Path) -> None:
    text = (
        "CHAPTER I.\n\n" + prose() + "\n\n"
        # a numbered list of items inside a chapter
        + "\n\n".join(f"{n}. Take the lamp down from the tower and clean it." for n in (1, 2, 3, 4))
        + "\n\n"
        # a line in capitals inside dialogue, and a speaker's name said many times
        + '"HELP!" cried the keeper.\n\n'
        + "\n\n".join(f"THE KEEPER.\n{PROSE}" for _ in range(4))
        + "\n\nCHAPTER II.\n\n" + prose() + "\n\n"
        "*** END OF THE PROJECT GUTENBERG EBOOK THE KEEPER ***\n\n"
        "Section 1. General Terms of Use\n\n" + prose(2) + "\n\nSection 2. Information\n\n" + prose(2)
    )
    assert chapters_of(tmp_path, text) == [("CHAPTER I.", 0), ("CHAPTER II.", 0)]


def test_a_contents_list_at_the_end_names_the_headings_before_it(tmp_path: Path) -> None:
    stories = ["LA MAISON DU CHAT-QUI-PELOTE", "LE BAL DE SCEAUX", "LA BOURSE"]
    text = (
        "\n\n".join(f"{s}.\n\n{prose()}" for s in stories)
        + "\n\nTABLE DES MATIÈRES\n\n"
        + "\n".join(f"  {s}    {page}" for s, page in zip(stories, (5, 60, 110), strict=True))
    )
    assert [t for t, _ in chapters_of(tmp_path, text)] == [f"{s}." for s in stories]


def test_the_old_keyword_headings_and_contents_still_hold(tmp_path: Path) -> None:
    entries = [f"CHAPTER {n}. The Storm" for n in ("I", "II", "III")]
    text = (
        "THE KEEPER\n\nContents\n\n"
        + "\n\n".join(entries)
        + "\n\n"
        + "\n\n".join(f"CHAPTER {n}\n\nTHE STORM\n\n{prose()}" for n in ("I", "II", "III"))
    )
    assert chapters_of(tmp_path, text) == [(f"CHAPTER {n}. THE STORM", 0) for n in ("I", "II", "III")]


def test_windows_1252_apostrophes_are_not_read_as_mac_roman_letters() -> None:
    text = ("About two o\u2019clock the mist cleared away, and we beheld the keeper\u2019s lamp. " * 3) + (
        "It was a plain night on the rock and nothing more was said of it.\n" * 80
    )
    decoded = decode_text(text.encode("cp1252"), "frankenstein.txt")
    assert decoded.encoding == "cp1252" and "o\u2019clock" in decoded.text and "oíclock" not in decoded.text


def test_code_pages_that_read_alike_are_named_and_the_common_one_wins(tmp_path: Path) -> None:
    text = ("\u201cWhere is the lamp?\u201d asked the keeper\u2014and the boy\u2019s face fell. " * 5) + (
        "The night was long and the sea was loud against the rock.\n" * 60
    )
    data = text.encode("cp1252")  # quotes and dashes only: Windows-1250 reads them the same
    ordered, alternatives = _by_reading(data, ["mac_roman", "cp1250", "cp1252"])
    assert ordered[0] == "cp1252" and alternatives == ["cp1250"]
    path = tmp_path / "keeper.txt"
    path.write_bytes(data)
    book = TextExtractor().extract(path)
    assert book.encoding == "cp1252" and "guessed as cp1252" in book.warnings[0]
    weighed = decode_text(data, "keeper.txt").alternatives
    assert all(name in book.warnings[0] for name in weighed)


def epub_chapters(path: Path) -> tuple[list[tuple[str, int, int]], list[str]]:
    book = EpubExtractor().extract(path)
    return [(c.title, c.start_page, c.level) for c in book.chapters], [p.text for p in book.pages]


def test_a_chapter_inside_a_document_opens_on_a_new_page(tmp_path: Path) -> None:
    body = "<h1>Contents</h1><p>Chapter 1</p><p>Chapter 2</p>" + "".join(
        f'<h2 id="c{n}">Chapter {n}</h2>' + f"<p>{PROSE}</p>" * 3 for n in (1, 2)
    )
    path = write_hand_epub(
        tmp_path / "pride.epub",
        {"text.xhtml": xhtml(body), "nav.xhtml": nav_document([("Chapter 1", "text.xhtml#c1"), ("Chapter 2", "text.xhtml#c2")])},
        nav="nav.xhtml",
    )
    chapters, pages = epub_chapters(path)
    assert [title for title, _, _ in chapters] == ["Chapter 1", "Chapter 2"]
    for _, page, _ in chapters:
        assert pages[page - 1].startswith("Chapter")  # the page opens on the chapter's heading
    assert pages[0].startswith("Contents") and "The lamp" not in pages[0]


@pytest.mark.parametrize("toc", [[("Start", "text.xhtml")], []], ids=["only-start", "no-entries"])
def test_navigation_naming_too_little_gives_way_to_the_headings(tmp_path: Path, toc: list[tuple[str, str]]) -> None:
    body = "".join(
        f"<h2>BOOK {b}</h2>" + "".join(f"<h3>Chapter {c}</h3>" + f"<p>{PROSE}</p>" * 2 for c in ("I", "II"))
        for b in ("ONE", "TWO")
    )
    path = write_hand_epub(
        tmp_path / "worlds.epub", {"text.xhtml": xhtml(body), "nav.xhtml": nav_document(toc)}, nav="nav.xhtml"
    )
    chapters, pages = epub_chapters(path)
    assert [(title, level) for title, _, level in chapters] == [
        ("BOOK ONE", 0),
        ("Chapter I", 1),
        ("Chapter II", 1),
        ("BOOK TWO", 0),
        ("Chapter I", 1),
        ("Chapter II", 1),
    ]
    for title, page, _ in chapters:
        assert pages[page - 1].startswith(title)


def test_gutenberg_italics_underscores_are_taken_off(tmp_path: Path) -> None:
    text = (
        "CHAPTER I\n\nJONATHAN HARKER'S JOURNAL--_continued_\n\n"
        + "The _Pequod_ sailed at noon, and _I_ have not seen her since; my_file and ____ stay. " * 4
        + "\n\nCHAPTER II\n\n"
        + prose()
    )
    path = tmp_path / "journal.txt"
    path.write_text(text, encoding="utf-8")
    book = TextExtractor().extract(path)
    assert book.chapters[0].title == "CHAPTER I. JONATHAN HARKER'S JOURNAL--continued"
    assert "The Pequod sailed at noon, and I have not seen her since; my_file and ____ stay." in book.pages[0].text


def test_a_contents_list_of_numbered_stories_whose_first_story_has_numbered_sections(tmp_path: Path) -> None:
    stories = ["A Scandal in Bohemia", "The Red-Headed League", "A Case of Identity"]
    numbers = ("I", "II", "III")
    text = (
        "THE ADVENTURES\n\nContents\n\n"
        + "\n".join(f"   {n}.   {s}" for n, s in zip(numbers, stories, strict=True))
        + "\n\n\n"
        + "\n\n".join(
            f"{n}. {s.upper()}\n\n" + ("\n\n".join(f"{part}.\n\n{prose()}" for part in numbers) if n == "I" else prose())
            for n, s in zip(numbers, stories, strict=True)
        )
    )
    found = chapters_of(tmp_path, text)
    assert found == [
        ("I. A SCANDAL IN BOHEMIA", 0),
        ("I.", 1),
        ("II.", 1),
        ("III.", 1),
        ("II. THE RED-HEADED LEAGUE", 0),
        ("III. A CASE OF IDENTITY", 0),
    ]


def test_book_headings_inside_one_chapter_are_its_sections_not_parts(tmp_path: Path) -> None:
    text = "\n\n".join(
        f"CHAPTER {n}. Chapter {n}\n\n{prose()}"
        + ("\n\n" + "\n\n".join(f"BOOK {b}. (Folio)\n\n{prose(2)}" for b in ("I", "II", "III")) if n == 2 else "")
        for n in (1, 2, 3, 4)
    )
    found = chapters_of(tmp_path, text, "cetology.txt")
    assert [t for t, level in found if level == 0] == [f"CHAPTER {n}. Chapter {n}" for n in (1, 2, 3, 4)]
    assert [t for t, level in found if level == 1] == [f"BOOK {b}. (Folio)" for b in ("I", "II", "III")]


def test_contents_entries_with_page_ranges_and_dot_leaders(tmp_path: Path) -> None:
    essays = ["Preface", "Pico della Mirandola", "Sandro Botticelli", "Winckelmann"]
    pages = [": vii-xv", ": 30-49", " ........ 50", ": 177-end"]
    text = (
        "CONTENTS\n\n"
        + "\n\n".join(f"{e}{p}" for e, p in zip(essays, pages, strict=True))
        + "\n\n\n"
        + "\n\n".join(f"{e.upper()}\n\n{prose()}" for e in essays)
    )
    assert chapters_of(tmp_path, text) == [(e.upper(), 0) for e in essays]
