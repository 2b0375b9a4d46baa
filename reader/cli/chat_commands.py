"""Chat commands: `ask` (one question, streamed) and `chat` (a prompt loop resuming the last conversation)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from reader.app.page_lookup import page_label
from reader.cli.output import error_line
from reader.domain.chat import (
    AnswerEvent,
    ChatEvent,
    ErrorEvent,
    NoticeEvent,
    TextDelta,
    ToolInvocationEvent,
)
from reader.domain.models import Book
from reader.services import Services

QUIT = {"/quit", "/exit", "/q", ":q"}


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
    p.set_defaults(handler=ask_command)

    p = commands.add_parser("chat", help="talk about a book in a prompt loop (resumes the last conversation)")
    p.add_argument("book", metavar="BOOK", help="id prefix or title")
    p.add_argument("--new", action="store_true", help="start a new conversation")
    p.add_argument("-v", "--verbose", action="store_true", help="show the tool calls")
    p.set_defaults(handler=chat_command)


class TurnPrinter:
    """Prints one turn's events: text as it streams, notices and tool calls on stderr."""

    def __init__(self, verbose: bool) -> None:
        self.verbose = verbose
        self.streamed = False
        self.conversation_id: int | None = None

    def show(self, event: ChatEvent) -> bool:
        """Print an event; False when the turn failed."""
        if isinstance(event, TextDelta):
            sys.stdout.write(event.text)
            sys.stdout.flush()
            self.streamed = True
        elif isinstance(event, NoticeEvent):
            print(f"note: {event.message}", file=sys.stderr)
        elif isinstance(event, ToolInvocationEvent) and self.verbose:
            self._end_line()
            print(f"  · {event.summary}", file=sys.stderr)
        elif isinstance(event, AnswerEvent):
            self.conversation_id = event.conversation_id
            if not self.streamed:
                sys.stdout.write(event.text)
            self.streamed = True
            self._end_line()
        elif isinstance(event, ErrorEvent):
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
    chat: Any, book: Book, question: str, conversation_id: int | None, verbose: bool
) -> tuple[bool, int | None]:
    """Ask one question and print the answer as it streams; returns (succeeded, conversation id)."""
    printer = TurnPrinter(verbose)
    ok = True
    for event in chat.ask(book.id, question, conversation_id=conversation_id):
        ok = printer.show(event) and ok
    return ok, printer.conversation_id or conversation_id


def ask_command(args: argparse.Namespace, services: Services) -> int:
    book = services.find_book(args.book)
    chat = services.chat
    conversation_id = chat.latest_conversation(book.id) if args.resume else None
    try:
        ok, _ = run_turn(chat, book, args.question, conversation_id, args.verbose)
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
        if question == "/new":
            conversation_id = None
            print("A new conversation.")
            continue
        try:
            _, conversation_id = run_turn(chat, book, question, conversation_id, args.verbose)
        except KeyboardInterrupt:
            print()
            error_line("Cancelled; your question is kept in the conversation.")
            conversation_id = conversation_id or chat.latest_conversation(book.id)
