"""Reopening a book: at the page left (the reading position unchanged and shown), with its last
conversation, and conversations that share a question told apart."""

from __future__ import annotations

from textual.widgets import Markdown, OptionList

from reader.tui.app import ReaderApp
from reader.tui.panes.chat_pane import ChatPane
from reader.tui.screens.conversations_screen import ConversationsScreen
from reader.tui.widgets.chat_items import QuestionItem
from reader.tui.widgets.page_header import PageHeader
from tests.test_tui_chat import answered
from tests.tui_helpers import sample_services, wait_until

SIZE = (120, 40)


async def test_reopening_shows_the_page_left_and_the_last_conversation() -> None:
    services, book = sample_services(9)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await answered(pilot, pane, "Who is Imogen?")
        await pilot.press("escape", "left", "left", "left")  # back to p. 6 to re-read
        await wait_until(pilot, lambda: app.session.number == 6)
    assert services.books.get(book.id).current_page == 9  # type: ignore[union-attr]

    async with ReaderApp(services).run_test(size=(80, 24)) as pilot:
        app = pilot.app
        await pilot.pause()
        assert app.session.number == 6 and app.session.horizon == 9
        position = app.query_one(PageHeader).line.position
        assert "p. 6" in position and "read to p. 9" in position  # the reading position is shown
        pane = app.query_one(ChatPane)
        await wait_until(pilot, lambda: bool(pane.query(QuestionItem)))
        assert [q.question for q in pane.query(QuestionItem)] == ["Who is Imogen?"]
        assert pane.query(Markdown)
        conversation = pane.conversation_id
        assert conversation is not None
        await answered(pilot, pane, "And Crane?")  # the conversation goes on
        assert pane.conversation_id == conversation
        assert len(services.conversations.list_for_book(book.id)) == 1


async def test_conversations_with_the_same_question_get_distinct_titles() -> None:
    services, book = sample_services(9)
    async with ReaderApp(services).run_test(size=SIZE) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        for _ in range(3):
            await answered(pilot, pane, "Who is Imogen?")
            await pilot.press("ctrl+n")
        await pilot.press("ctrl+y")
        await wait_until(pilot, lambda: isinstance(app.screen, ConversationsScreen))
        screen = app.screen
        assert isinstance(screen, ConversationsScreen)
        titles = [c.title for c in screen.conversations]
        assert sorted(titles) == ["Who is Imogen?", "Who is Imogen? (2)", "Who is Imogen? (3)"]
        shown = [str(screen.query_one(OptionList).get_option_at_index(i).prompt) for i in range(1, 4)]
        assert len(set(shown)) == 3
