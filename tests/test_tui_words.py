"""Words as a reader would write them: keys in help as typed, no jargon in the library, the palette's
texts whole, an import notice naming the book, figures in `reader info`, `o` on a picture in an EPUB."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from reader.domain.models import Book
from reader.tui.app import ReaderApp
from reader.tui.open_page import not_a_pdf
from reader.tui.screens.help_screen import HelpScreen, key_names
from reader.tui.widgets.book_list import BookList
from tests.tui_helpers import sample_services, wait_until, write_book

SIZE = (120, 40)


def test_keys_are_named_as_typed() -> None:
    assert key_names("apostrophe") == "'"
    assert key_names("quotation_mark") == '"'
    assert key_names("left,h") == "←, h"
    assert key_names("ctrl+b") == "Ctrl+B"
    assert key_names("J,shift+down") == "J, Shift+↓"
    assert key_names("question_mark,f1") == "?, F1"


async def test_help_lists_keys_as_characters_and_the_chat_keys() -> None:
    services, _ = sample_services()
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        screen = pilot.app.screen
        assert isinstance(screen, HelpScreen)
        text = "\n".join(str(s.content) for s in screen.query(Static))
        assert "apostrophe" not in text and "quotation_mark" not in text
        lines = text.splitlines()
        assert any(line.startswith("'") and "Bookmarks" in line for line in lines)
        assert any(line.startswith('"') and "Highlights and notes" in line for line in lines)
        for expected in (
            "Leave the ask box",
            "Read the chat",
            "Wide chat",
            "Next citation",
            "Start a line lower",
        ):
            assert expected in text, expected


async def test_library_entries_and_the_palette_speak_plainly() -> None:
    services, _ = sample_services()
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await wait_until(
            pilot, lambda: bool(app.query(BookList)) and app.query_one(BookList).option_count > 0
        )
        books = app.query_one(BookList)
        prompt = str(books.get_option_at_index(0).prompt)
        assert "lexical" not in prompt and "%" in prompt
        descriptions = [command.help for command in app.get_system_commands(app.screen)]
        assert all("  " not in text for text in descriptions)
        assert any("Ask the chat model" in text for text in descriptions)


async def test_an_import_in_the_app_names_the_book(tmp_path: Path) -> None:
    services, _ = sample_services()
    write_book(tmp_path, "storm.md", "The Storm")
    async with ReaderApp(services).run_test(size=SIZE, notifications=True) as pilot:
        app = pilot.app
        await pilot.press("i")
        await pilot.press(*str(tmp_path / "storm.md"), "enter")
        await app.workers.wait_for_complete()
        await wait_until(pilot, lambda: any("The Storm" in n.message for n in app._notifications))
        await pilot.pause()
        messages = [n.message for n in app._notifications]
        assert not any("1 of 1 file" in m for m in messages), messages


def test_o_on_a_picture_in_an_epub_says_where_the_picture_is() -> None:
    book = Book(
        id="b",
        title="Persuasion",
        author="Jane Austen",
        language="en",
        format="epub",
        page_count=3,
        source_path="persuasion.epub",
        current_page=1,
        pagination="synthetic",
        imported_at="2026-01-01",
    )
    assert not_a_pdf(book, "1") == (
        "The picture on p. 1 is inside the EPUB file; o opens pages of PDF books only (in the PDF viewer)."
    )
    assert "only PDF books" in not_a_pdf(book)
