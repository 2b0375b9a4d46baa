"""Chat commands: `ask` (one question, streamed) and `chat` (a prompt loop resuming the last conversation)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from reader.app.pages.page_lookup import page_label
from reader.cli.output import error_line
from reader.domain.models import Book
from reader.services import Services

if TYPE_CHECKING:
    from reader.domain.chat import ChatEvent

QUIT = {"/quit", "/exit", "/q", ":q"}
REVEAL_HINT = "Run it again with --reveal to see it anyway."
CHAT_REVEAL_HINT = "Type /reveal to see it anyway."


REVEAL_HELP = "show answers whole, even a part the spoiler shield would hold back (it mentions later pages)"


def register(commands: Any) -> None:
    p = commands.add_parser(
        "ask", help="ask one question about a book (answers stop at your reading position)"
    )
    p.add_argument("book", metavar="BOOK", help="id prefix or title")
    p.add_argument("question", metavar="QUESTION")
    p.add_argument("-v", "--verbose", action="store_true", help="show the tool calls")
    p.add_argument(
        "-c", "--continue", dest="resume", action="store_true", help="add to the last conversation"
    )
    p.add_argument("--reveal", action="store_true", help=REVEAL_HELP)
    p.set_defaults(handler=ask_command)

    p = commands.add_parser("chat", help="talk about a book in a prompt loop (resumes the last conversation)")
    p.add_argument("book", metavar="BOOK", help="id prefix or title")
    p.add_argument("--new", action="store_true", help="start a new conversation")
    p.add_argument("-v", "--verbose", action="store_true", help="show the tool calls")
    p.add_argument("--reveal", action="store_true", help=REVEAL_HELP)
    p.set_defaults(handler=chat_command)


class TurnPrinter:
    """Prints one turn's events: text as it streams, notices and tool calls on stderr."""

    def __init__(self, verbose: bool, hint: str = REVEAL_HINT) -> None:
        self.verbose = verbose
        self.hint = hint
        self.streamed = False
        self.conversation_id: int | None = None
        self.held_message: int | None = None
        """The stored answer whose end was held back (to reveal it)."""

    def show(self, event: ChatEvent) -> bool:
        """Print an event; False when the turn failed."""
        from reader.app.shield.spoiler_shield import HELD_NOTICE
        from reader.domain import chat as events  # the chat's records load with the first question

        if isinstance(event, events.TextDelta):
            sys.stdout.write(event.text)
            sys.stdout.flush()
            self.streamed = True
        elif isinstance(event, events.NoticeEvent):
            print(f"note: {event.message}", file=sys.stderr)
        elif isinstance(event, events.ToolInvocationEvent) and self.verbose:
            self._end_line()
            print(f"  · {event.summary}", file=sys.stderr)
        elif isinstance(event, events.ShieldEvent) and self.verbose:
            self._end_line()
            state = "shown (--reveal)" if event.revealed else "held back"
            print(f"  · spoiler shield: {state}: {'; '.join(event.reasons)}", file=sys.stderr)
        elif isinstance(event, events.AnswerEvent):
            self.conversation_id = event.conversation_id
            if not self.streamed:
                sys.stdout.write(event.text)
            self.streamed = bool(event.text)
            self._end_line()
            if event.held:
                self.held_message = event.message_id
                print(f"[{HELD_NOTICE} {self.hint}]")
        elif isinstance(event, events.ErrorEvent):
            self.conversation_id = event.conversation_id
            self._end_line()
            error_line(event.message)
            return False
        return True

    def _end_line(self) -> None:
        if self.streamed:
            sys.stdout.write("\n")
            sys.stdout.flush()
            self.streamed = False


def run_turn(
    chat: Any,
    book: Book,
    question: str,
    conversation_id: int | None,
    verbose: bool,
    *,
    reveal: bool = False,
    printer: TurnPrinter | None = None,
) -> tuple[bool, int | None]:
    """Ask one question and print the answer as it streams; returns (succeeded, conversation id)."""
    printer = printer or TurnPrinter(verbose)
    ok = True
    for event in chat.ask(book.id, question, conversation_id=conversation_id, reveal=reveal):
        ok = printer.show(event) and ok
    return ok, printer.conversation_id or conversation_id


def reveal_last(chat: Any, message_id: int | None) -> None:
    """Print the held-back answer whole (`/reveal` in the chat loop)."""
    message = chat.reveal(message_id) if message_id is not None else None
    if message is None:
        print("Nothing is held back in this conversation.")
        return
    print(message.content)


def ask_command(args: argparse.Namespace, services: Services) -> int:
    book = services.find_book(args.book)
    chat = services.chat
    conversation_id = chat.latest_conversation(book.id) if args.resume else None
    try:
        ok, _ = run_turn(chat, book, args.question, conversation_id, args.verbose, reveal=args.reveal)
    except KeyboardInterrupt:
        print()
        error_line("Cancelled; your question is kept in the conversation.")
        return 130
    return 0 if ok else 1


def _prompt(services: Services, book: Book) -> str:
    current = services.books.get(book.id) or book
    return f"[p. {page_label(services.books.pages(book.id), current.current_page)}] > "


def chat_command(args: argparse.Namespace, services: Services) -> int:
    book = services.find_book(args.book)
    chat = services.chat
    conversation_id = None if args.new else chat.latest_conversation(book.id)
    if conversation_id is not None:
        messages = [m for m in chat.messages(conversation_id) if m.role == "user"]
        print(
            f"Resuming the conversation about {book.title} ({len(messages)} question{'s' * (len(messages) != 1)} so far; --new starts another)."
        )
    else:
        print(f"A new conversation about {book.title}.")
    print("Answers stop at your reading position. /new starts a new conversation, /quit (or Ctrl+D) leaves.")
    printer = TurnPrinter(args.verbose, CHAT_REVEAL_HINT)
    while True:
        try:
            question = input(_prompt(services, book)).strip()
        except EOFError:
            print()
            return 0
        except KeyboardInterrupt:
            print()
            return 0
        if not question:
            continue
        if question in QUIT:
            return 0
        if question == "/reveal":
            reveal_last(chat, printer.held_message)
            printer.held_message = None
            continue
        if question == "/new":
            conversation_id = None
            print("A new conversation.")
            continue
        try:
            printer.held_message = None
            _, conversation_id = run_turn(
                chat, book, question, conversation_id, args.verbose, reveal=args.reveal, printer=printer
            )
        except KeyboardInterrupt:
            print()
            error_line("Cancelled; your question is kept in the conversation.")
            conversation_id = conversation_id or chat.latest_conversation(book.id)
