"""The app's pure parts: reading session, citations, library filter, path completion, themes."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader.domain.errors import PageNotFoundError
from reader.domain.models import Book, Chapter, Page
from reader.tui.citations import citation_labels, label_from_href, linkify_citations
from reader.tui.fit_text import Part, drop_to_fit, elide, first_that_fits
from reader.tui.library_filter import filter_books
from reader.tui.open_page import book_kind
from reader.tui.path_suggester import complete_path
from reader.tui.reading_session import FAR_AHEAD, ReadingSession, ShownPage
from reader.tui.themes import (
    APP_VARIABLES,
    ThemeError,
    builtin_themes_dir,
    derived_variables,
    load_theme_file,
    load_themes,
)
from reader.tui.widgets.page_header import header_line


def book(
    title: str = "A Book", author: str = "", pages: int = 40, current: int = 1, book_id: str = "b1"
) -> Book:
    return Book(book_id, title, author, "en", "text", "/x", pages, current, "synthetic", "2024-01-01")


def session(current: int = 1) -> ReadingSession:
    pages = [Page(1, "i"), Page(2, "ii")] + [Page(n, str(n - 2)) for n in range(3, 41)]
    chapters = [
        Chapter(0, "Preface", 1, 2),
        Chapter(1, "The Crossing", 3, 12),
        Chapter(2, "The Sealed Letter", 13, 25),
        Chapter(3, "The Keeper", 26, 40),
    ]
    return ReadingSession(book(current=current), pages, chapters, lambda _b, s, e: f"text of {s}-{e}")


def test_session_turns_move_the_reading_position_forward_only() -> None:
    s = session(current=10)
    assert (s.number, s.horizon) == (10, 10)
    assert s.go(11, jump=False) is True and s.horizon == 11
    assert s.go(5, jump=False) is False and s.horizon == 11  # re-reading keeps the position
    shown = s.shown()
    assert shown.number == 5 and shown.horizon == 11 and shown.text == "text of 5-5"
    assert (
        shown.label == "3"
        and shown.horizon_label == "9"
        and shown.chapter
        and shown.chapter.title == "The Crossing"
    )


def test_session_resolves_labels_indexes_percentages_and_chapters() -> None:
    s = session()
    assert s.resolve("ii") == 2
    assert s.resolve("10") == 12  # printed label 10 is the 12th page
    assert s.resolve("#10") == 10
    assert s.resolve("50%") == 20
    assert s.resolve("sealed leter") == 13  # fuzzy chapter name
    with pytest.raises(PageNotFoundError):
        s.resolve("page nowhere at all 999")


def test_session_chapters_confirmation_and_history() -> None:
    s = session(current=14)
    assert s.next_chapter_start(14) == 26 and s.next_chapter_start(30) is None
    assert s.previous_chapter_start(14) == 13 and s.previous_chapter_start(13) == 3
    assert not s.needs_confirmation(14 + FAR_AHEAD) and s.needs_confirmation(15 + FAR_AHEAD)
    s.go(3, jump=True)
    s.go(26, jump=True)
    assert s.back() == 3 and s.back() == 14 and s.back() is None
    s.set_horizon(5)
    assert s.horizon == 5


def test_session_caches_page_text() -> None:
    calls = []
    s = ReadingSession(
        book(), [Page(n, str(n)) for n in range(1, 41)], [], lambda b, a, z: calls.append(a) or "t"
    )
    for number in (1, 2, 1, 2, 1):
        s.text(number)
    assert calls == [1, 2]


def test_citations_become_links_to_page_labels() -> None:
    text = "She saw it [p. 12], later [pp. 57-58] and [p. iv]; not [this](https://x)."
    linked = linkify_citations(text)
    assert "[p. 12](page:12)" in linked and "[pp. 57-58](page:57)" in linked and "[p. iv](page:iv)" in linked
    assert "[this](https://x)" in linked
    assert citation_labels(text) == ["12", "57", "iv"]
    assert label_from_href("page:57") == "57" and label_from_href("https://x") is None


def test_library_filter_is_fuzzy_and_keeps_recent_order_when_empty() -> None:
    books = [
        book("The Keeper of Gull Rock", "Reader Sample Press", book_id="a"),
        book("Pride and Prejudice", "Jane Austen", book_id="b"),
        book("Persuasion", "Jane Austen", book_id="c"),
    ]
    assert [b.id for b in filter_books(books, "")] == ["a", "b", "c"]
    assert [b.id for b in filter_books(books, "prejudise")][0] == "b"
    assert {b.id for b in filter_books(books, "austen")} == {"b", "c"}
    assert [b.id for b in filter_books(books, "gull rok")] == ["a"]
    assert [b.id for b in filter_books(books, "keepr")] == ["a"]  # a letter missing from one word
    assert [b.id for b in filter_books(books, "gullrock")] == ["a"]  # a space missing
    assert [b.id for b in filter_books(books, "kee")] == ["a"]  # the start of a word, while typing
    assert [b.id for b in filter_books(books, "persuaison")] == ["c"]
    assert filter_books(books, "xylophone") == []
    assert [b.id for b in filter_books(books, "austen pride")][0] == "b"  # author and title together
    assert [b.id for b in filter_books(books, "pride austen")][0] == "b"
    assert [b.id for b in filter_books(books, "persuasion austen")][0] == "c"


def shown_page(number: int, horizon: int, chapter: str | None, importance: int = 1) -> ShownPage:
    big = book("The Lighthouse Keeper's Long Winter", pages=250)
    part = Chapter(3, chapter, 50, 80) if chapter else None
    return ShownPage(big, number, str(number), "text", part, horizon, str(horizon), importance)


def test_page_header_drops_and_elides_parts_to_fit_and_never_cuts_a_number() -> None:
    page = shown_page(61, 200, "Chapter Twelve: The Night of the Storm")
    wide = header_line(page, 200)
    assert wide.position == "p. 61 · 61 of 250 · 24% · read to p. 200"
    assert wide.title.plain == "The Lighthouse Keeper's Long Winter — Chapter Twelve: The Night of the Storm"
    for width in range(22, 200):
        line = header_line(page, width)
        title = line.title.plain
        assert len(title) + (2 if title else 0) + len(line.position) <= width, width
        assert line.position.startswith("p. 61") and "read to p. 200" in line.position
        assert "…" in title or title.endswith("Storm") or not title
    for width in range(5, 22):  # too narrow for the reading position: the page alone, whole
        assert header_line(page, width).position == "p. 61", width
    # at 100 columns the page pane has about 40: the chapter elided, the page and position whole
    narrow = header_line(page, 40)
    assert narrow.position == "p. 61 · read to p. 200"
    assert narrow.title.plain == "Chapter Twelve:…"
    # the chapter shows whole once "61 of 250" and the percentage make room
    assert header_line(page, 64).title.plain == "Chapter Twelve: The Night of the Storm"
    assert header_line(page, 64).position == "p. 61 · read to p. 200"
    assert header_line(shown_page(3, 3, None), 40).title.plain == "The Lighthouse Keeper's Long…"
    figures = header_line(shown_page(3, 3, None, importance=4), 80).position
    assert figures == "▣ figures · p. 3 · 3 of 250 · 1%"
    assert header_line(shown_page(3, 3, None, importance=4), 10).position == "p. 3"


def test_fitting_helpers() -> None:
    parts = [Part("p. 5"), Part("5 of 30", 2), Part("17%", 1)]
    assert drop_to_fit(parts, 100) == "p. 5 · 5 of 30 · 17%"
    assert drop_to_fit(parts, 12) == "p. 5 · 17%"
    assert drop_to_fit(parts, 2) == "p. 5"  # never cut
    assert first_that_fits(["spoiler-free up to p. 20", "up to p. 20"], 15) == "up to p. 20"
    assert elide("The Keeper", 6).plain == "The K…" and elide("The Keeper", 0).plain == ""
    assert elide("Chapter 12: The Gale", 10).plain == "Chapter …"  # never "Chapter 1…"
    for width in range(1, 12):  # double-width characters never make it a cell too wide
        assert elide("日本語のタイトル", width).cell_length <= width
    assert elide("Chapter 12: The Gale", 11).plain == "Chapter 12…"


def test_book_kinds_are_named_in_words() -> None:
    assert book_kind("markdown") == "a Markdown book" and book_kind("epub") == "an EPUB book"
    assert book_kind("pdf") == "a PDF book" and book_kind("txt") == "a plain-text book"


def test_path_completion_offers_folders_and_books(tmp_path: Path) -> None:
    (tmp_path / "novels").mkdir()
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "photo.jpg").write_text("x")
    assert complete_path(str(tmp_path / "nov")) == str(tmp_path / "novels") + "/"
    assert complete_path(str(tmp_path / "not")) == str(tmp_path / "notes.txt")
    assert complete_path(str(tmp_path / "pho")) is None
    assert complete_path("") is None


def test_builtin_themes_load(tmp_path: Path) -> None:
    loaded = load_themes([builtin_themes_dir()])
    names = {theme.name for theme in loaded.themes}
    assert {"reader-dark", "reader-light", "reader-sepia", "reader-high-contrast"} <= names
    assert loaded.errors == []
    light = next(t for t in loaded.themes if t.name == "reader-light")
    assert light.dark is False and set(APP_VARIABLES) <= set(light.variables)


def test_broken_theme_files_are_reported_not_raised(tmp_path: Path) -> None:
    (tmp_path / "good.toml").write_text('primary = "#112233"\ndark = false\n')
    (tmp_path / "bad-toml.toml").write_text("primary = \n")
    (tmp_path / "bad-color.toml").write_text('primary = "not a colour"\n')
    (tmp_path / "unknown-key.toml").write_text('primary = "#fff"\nsparkle = true\n')
    loaded = load_themes([tmp_path])
    assert [t.name for t in loaded.themes] == ["good"]
    assert len(loaded.errors) == 3
    assert any("not valid TOML" in e for e in loaded.errors)
    assert any("is not a colour" in e for e in loaded.errors)
    assert any("unknown key 'sparkle'" in e for e in loaded.errors)
    with pytest.raises(ThemeError):
        load_theme_file(tmp_path / "bad-color.toml")


def test_app_variables_default_from_theme_colours() -> None:
    filled = derived_variables(
        {
            "foreground": "#111111",
            "background": "#222222",
            "primary": "#333333",
            "accent": "#444444",
            "citation": "#555555",
        }
    )
    assert filled["page-foreground"] == "#111111" and filled["page-background"] == "#222222"
    assert filled["citation"] == "#555555"


def test_importing_the_app_loads_no_llm_and_no_markdown() -> None:
    import subprocess
    import sys

    code = "import sys, reader.services, reader.tui.app; print(sorted(m for m in ('litellm', 'markdown_it', 'pypdf', 'ebooklib') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
