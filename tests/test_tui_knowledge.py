"""The X-Ray panel and the story-so-far recap in the app, driven with the Pilot."""

from __future__ import annotations

from textual.widgets import Button, Markdown, OptionList, Static

from reader.tui.app import ReaderApp
from reader.tui.screens.help_screen import HelpScreen
from reader.tui.screens.recap_screen import RecapScreen
from reader.tui.screens.xray_screen import XRayScreen
from tests.tui_helpers import sample_services, wait_until

SIZE = (130, 40)


def option_texts(options: OptionList) -> list[str]:
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def test_x_opens_the_xray_of_what_was_read_and_a_mention_opens_its_page() -> None:
    services, book = sample_services(10)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.press("x")
        screen = app.screen
        assert isinstance(screen, XRayScreen)
        concepts = screen.query_one("#xray-concepts", OptionList)
        await wait_until(pilot, lambda: concepts.option_count > 0)
        texts = option_texts(concepts)
        assert texts[0].startswith("People") and any(t.startswith("Places") for t in texts)
        assert any(t.startswith("Gideon Thorne") for t in texts)
        assert not any("Morvoren" in t or "Toby" in t for t in texts)  # first met after p. 10
        index = next(i for i, t in enumerate(texts) if t.startswith("Gideon Thorne"))
        concepts.highlighted = index
        mentions = screen.query_one("#xray-mentions", OptionList)
        await wait_until(
            pilot, lambda: screen.detail is not None and screen.detail.entry.name == "Gideon Thorne"
        )
        about = str(screen.query_one("#xray-about", Static).content)
        assert "First met on p. 3" in about and "Mr. Thorne" in about
        pages = [option.id for option in mentions.options]
        assert pages and all(int(p) <= 10 for p in pages if p)
        await pilot.press("enter")  # to the mentions
        assert app.screen.focused is mentions
        mentions.highlighted = pages.index("6")
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, XRayScreen)
        assert app.session.number == 6 and services.books.get(book.id).current_page == 10


async def test_r_shows_the_story_so_far_up_to_the_reading_position() -> None:
    services, book = sample_services(8)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.press("r")
        screen = app.screen
        assert isinstance(screen, RecapScreen)
        await wait_until(pilot, lambda: screen.recap is not None)
        recap = screen.recap
        assert [s.title for s in recap.sections] == [
            "Chapter 1: The Crossing",
            "Chapter 2: The Sealed Letter",
            "Chapter 3: The Tower on Tern Head",
        ]
        assert recap.sections[-1].partial and recap.sections[-1].end_page == 8
        markdown = screen.query_one("#recap-text", Markdown)
        assert "Chapter 2: The Sealed Letter" in markdown.source and "(page:" in markdown.source
        await pilot.press("escape")
        assert not isinstance(app.screen, RecapScreen)


async def test_the_story_so_far_citations_open_their_page_from_the_keyboard() -> None:
    services, book = sample_services(8)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.press("r")
        screen = app.screen
        assert isinstance(screen, RecapScreen)
        await wait_until(pilot, lambda: bool(screen.query(".citation")))
        await pilot.pause()
        labels = [button.name for button in screen.query(Button)]
        assert labels and all(1 <= int(label or 0) <= 8 for label in labels)
        await pilot.press("tab")
        first = screen.focused
        assert isinstance(first, Button) and first.name == labels[0]
        await pilot.press("tab", "enter")
        await pilot.pause()
        assert not isinstance(app.screen, RecapScreen)
        assert app.session.number == int(labels[1]) and app.session.horizon == 8


async def test_the_keys_are_in_the_help_and_the_palette() -> None:
    services, _ = sample_services()
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = " ".join(str(s.content) for s in app.screen.query(Static))
        assert "X-Ray" in text and "Story so far" in text
        await pilot.press("escape")
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "X-Ray" in titles and "Story so far" in titles


async def test_a_long_list_shows_the_most_mentioned_first_and_the_rest_on_demand() -> None:
    from reader.domain.knowledge import ConceptDetail, ConceptEntry
    from reader.tui.screens.xray_screen import KIND_ROWS

    services, _ = sample_services()
    people = [ConceptEntry(i, f"Person {i}", "person", 1, 100 - i, 3, 5) for i in range(1, KIND_ROWS + 6)]

    def detail(entry: ConceptEntry) -> ConceptDetail:
        return ConceptDetail(entry, ((1, 2), (5, 1)), (), ())

    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        app.push_screen(XRayScreen(people, detail, "5", str))
        await pilot.pause()
        concepts = app.screen.query_one("#xray-concepts", OptionList)
        texts = option_texts(concepts)
        assert texts[0] == f"People ({KIND_ROWS + 5})" and texts[-1] == "… 5 more people"
        assert len(texts) == KIND_ROWS + 2
        concepts.highlighted = len(texts) - 1
        await pilot.press("enter")
        assert len(option_texts(concepts)) == KIND_ROWS + 6
        assert option_texts(concepts)[-1].startswith(f"Person {KIND_ROWS + 5}")


async def test_closed_dialogs_do_not_keep_their_rendered_lines() -> None:
    # Textual memoises a style helper per widget (Textualize/textual#6665); the app clears the memo
    # when a screen closes, else every X-Ray opened kept its rendered lines and slowed the collector
    import gc

    from textual.strip import Strip

    services, book = sample_services(30)

    def strips() -> int:
        gc.collect()
        return sum(isinstance(o, Strip) for o in gc.get_objects())

    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app

        async def open_and_close() -> None:
            await pilot.press("x")
            await wait_until(pilot, lambda: isinstance(app.screen, XRayScreen))
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()

        for _ in range(2):
            await open_and_close()
        before = strips()
        for _ in range(4):
            await open_and_close()
        assert strips() - before < 100  # about 1,000 more per opening without the fix
