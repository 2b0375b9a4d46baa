"""The app driven with the Pilot: opening, turning and jumping pages, the library, themes."""

from __future__ import annotations

from pathlib import Path

from textual.message import Message
from textual.widgets import Input, OptionList, Static

from reader.services import Services
from reader.tui.app import ReaderApp
from reader.tui.screens.confirm_screen import ConfirmScreen
from reader.tui.screens.goto_screen import GoToScreen
from reader.tui.screens.help_screen import HelpScreen
from reader.tui.screens.toc_screen import TocScreen
from reader.tui.widgets.book_list import BookList
from reader.tui.widgets.library_pane import LibraryPane
from reader.tui.widgets.page_text import PageText
from reader.tui.widgets.page_viewer import PageViewer
from tests.support.scripted_server import ScriptedServer
from tests.tui_helpers import sample_services, wait_until, write_book

SIZE = (120, 36)


def page_text(app: ReaderApp) -> str:
    return app.query_one(PageText).text


def header(app: ReaderApp) -> str:
    return str(app.query_one("#page-position", Static).content)


async def test_opens_the_last_book_at_its_reading_position() -> None:
    services, book = sample_services()
    services.books.set_current_page(book.id, 5)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        await pilot.pause()
        app = pilot.app
        assert app.session is not None and app.session.book.id == book.id
        assert header(app) == "p. 5 · 5 of 30 · 17%"
        assert page_text(app) == services.pages.page_text(book, 5).text
        title = str(app.query_one("#page-title", Static).content)
        assert "The Keeper of Gull Rock" in title and "Chapter 2: The Sealed Letter" in title
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
    services, book = sample_services()
    services.books.set_current_page(book.id, 30)
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
        assert app.session.number == 13 and "Chapter 5: The Log of Gull Rock" in str(
            app.query_one("#page-title", Static).content
        )


async def test_library_filter_and_open_another_book(tmp_path: Path) -> None:
    services, book = sample_services()
    other = services.importer.import_file(write_book(tmp_path)).book
    assert other is not None
    async with ReaderApp(services, book_id=book.id).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.pause()
        book_list = app.query_one(BookList)
        assert book_list.option_count == 2
        await pilot.press("slash", *"harbr")
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


async def test_command_palette_offers_the_apps_commands() -> None:
    services, _ = sample_services()
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        titles = [command.title for command in pilot.app.get_system_commands(pilot.app.screen)]
        for expected in (
            "Import books",
            "Go to page",
            "Search the book",
            "Theme: reader-sepia",
            "New conversation",
            "Earlier conversations",
            "Reading position: set to a page",
        ):
            assert expected in titles


async def test_set_the_reading_position_back() -> None:
    services, book = sample_services()
    services.books.set_current_page(book.id, 20)
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

    services, book = sample_services()
    services.books.set_current_page(book.id, 4)
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
