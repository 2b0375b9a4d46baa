"""The app driven with the Pilot: opening, turning and jumping pages, the library, themes."""

from __future__ import annotations

from pathlib import Path

from textual.message import Message
from textual.widgets import Input, OptionList, Static

from reader.services import Services
from reader.tui.app import ReaderApp
from reader.tui.panes.library_pane import LibraryPane
from reader.tui.panes.page_viewer import PageViewer
from reader.tui.screens.confirm_screen import ConfirmScreen
from reader.tui.screens.goto_screen import GoToScreen
from reader.tui.screens.help_screen import HelpScreen
from reader.tui.screens.toc_screen import TocScreen
from reader.tui.widgets.book_list import BookList
from reader.tui.widgets.page_header import PageHeader
from reader.tui.widgets.page_text import PageText
from tests.support.scripted_server import ScriptedServer
from tests.tui_helpers import sample_services, wait_until, write_book

SIZE = (120, 36)


def page_text(app: ReaderApp) -> str:
    return app.query_one(PageText).text


def header(app: ReaderApp) -> str:
    return app.query_one(PageHeader).line.position


def title(app: ReaderApp) -> str:
    return app.query_one(PageHeader).line.title.plain


async def test_opens_the_last_book_at_its_reading_position() -> None:
    services, book = sample_services(5)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        await pilot.pause()
        app = pilot.app
        assert app.session is not None and app.session.book.id == book.id
        assert header(app) == "p. 5 · 5 of 30 · 17%"
        assert page_text(app) == services.pages.page_text(book, 5).text
        assert title(app) == "Chapter 2: The Sealed Letter"  # the book title needs more room
        await pilot.press("ctrl+b")  # the page pane grows
        await pilot.pause()
        assert title(app) == "The Keeper of Gull Rock — Chapter 2: The Sealed Letter"
        assert services.settings.get("last_book") == book.id


async def test_turning_pages_moves_the_reading_position() -> None:
    services, book = sample_services()
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.press("right", "l", "space", "space", "space", "space")
        await pilot.pause()
        number = app.session.number
        assert number >= 3 and services.books.get(book.id).current_page == number
        await pilot.press("left", "h")
        assert app.session.number == number - 2
        assert services.books.get(book.id).current_page == number  # going back keeps the position
        assert f"read to p. {number}" in header(app)
        assert page_text(app) == services.pages.page_text(book, number - 2).text


async def test_queued_page_turns_render_only_the_last_page() -> None:
    services, book = sample_services()
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        viewer = pilot.app.query_one(PageViewer)
        renders = viewer.renders
        for _ in range(6):  # six presses arrive before the app gets to run
            viewer.action_turn(1)
        await pilot.pause()
        assert viewer.session.number == 7 and viewer.renders == renders + 1
        assert services.books.get(book.id).current_page == 7


async def test_go_to_by_label_percentage_and_chapter_name() -> None:
    services, book = sample_services()
    services.books.set_current_page(book.id, 30)  # everything read: no spoiler question
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        for typed, expected in (("12", 12), ("#3", 3), ("50%", 15), ("salvage at merow", 10)):
            await pilot.press("g")
            assert isinstance(app.screen, GoToScreen)
            await pilot.press(*typed, "enter")
            await pilot.pause()
            assert app.session.number == expected, typed
        await pilot.press("g", *"999", "enter")
        assert isinstance(app.screen, GoToScreen)
        error = str(app.screen.query_one("#goto-error", Static).content)
        assert "out of range" in error or "No page" in error
        await pilot.press("escape")
        assert app.session.number == 10
        await pilot.press("b")  # back after the jumps
        assert app.session.number == 15


async def test_far_jump_asks_before_unlocking_spoilers() -> None:
    services, book = sample_services()
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.press("g", *"25", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert app.session.number == 1 and services.books.get(book.id).current_page == 1
        await pilot.press("end")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert app.session.number == 30 and services.books.get(book.id).current_page == 30


async def test_chapters_and_table_of_contents() -> None:
    services, book = sample_services(30)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.press("home")
        assert app.session.number == 1
        await pilot.press("right_square_bracket")
        assert app.session.number == 4
        await pilot.press("right_square_bracket", "right_square_bracket")
        assert app.session.number == 10
        await pilot.press("left_square_bracket")
        assert app.session.number == 7
        await pilot.press("t")
        assert isinstance(app.screen, TocScreen)
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        assert app.session.number == 13 and title(app).startswith("Chapter 5: The Log of")


async def test_library_filter_and_open_another_book(tmp_path: Path) -> None:
    services, book = sample_services()
    other = services.importer.import_file(write_book(tmp_path)).book
    assert other is not None
    async with ReaderApp(services, book_id=book.id).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.pause()
        book_list = app.query_one(BookList)
        assert book_list.option_count == 2
        await pilot.press("slash", *"keepr")  # one letter missing from a word of the title
        await pilot.pause()
        assert [book_list.get_option_at_index(i).id for i in range(book_list.option_count)] == [book.id]
        app.query_one("#library-filter", Input).value = ""
        await pilot.press(*"harbr")
        await pilot.pause()
        assert app.focused is app.query_one("#library-filter", Input)
        assert [book_list.get_option_at_index(i).id for i in range(book_list.option_count)] == [other.id]
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.book.id == other.id and app.focused is app.query_one(PageViewer)
        assert services.settings.get("last_book") == other.id
        await pilot.press("slash", "escape")  # Esc clears the filter first
        assert app.query_one("#library-filter", Input).value == ""


async def test_import_a_file_in_the_background_with_progress(tmp_path: Path) -> None:
    services, book = sample_services()
    write_book(tmp_path, "storm.md", "The Storm")
    seen: list[Message] = []
    async with ReaderApp(services).run_test(size=SIZE, message_hook=seen.append) as pilot:
        app = pilot.app
        await pilot.press("i")
        await pilot.press(*str(tmp_path / "sto"), "tab", "enter")  # Tab completes the path
        await app.workers.wait_for_complete()
        await wait_until(pilot, lambda: any(isinstance(m, LibraryPane.ImportFinished) for m in seen))
        await pilot.pause()
        steps = [m for m in seen if isinstance(m, LibraryPane.ImportStep)]
        assert steps and steps[-1].total > 0 and steps[-1].done == steps[-1].total
        assert "Importing storm.md" in steps[-1].label
        titles = [b.title for b in app.library.books]
        assert "The Storm" in titles
        assert not app.query_one("#import-progress").display


async def test_remove_a_book_after_confirmation(tmp_path: Path) -> None:
    services, book = sample_services()
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.press("1")  # focus the library
        assert app.focused is app.query_one(BookList)
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmScreen)
        assert "with its conversations?" in app.screen.question  # no marks: none named
        await pilot.press("n")
        services.bookmarks.toggle(book.id, 1)
        text = services.pages.range_text(book.id, 1, 1)
        for start in (0, 20, 40):
            services.annotations.highlight(book.id, 1, text, start, start + 9, note="mine" * (start == 40))
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmScreen)
        assert "its conversations and its 1 bookmark, 2 highlights and 1 note?" in app.screen.question
        await pilot.press("n")
        assert services.books.get(book.id) is not None
        await pilot.press("d", "y")
        await app.workers.wait_for_complete()
        await wait_until(pilot, lambda: app.session is None)
        assert services.books.get(book.id) is None
        assert "No book is open" in page_text(app)


async def test_help_screen_lists_keys_and_quit() -> None:
    services, _ = sample_services()
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = " ".join(str(s.content) for s in app.screen.query(Static))
        for expected in (
            "Next page",
            "Go to page",
            "Contents",
            "Back after a jump",
            "Filter books",
            "Cancel answer",
            "Quit",
        ):
            assert expected in text
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_panes_hide_and_focus_and_narrow_terminals_show_one_pane() -> None:
    services, _ = sample_services()
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.press("ctrl+b")
        assert not app.library.display
        await pilot.press("ctrl+b")
        assert app.library.display and app.library.has_focus_within
        await pilot.press("3")
        assert app.focused is app.query_one("#chat-input", Input)
        await pilot.press("ctrl+t")
        assert not app.chat.display and app.focused is app.viewer
    async with ReaderApp(services).run_test(size=(80, 24)) as pilot:
        app = pilot.app
        await pilot.pause()
        assert app.viewer.display and not app.library.display and not app.chat.display
        await pilot.press("1")
        assert app.library.display and not app.viewer.display
        await pilot.press("escape")
        assert app.viewer.display and not app.library.display
        await pilot.press("a")
        assert app.chat.display and not app.viewer.display


async def test_resizing_lays_out_for_the_new_width_at_once() -> None:
    services, _ = sample_services()
    async with ReaderApp(services).run_test(size=(100, 30)) as pilot:
        app = pilot.app

        def panes() -> tuple[bool, bool, bool]:
            return app.library.display, app.viewer.display, app.chat.display

        assert panes() == (True, True, True)
        await pilot.resize_terminal(80, 24)
        assert panes() == (False, True, False) and app.screen.has_class("-narrow")
        await pilot.resize_terminal(120, 24)
        assert panes() == (True, True, True) and not app.screen.has_class("-narrow")
        await pilot.resize_terminal(99, 24)
        assert panes() == (False, True, False)
        await pilot.resize_terminal(100, 24)
        assert panes() == (True, True, True)
        await pilot.press("question_mark")  # under a dialog the main screen follows the size too
        await pilot.resize_terminal(80, 24)
        await pilot.press("escape")
        assert panes() == (False, True, False) and app.screen.has_class("-narrow")


async def test_the_page_header_fits_its_width_and_never_cuts_a_number() -> None:
    services, book = sample_services(20)
    async with ReaderApp(services).run_test(size=(100, 30)) as pilot:
        app = pilot.app
        await pilot.press("g", *"12", "enter")
        await pilot.pause()
        page_header = app.query_one(PageHeader)
        line = page_header.line
        # the page and the reading position stay whole; the chapter is elided, then the rest dropped
        assert line.position == "p. 12 · read to p. 20"
        assert line.title.plain.startswith("Chapter 4: ") and line.title.plain.endswith("…")
        assert len(page_header.render().plain) == page_header.content_size.width
        await pilot.resize_terminal(80, 24)  # the page alone: room for everything
        assert page_header.line.position == "p. 12 · 12 of 30 · 40% · read to p. 20"
        assert page_header.line.title.plain == "Chapter 4: Salvage at Merrow Cove"

        await pilot.resize_terminal(100, 30)
        app.chat.set_horizon("xviii")  # the chat's border keeps the whole label too
        assert app.chat.border_subtitle == "spoiler-free to p. xviii"
        await pilot.resize_terminal(140, 30)
        assert app.chat.border_subtitle == "spoiler-free up to p. xviii"


async def test_switching_the_theme_recolours_the_page_at_once() -> None:
    services, _ = sample_services()
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        dark = app.available_themes["reader-dark"].variables
        dark_ink = {dark["page-foreground"].lower(), dark["page-heading"].lower()}
        assert all(ink in app.export_screenshot().lower() for ink in dark_ink)
        app.set_theme("reader-sepia")
        await pilot.pause()
        shown = app.export_screenshot().lower()
        assert not any(ink in shown for ink in dark_ink)  # no page text left in the old colours


async def test_keys_typed_right_after_g_reach_the_go_to_dialog() -> None:
    from textual.events import Key

    services, book = sample_services(30)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        for key in ("g", "1", "2", "enter"):  # one burst: all arrive before the dialog has mounted
            app.post_message(Key(key, key if len(key) == 1 else None))
        await wait_until(pilot, lambda: app.session.number == 12)
        assert not isinstance(app.screen, GoToScreen) and app.focused is app.viewer


async def test_theme_choice_is_saved_and_broken_user_theme_falls_back(tmp_path: Path) -> None:
    services, _ = sample_services()
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        assert pilot.app.theme == "reader-dark"
        pilot.app.set_theme("reader-sepia")
        await pilot.pause()
    assert services.settings.get("theme") == "reader-sepia"
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        assert pilot.app.theme == "reader-sepia"

    from reader.tui.themes import builtin_themes_dir

    user = tmp_path / "user-themes"
    user.mkdir()
    (user / "mine.toml").write_text('name = "mine"\nprimary = "#zzz"\n')
    services.settings.set("theme", "mine")
    app = ReaderApp(services, theme_dirs=[builtin_themes_dir(), user])
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        assert app.theme == "reader-dark"
        messages = [n.message for n in app._notifications]
        assert any("mine.toml" in m and "is not a colour" in m for m in messages)
        assert any("'mine' is not available" in m for m in messages)

    services.settings.set("theme", "nord")  # a stock theme chosen before it stopped being offered
    app = ReaderApp(services)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        assert app.theme == "reader-dark" and "nord" not in app.available_themes
        assert any("'nord' is no longer offered" in n.message for n in app._notifications)


async def test_command_palette_offers_the_apps_commands() -> None:
    from textual.command import CommandList, CommandPalette

    services, _ = sample_services()
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        titles = [command.title for command in app.get_system_commands(app.screen)]
        for expected in (
            "Import books",
            "Go to page",
            "Search the book",
            "Theme: reader-sepia",
            "New conversation",
            "Earlier conversations",
            "Reading position (spoiler horizon): set to a page",
        ):
            assert expected in titles
        assert titles.count("Keys") == 1  # reader's (every key), not also Textual's
        # Textual's theme picker offers reader's themes and two of its own, not its twenty
        assert set(app.available_themes) == {
            "reader-dark",
            "reader-light",
            "reader-sepia",
            "reader-high-contrast",
            "textual-dark",
            "textual-light",
        }

        await pilot.press("ctrl+p", *"spoiler")
        palette = app.screen
        assert isinstance(palette, CommandPalette)
        found = palette.query_one(CommandList)
        await wait_until(pilot, lambda: found.option_count >= 2)
        prompts = [str(found.get_option_at_index(i).prompt) for i in range(found.option_count)]
        assert sum("Reading position" in prompt for prompt in prompts) == 2, prompts


async def test_set_the_reading_position_back() -> None:
    services, book = sample_services(20)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.press("home")
        app.action_position_here()
        await pilot.pause()
        assert services.books.get(book.id).current_page == 1 and app.session.horizon == 1


def test_empty_library_shows_how_to_start() -> None:
    import asyncio

    async def run() -> None:
        async with ReaderApp(Services.open()).run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "No book is open" in page_text(pilot.app)
            assert pilot.app.query_one(OptionList).option_count == 0

    asyncio.run(run())


async def test_search_the_book_up_to_the_reading_position_and_open_a_passage() -> None:
    from reader.tui.screens.search_screen import SearchScreen

    services, book = sample_services(4)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.press("s")
        assert isinstance(app.screen, SearchScreen)
        await pilot.press(*"packet harbour", "enter")
        await app.workers.wait_for_complete()
        results = app.screen.query_one(OptionList)
        await wait_until(pilot, lambda: results.option_count > 0)
        shown = [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]
        assert "packet had not run" in " ".join(shown)
        search_input = app.screen.query_one(Input)
        search_input.value = "Gideon Thorne killed Edmund Halloran"  # the reveal, on p. 28
        search_input.focus()
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        note = app.screen.query_one("#search-note", Static)
        await wait_until(pilot, lambda: "Gideon Thorne killed" in str(note.content))
        shown = [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]
        assert shown and not any("killed Edmund" in line for line in shown)
        assert {line.split("  ")[0] for line in shown} <= {"p. 1", "p. 2", "p. 3", "p. 4"}
        search_input.value = "packet"
        search_input.focus()
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await wait_until(pilot, lambda: results.option_count > 0)
        results.focus()
        results.highlighted = 0
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, SearchScreen) and app.session.number == 1


async def test_import_embeds_in_the_background_when_a_model_is_configured(
    tmp_path: Path, scripted_server: ScriptedServer
) -> None:
    from reader.config import Config, EmbeddingsConfig

    base, _ = sample_services()
    config = Config(
        embeddings=EmbeddingsConfig(
            model="openai/scripted-embed", api_base=scripted_server.base_url, batch_size=4
        )
    )
    services = Services(base.db, config)
    write_book(tmp_path, "storm.md", "The Storm")
    seen: list[Message] = []
    async with ReaderApp(services).run_test(size=SIZE, message_hook=seen.append) as pilot:
        app = pilot.app
        app.library.import_paths([tmp_path / "storm.md"])
        await wait_until(pilot, lambda: any(isinstance(m, LibraryPane.ImportFinished) for m in seen), 20)
        await app.workers.wait_for_complete()
        steps = [m for m in seen if isinstance(m, LibraryPane.ImportStep) and m.embedding]
        assert steps and steps[-1].done == steps[-1].total > 0 and "Embedding storm.md" in steps[-1].label
        book = next(b for b in services.books.list() if b.title == "The Storm")
        (vectors,) = services.vectors.book_vectors(book.id)
        assert vectors.complete and len(scripted_server.embedding_requests()) >= 2
        assert app.library.busy == {}


async def test_turning_between_long_and_short_pages_keeps_the_scroll_range_right(tmp_path: Path) -> None:
    short = "A short last page."
    long = "\n\n".join(f"Line {i} of a long page, with words enough to wrap." for i in range(60))
    book_path = tmp_path / "uneven.txt"
    book_path.write_text("\n\n".join([long, long, short]), encoding="utf-8")  # the last page is short
    services = Services.open()
    outcome = services.importer.import_file(book_path)
    assert outcome.book is not None
    async with ReaderApp(services, book_id=outcome.book.id).run_test(size=(100, 24)) as pilot:
        app = pilot.app
        text = app.query_one(PageText)
        seen: set[tuple[int, bool]] = set()
        for _ in range(outcome.book.page_count):
            await pilot.pause()
            seen.add((app.session.number, text.show_vertical_scrollbar))
            lines = text.virtual_size.height
            assert lines == len(text._strips)
            assert text.max_scroll_y == max(0, lines - text.scrollable_content_region.height)
            assert text.show_vertical_scrollbar == (text.max_scroll_y > 0)
            drawn = text.vertical_scrollbar in app.screen._compositor.visible_widgets
            assert drawn == text.show_vertical_scrollbar  # laid out again when it comes or goes
            if text.max_scroll_y:  # the whole page is reachable: the end shows its last line
                text.scroll_end(animate=False, immediate=True)
                await pilot.pause()
                assert text.scroll_y == text.max_scroll_y
            await pilot.press("right")
        assert len({page for page, _ in seen}) >= 3 and {bar for _, bar in seen} == {True, False}
        await pilot.press("left")  # from the short last page back to a long one: the scrollbar returns
        await pilot.pause()
        assert (
            text.show_vertical_scrollbar and text.vertical_scrollbar in app.screen._compositor.visible_widgets
        )


async def test_contents_with_a_part_and_its_first_chapter_on_one_page() -> None:
    """War and Peace: "BOOK ONE" and its "CHAPTER I" start on the same page; the list must still open."""
    from reader.domain.models import Chapter

    services, _ = sample_services()
    chapters = [Chapter(0, "BOOK ONE", 5, 20, 0), Chapter(1, "CHAPTER I", 5, 10, 1), Chapter(2, "CHAPTER II", 11, 20, 1)]
    chosen: list[int | None] = []
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        pilot.app.push_screen(TocScreen(chapters, str, 5, 30), chosen.append)
        await pilot.pause()
        await pilot.press("down", "enter")  # from CHAPTER I (the reading position) to CHAPTER II
        await pilot.pause()
    assert chosen == [11]
