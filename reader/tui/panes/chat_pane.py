"""The chat pane: ask about the book; answers stream in and never go past the reading position."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.actions import SkipAction
from textual.binding import Binding
from textual.events import DescendantFocus, Resize
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input
from textual.worker import Worker, WorkerState

from reader.services import Services
from reader.tui.fit_text import first_that_fits
from reader.tui.panes.deferred_pane import DeferredPane
from reader.tui.widgets.ask_input import AskInput
from reader.tui.widgets.chat_log import ChatLog

if TYPE_CHECKING:  # the chat's records load with the first question or conversation (start-up paints first)
    from reader.domain.chat import ChatEvent, ChatMessage, Conversation
    from reader.tui.widgets.chat_items import TurnItem

NO_MODEL = "no-model"
"""The topic of the offline strategy's notice (reader.app.chat.offline_strategy.NO_MODEL): the pane says it,
with the configuration to copy, as a conversation starts, and not again under every answer."""

BORDER_LABEL_MARGIN = 4
"""Cells of a border the subtitle cannot use: the two corners and a space beside each."""


CONFIG_EXAMPLE = "\n".join(
    [
        "[chat]",
        '# or "ollama_chat/llama3.1", or "openai/NAME" with api_base',
        'model = "gpt-4o-mini"',
        'api_key_env = "OPENAI_API_KEY"',
    ]
)
"""The config that connects a model, shown as a block to copy."""


def offline_hint(services: Services) -> str | None:
    """How to configure a model, when none is (CONFIG_EXAMPLE follows it)."""
    if services.config.chat.model:
        return None
    where = services.config.path or "the config file"
    return (
        "No model is configured, so answers are the passages from the pages you have read that best "
        f"match your question, with their pages. To chat with a model, add this to {where}:"
    )


def said_again_later(messages: Sequence[ChatMessage], index: int) -> bool:
    """Whether the text the model wrote before calling tools (messages[index]) reappears in a later
    answer of the same turn: the final answer (or the partial one kept on cancel or error) opens with it."""
    text = messages[index].content.strip()
    for later in messages[index + 1 :]:
        if later.role == "user":
            return False
        if later.role == "assistant" and not later.tool_calls and text in later.content:
            return True
    return False


class ChatPane(DeferredPane):
    """Questions and answers about the open book; one answer at a time, cancellable with Esc.

    Its log and input mount right after the app's first paint (a DeferredPane): measured, the chat's
    widgets and items cost the first frame 59 M instructions of 1,390 M (callgrind), about 20 ms.
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel answer", id="chat.cancel"),
        Binding("ctrl+n", "new_conversation", "New chat", id="chat.new"),
        Binding("ctrl+y", "conversations", "Earlier chats", id="chat.history"),
        Binding("ctrl+r", "reveal", "Reveal held-back answer", id="chat.reveal"),
        Binding("w", "app.wide_chat", "Wide chat", id="chat.wide"),
    ]

    class EventArrived(Message):
        """A chat event from the worker for turn `turn`."""

        def __init__(self, turn: int, event: ChatEvent) -> None:
            super().__init__()
            self.turn = turn
            self.event = event

    class TurnEnded(Message):
        """The worker for turn `turn` is done."""

        def __init__(self, turn: int) -> None:
            super().__init__()
            self.turn = turn

    class AnswerRevealed(Message):
        """The whole text of a held-back answer, to show."""

        def __init__(self, message_id: int, text: str) -> None:
            super().__init__()
            self.message_id = message_id
            self.text = text

    class ConversationsLoaded(Message):
        """The book's conversations, for the picker."""

        def __init__(self, conversations: list[Conversation]) -> None:
            super().__init__()
            self.conversations = conversations

    class MessagesLoaded(Message):
        """The stored messages of a conversation to show (`latest`: the id of the book whose last
        conversation it is, shown as the book opens unless the reader has started asking meanwhile)."""

        def __init__(
            self, conversation_id: int, messages: list[ChatMessage], latest: str | None = None
        ) -> None:
            super().__init__()
            self.conversation_id = conversation_id
            self.messages = messages
            self.latest = latest

    def __init__(self, services: Services, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.services = services
        self.book_id: str | None = None
        self.conversation_id: int | None = None
        self.turn = 0
        self.running: TurnItem | None = None
        self._cancel: threading.Event | None = None
        self._warmed = False
        self.horizon_label = ""
        self.horizon_page = 0
        """The reading position: held-back answers up to it are shown whole."""
        self._spoiler_page: int | None = None
        """The running turn's ShieldEvent: from which page its held-back part spoils nothing."""
        self._noticed: set[str] = set()
        """The topics of the notices this conversation has shown (each is said once)."""
        self._parts = 0
        """How many parts of the running turn's answer arrived (one or none: it is shown from its start)."""

    def contents(self) -> Iterable[Widget]:
        """The log with its opening notices in it (one layout and frame for all), and the ask box."""
        yield ChatLog(*self._opening_items(), id="chat-log")
        yield AskInput(placeholder="Ask about the book…  (a)", id="chat-input")

    def on_mount(self) -> None:
        self.border_title = "Chat"

    def on_filled(self) -> None:
        self.chat_log.anchor()
        if self.book_id is not None:
            self._load_latest(self.book_id)

    def focus_input(self) -> None:
        """Focus the question input (once it is mounted)."""
        self.when_filled(lambda: self.query_one("#chat-input", Input).focus())

    def on_descendant_focus(self, event: DescendantFocus) -> None:
        if not self._warmed:
            self._warmed = True
            self._warm_up()
            if self.book_id is not None:
                self._warm_shield(self.book_id)

    @work(thread=True, group="chat-warm-up", exit_on_error=False)
    def _warm_up(self) -> None:
        """Load the chat machinery (litellm) in the background before the first question."""
        try:
            getattr(self.services, "chat", None)
        except Exception:  # noqa: BLE001 - the question itself will report the problem
            pass

    @property
    def chat_log(self) -> ChatLog:
        return self.query_one("#chat-log", ChatLog)

    def _chat(self) -> Any:
        """The chat use case (built on first use, in a worker thread: it loads litellm)."""
        return getattr(self.services, "chat")  # noqa: B009 - not on Services until the chat lands

    # --- book and conversation -------------------------------------------------------------------

    def set_book(self, book_id: str | None, horizon_label: str = "", horizon_page: int = 0) -> None:
        """Start a fresh conversation view for another book."""
        if book_id == self.book_id:
            self.set_horizon(horizon_label, horizon_page)
            return
        self.stop_running(restore=False)
        self.book_id = book_id
        self.conversation_id = None
        self.set_horizon(horizon_label, horizon_page)
        self._reset_log()
        if book_id is not None and self.filled:
            self._load_latest(book_id)
        if book_id is not None and self._warmed:  # else when the chat is first focused (start-up
            self._warm_shield(book_id)  # paints the page first: indexing a long book takes a second)

    @work(thread=True, group="chat-shield", exit_on_error=False)
    def _warm_shield(self, book_id: str) -> None:
        """Index the book for the spoiler shield now, so the first answer does not wait for it (only with
        a model: offline answers quote the pages read and are not checked; the index of War and Peace
        takes 1.7 s of the processor the first offline answer needs)."""
        if self.services.config.chat.model:
            self._chat().warm_shield(book_id)

    def set_horizon(self, label: str, page: int = 0) -> None:
        """Show the page the answers stop at; held-back answers it has reached are shown whole."""
        self.horizon_label = label
        self._fit_subtitle(self.size.width)
        if page and page != self.horizon_page:
            self.horizon_page = page
            if "reader.tui.widgets.answer_item" not in sys.modules:
                return  # no answer shown yet (and start-up need not import the shield for it)
            from reader.tui.widgets.answer_item import AnswerItem

            for item in self.query(AnswerItem):
                if item.held_message is not None and item.spoiler_page and item.spoiler_page <= page:
                    self._load_whole(item.held_message, reveal=False)

    # --- held-back answers -----------------------------------------------------------------------

    def _held_answers(self) -> list[Any]:
        from reader.tui.widgets.answer_item import AnswerItem

        return [item for item in self.query(AnswerItem) if item.held_message is not None]

    def action_reveal(self) -> None:
        """Show the last held-back answer whole, after a confirmation."""
        held = self._held_answers()
        if not held:
            self.notify("No answer here is held back.", timeout=3)
            return
        message_id = held[-1].held_message
        question = (
            f"The rest of this answer mentions something from later in the book than p. {self.horizon_label}. "
            "Show it anyway?"
        )

        def answered(yes: bool | None) -> None:
            if yes:
                self._load_whole(message_id, reveal=True)

        from reader.tui.screens.confirm_screen import ConfirmScreen

        self.app.push_screen(
            ConfirmScreen(question, yes="Reveal", no="Keep hidden", title="Spoilers ahead"), answered
        )

    @work(thread=True, group="chat-reveal", exit_on_error=False)
    def _load_whole(self, message_id: int, reveal: bool) -> None:
        chat = self._chat()
        message = chat.reveal(message_id) if reveal else chat.message(message_id)
        if message is not None:
            self.post_message(self.AnswerRevealed(message_id, message.content))

    @on(AnswerRevealed)
    async def _answer_revealed(self, event: AnswerRevealed) -> None:
        for item in self._held_answers():
            if item.held_message == event.message_id:
                await item.show_whole(event.text)

    def on_resize(self, event: Resize) -> None:
        self._fit_subtitle(event.size.width)

    def _fit_subtitle(self, width: int) -> None:
        label = self.horizon_label
        variants = [f"spoiler-free up to p. {label}", f"spoiler-free to p. {label}", f"up to p. {label}"]
        room = width - BORDER_LABEL_MARGIN if width else 1_000
        self.border_subtitle = first_that_fits(variants, room) if label else ""

    def _reset_log(self) -> None:
        if not self.filled:
            return  # the log is made with its opening notices when the pane fills
        self.chat_log.remove_children()
        self.chat_log.mount_all(self._opening_items())

    def _opening_items(self) -> list[Widget]:
        """What a new conversation starts with: how to connect a model, when none is (said once)."""
        from reader.tui.widgets.chat_notices import CodeItem, NoticeItem

        self._noticed.clear()
        if self.book_id is None:
            return [NoticeItem("Open a book to ask about it.")]
        if hint := offline_hint(self.services):
            self._noticed.add(NO_MODEL)
            return [NoticeItem(hint), CodeItem(CONFIG_EXAMPLE)]
        return []

    def action_new_conversation(self) -> None:
        """Start a new conversation about this book."""
        self.stop_running(restore=False)
        self.conversation_id = None
        self._reset_log()
        self.focus_input()

    def action_conversations(self) -> None:
        """Pick one of the book's earlier conversations."""
        if self.book_id is not None:
            self._load_conversations(self.book_id)

    @work(thread=True, exclusive=True, group="chat-history", exit_on_error=False)
    def _load_conversations(self, book_id: str) -> None:
        self.post_message(self.ConversationsLoaded(self.services.conversations.list_for_book(book_id)))

    @work(thread=True, exclusive=True, group="chat-latest", exit_on_error=False)
    def _load_latest(self, book_id: str) -> None:
        """Show the book's last conversation, to continue it (read once the first screen is up)."""
        first_screen = getattr(self.app, "first_screen", None)
        if first_screen is not None:
            first_screen.wait(5)
        if not self.services.has_conversation(book_id):
            return
        store = self.services.conversations
        latest = store.latest(book_id)
        if latest is not None and latest.message_count:
            self.post_message(self.MessagesLoaded(latest.id, store.messages(latest.id), latest=book_id))

    @on(ConversationsLoaded)
    def _conversations_loaded(self, event: ConversationsLoaded) -> None:
        from reader.tui.screens.conversations_screen import NEW, ConversationsScreen

        def chosen(choice: int | str | None) -> None:
            if choice == NEW:
                self.action_new_conversation()
            elif isinstance(choice, int):
                self.open_conversation(choice)

        self.app.push_screen(ConversationsScreen(event.conversations), chosen)

    def open_conversation(self, conversation_id: int) -> None:
        """Show a stored conversation and continue it."""
        self.stop_running(restore=False)
        self.when_filled(lambda: self._load_messages(conversation_id))

    @work(thread=True, exclusive=True, group="chat-history", exit_on_error=False)
    def _load_messages(self, conversation_id: int) -> None:
        messages = self.services.conversations.messages(conversation_id)
        self.post_message(self.MessagesLoaded(conversation_id, messages))

    @on(MessagesLoaded)
    async def _messages_loaded(self, event: MessagesLoaded) -> None:
        from reader.tui.widgets.answer_item import AnswerItem
        from reader.tui.widgets.chat_items import QuestionItem, ToolCallItem
        from reader.tui.widgets.chat_notices import CodeItem, NoticeItem

        if event.latest is not None and (
            event.latest != self.book_id or self.running is not None or self.conversation_id is not None
        ):
            return  # another book opened, or the reader asked before it was read: theirs stays
        self.conversation_id = event.conversation_id
        await self.chat_log.remove_children()
        self._noticed.clear()
        items: list[Any] = []
        if hint := offline_hint(self.services):
            items += [NoticeItem(hint), CodeItem(CONFIG_EXAMPLE)]
            self._noticed.add(NO_MODEL)
        for index, message in enumerate(event.messages):
            if message.role == "user":
                items.append(QuestionItem(message.content))
            elif message.role == "assistant" and message.content.strip():
                if message.tool_calls and said_again_later(event.messages, index):
                    continue  # shown once, where the turn's answer starts with it (as while it streamed)
                held = message.held_back(self.horizon_page)
                items.append(
                    AnswerItem(
                        message.shown(self.horizon_page),
                        streaming=False,
                        held_message=message.id if held else None,
                        spoiler_page=message.spoiler_page if held else None,
                    )
                )
            elif message.role == "tool":
                items.append(
                    ToolCallItem(
                        message.tool_call_id or "", f"{message.name or 'tool'} result", {}, message.content
                    )
                )
        if not any(isinstance(item, QuestionItem) for item in items):
            items.append(NoticeItem("This conversation is empty."))
        await self.chat_log.mount_all(items)
        self.chat_log.scroll_end(animate=False)

    # --- asking ----------------------------------------------------------------------------------

    @on(Input.Submitted, "#chat-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        question = event.value.strip()
        if not question:
            return
        if self.book_id is None:
            self.notify("Open a book first.", severity="warning")
            return
        if self.running is not None:
            self.notify("Wait for the answer, or press Esc to cancel it.", timeout=3)
            return
        event.input.value = ""
        self.ask(question)

    def ask(self, question: str) -> None:
        """Send `question` about the open book; the answer streams into the log."""
        from reader.tui.widgets.chat_items import TurnItem

        assert self.book_id is not None
        self.turn += 1
        turn = TurnItem(question)
        self.running = turn
        self._parts = 0
        self.refresh_bindings()
        self.chat_log.mount(turn)
        self.chat_log.anchor()
        self._cancel = threading.Event()
        self._ask(self.turn, self.book_id, question, self.conversation_id, self._cancel)

    @work(thread=True, exclusive=True, group="chat", exit_on_error=False)
    def _ask(
        self, turn: int, book_id: str, question: str, conversation_id: int | None, cancel: threading.Event
    ) -> None:
        try:
            for event in self._chat().ask(book_id, question, conversation_id=conversation_id, cancel=cancel):
                if cancel.is_set():
                    break
                self.post_message(self.EventArrived(turn, event))
        finally:
            self.post_message(self.TurnEnded(turn))

    @on(EventArrived)
    async def _event(self, message: EventArrived) -> None:
        turn = self.running
        if turn is None or message.turn != self.turn:
            return  # a cancelled turn's late events
        from reader.domain import chat as events  # the chat's records load with the first question
        from reader.tui.widgets.chat_items import ErrorItem, ToolCallItem
        from reader.tui.widgets.chat_notices import NoticeItem

        event = message.event
        if not isinstance(event, events.NoticeEvent):
            turn.stop_thinking()
        if isinstance(event, events.TextDelta):
            self._parts += 1
            await turn.answer.append(event.text)
        elif isinstance(event, events.ToolInvocationEvent):
            turn.add_before_answer(
                ToolCallItem(event.tool_call_id, event.summary, event.arguments, event.result_text)
            )
        elif isinstance(event, events.ToolResultEvent):
            if (item := turn.tool_item(event.tool_call_id)) is not None:
                item.add_results(event.results)
            turn.answer.found(event.query, event.results)
        elif isinstance(event, events.NoticeEvent):
            if event.topic not in self._noticed:
                turn.add_before_answer(NoticeItem(event.message))
            if event.topic:
                self._noticed.add(event.topic)
        elif isinstance(event, events.ShieldEvent):
            self._spoiler_page = event.spoiler_page
        elif isinstance(event, events.AnswerEvent):
            self.conversation_id = event.conversation_id or self.conversation_id
            await turn.answer.finish(event.text, event.citations)
            if event.held:
                await turn.answer.hold(event.message_id, self._spoiler_page)
            self._spoiler_page = None
            if self._parts <= 1:  # it arrived whole: show it from the question, not from its end
                self.call_after_refresh(self.chat_log.scroll_to_start_of, turn)
        elif isinstance(event, events.ErrorEvent):
            self.conversation_id = event.conversation_id or self.conversation_id
            await turn.answer.abandon()
            if not turn.answer.text:
                await turn.answer.remove()
            await turn.mount(ErrorItem(event.message))

    @on(TurnEnded)
    def _turn_ended(self, message: TurnEnded) -> None:
        if message.turn == self.turn:
            if self.running is not None:
                self.running.stop_thinking()
            self.running = None
            self._cancel = None
            self.refresh_bindings()

    @on(Worker.StateChanged)
    async def _worker_failed(self, event: Worker.StateChanged) -> None:
        if event.state != WorkerState.ERROR:
            return
        event.stop()  # shown here, in the chat; the app notifies every other failed worker
        from reader.tui.widgets.chat_items import ErrorItem

        error = event.worker.error
        text = f"{type(error).__name__}: {error}" if error else "unknown error"
        if event.worker.group == "chat" and self.running is not None:
            self.running.stop_thinking()
            await self.running.mount(ErrorItem(f"The answer failed ({text})."))
            self.running = None
            self.refresh_bindings()
        else:
            await self.chat_log.mount(ErrorItem(f"Could not load conversations ({text})."))

    # --- cancelling ------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Esc cancels only while an answer runs (otherwise it goes back to the page)."""
        if action == "cancel":
            return self.running is not None
        if action == "reveal":
            return bool(self._held_answers())
        return True

    def action_cancel(self) -> None:
        """Cancel the running answer and put the question back in the input."""
        if self.running is None:
            raise SkipAction()  # let Esc go back to the page
        self.stop_running(restore=True)
        self.notify("Answer cancelled; your question is back in the input.", timeout=3)

    def stop_running(self, *, restore: bool) -> None:
        """Stop the running turn (if any), removing what it showed."""
        turn = self.running
        if turn is None:
            return
        if self._cancel is not None:
            self._cancel.set()
        self.workers.cancel_group(self, "chat")
        self.running = None
        self._cancel = None
        self.refresh_bindings()
        self.turn += 1  # late events of the cancelled turn are ignored
        self.call_next(turn.answer.abandon)
        turn.remove()
        if restore:
            field = self.query_one("#chat-input", Input)
            field.value = turn.question
            field.cursor_position = len(field.value)
            field.focus()
