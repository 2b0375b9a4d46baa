"""The spoiler shield on answers: a model that knows the book leaks, and the reader never sees it.

Real library file, the real litellm client against the scripted server on 127.0.0.1, the sample
novella read up to p. 10 (Morvoren Quay is first met on p. 26, the inquiry is chapter 9, p. 25).
"""

from __future__ import annotations

import json

import pytest

from reader.app.chat.history import MODEL_NOTE
from reader.app.shield.book_index import BookTextIndex
from reader.app.shield.rules import ShieldIndex
from reader.app.shield.spoiler_shield import HELD_NOTICE, verdict
from reader.cli.main import main
from reader.domain.chat import AnswerEvent, ShieldEvent, TextDelta
from reader.domain.knowledge import ConceptName
from reader.domain.models import Book, Page
from reader.services import Services
from tests.chat_helpers import ask, chat_services, final
from tests.support import scripted_server as scripted
from tests.test_chat_modes import write_config

HONEST = (
    "Imogen Vale crossed to Gull Rock with Silas Crane, who did not speak for the first hour [p. 1]. "
    'Mrs. Pell told her that Mr. Thorne was "the agent for the Lighthouse Board" [p. 2]. '
    "Tobias Wren found Edmund Halloran at the bottom of the tower stair [pp. 1-2].\n\n"
    "- The Reverend Jonah Ashby knew him well.\n- Will the light burn again? I hope so, and so does she."
)
LATER_NAME = "Imogen Vale came to Gull Rock [p. 1]. Then she rows to Morvoren Quay. It ends well."
SHOWN = "Imogen Vale came to Gull Rock [p. 1]."


def later_sentence(services: Services, book: Book, page: int) -> str:
    """A long sentence of ordinary words from `page` (after the reader's)."""
    chunks = services.chunks.get_by_page_range(book.id, page, page)
    sentences = [s.strip() for c in chunks for s in c.text.replace("\n", " ").split(". ")]
    return next(s for s in sentences if len(s.split()) >= 12)


def deltas(events: list) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))


def test_an_honest_answer_streams_whole_and_unchanged(scripted_server) -> None:
    server = scripted_server
    services, book = chat_services(server.base_url, page=10)
    quote = later_sentence(services, book, 9)  # read already: p. 9 of 10
    answer = f'{HONEST} On p. 9 the book says: "{quote}."'
    server.script_chat(scripted.text(answer))
    events = ask(services.chat, book, "Who is who so far?")
    end = final(events)
    assert isinstance(end, AnswerEvent) and not end.held
    assert end.text == answer and deltas(events) == answer
    assert not [e for e in events if isinstance(e, ShieldEvent)]
    stored = services.chat.messages(end.conversation_id or 0)[-1]
    assert stored.content == answer and stored.held_at is None


def test_a_later_name_is_held_back_from_its_sentence_and_stored_whole(scripted_server) -> None:
    server = scripted_server
    services, book = chat_services(server.base_url, page=10)
    server.script_chat(scripted.text(LATER_NAME))
    events = ask(services.chat, book, "What happens next?")
    end = final(events)
    assert isinstance(end, AnswerEvent) and end.held and end.text == SHOWN
    assert deltas(events) == SHOWN and "Morvoren" not in deltas(events)
    (shield,) = [e for e in events if isinstance(e, ShieldEvent)]
    assert shield.reasons == ('later name "Morvoren Quay" (first met p. 26)',) and shield.spoiler_page == 26
    stored = services.chat.messages(end.conversation_id or 0)[-1]
    assert stored.content == LATER_NAME and stored.held_at == len(SHOWN) and stored.spoiler_page == 26
    assert stored.shown(10) == SHOWN and stored.shown(26) == LATER_NAME


@pytest.mark.parametrize(
    ("leak", "reason"),
    [
        ("The truth comes out at the inquiry [p. 26].", 'later page "p. 26"'),
        ("Read on to page 27 and you will see.", 'later page "page 27"'),
        ("It all comes out in Chapter 9.", 'later chapter "Chapter 9"'),
        ("Wait for The Inquiry at the Drowned Bell.", "later chapter"),
    ],
)
def test_a_later_page_or_chapter_is_held_back(scripted_server, leak: str, reason: str) -> None:
    server = scripted_server
    services, book = chat_services(server.base_url, page=10)
    server.script_chat(scripted.text(f"{SHOWN} {leak}"))
    events = ask(services.chat, book, "What happens next?")
    end = final(events)
    assert isinstance(end, AnswerEvent) and end.held and end.text == SHOWN
    (shield,) = [e for e in events if isinstance(e, ShieldEvent)]
    assert shield.reasons[0].startswith(reason)


def test_a_long_quote_from_a_later_page_is_held_back(scripted_server) -> None:
    server = scripted_server
    services, book = chat_services(server.base_url, page=10)
    quote = later_sentence(services, book, 27)
    server.script_chat(scripted.text(f'{SHOWN} Her uncle wrote: "{quote}."'))
    events = ask(services.chat, book, "What did he write?")
    end = final(events)
    assert isinstance(end, AnswerEvent) and end.held and end.text == SHOWN
    (shield,) = [e for e in events if isinstance(e, ShieldEvent)]
    assert any(r.startswith("later quote") and "p. 27" in r for r in shield.reasons)


def test_a_spoiler_cut_across_stream_chunks_and_a_sentence_break_is_held(scripted_server) -> None:
    server = scripted_server
    services, book = chat_services(server.base_url, page=10)
    server.script_chat(
        scripted.text_pieces(
            "Imogen Vale came to Gull Rock [p. 1]. Then she rows to Morv", "oren", " Quay. It ends."
        )
    )
    events = ask(services.chat, book, "What happens next?")
    assert deltas(events) == SHOWN and final(events).text == SHOWN  # type: ignore[union-attr]

    # eight words of a later page, split by a sentence break: the sentence completing the run is held
    words = later_sentence(services, book, 27).split()
    first, second = " ".join(words[:5]), " ".join(words[5:9])
    server.script_chat(
        scripted.text_pieces(
            f"{SHOWN} He said {first[:9]}", f"{first[9:]}. {second[:3]}", f"{second[3:]} too."
        )
    )
    events = ask(services.chat, book, "What did he say?")
    end = final(events)
    assert isinstance(end, AnswerEvent) and end.held
    assert end.text == f"{SHOWN} He said {first}." and deltas(events) == end.text


def test_history_sent_back_is_the_held_back_version_until_the_reader_gets_there(scripted_server) -> None:
    server = scripted_server
    services, book = chat_services(server.base_url, page=10)
    server.script_chat(scripted.text(LATER_NAME), scripted.text("Fine."), scripted.text("Fine."))
    first = final(ask(services.chat, book, "What happens next?"))
    final(ask(services.chat, book, "And then?", conversation_id=first.conversation_id))
    sent = [m["content"] for m in server.chat_requests()[-1]["messages"] if m["role"] == "assistant"]
    assert sent == [f"{SHOWN}\n\n{MODEL_NOTE}"]
    services.books.set_current_page(book.id, 26)
    final(ask(services.chat, book, "And now?", conversation_id=first.conversation_id))
    sent = [m["content"] for m in server.chat_requests()[-1]["messages"] if m["role"] == "assistant"]
    assert sent[0] == LATER_NAME


def test_reveal_survives_a_restart_and_reaching_the_page_shows_it(scripted_server) -> None:
    server = scripted_server
    services, book = chat_services(server.base_url, page=10)
    server.script_chat(scripted.text(LATER_NAME), scripted.text(LATER_NAME))
    revealed = final(ask(services.chat, book, "What happens next?"))
    kept = final(ask(services.chat, book, "And after that?"))
    assert isinstance(revealed, AnswerEvent) and isinstance(kept, AnswerEvent)
    assert revealed.message_id is not None and kept.message_id is not None
    services.chat.reveal(revealed.message_id)
    services.close()

    again = Services.open(config=services.config)
    whole = again.chat.message(revealed.message_id)
    held = again.chat.message(kept.message_id)
    assert whole is not None and whole.revealed and whole.shown(10) == LATER_NAME
    assert whole.shown(10, for_model=True) == SHOWN  # the model still gets the held-back version
    assert held is not None and held.shown(10) == SHOWN and held.shown(26) == LATER_NAME


def test_every_route_is_shielded(scripted_server) -> None:
    server = scripted_server
    services, book = chat_services(server.base_url, page=10, tool_calling="off")
    route = {"route": "BOOK", "confidence": 0.9, "suggested_queries": ["Imogen"]}
    server.script_chat(scripted.text(json.dumps(route)), scripted.text(LATER_NAME))
    end = final(ask(services.chat, book, "What happens to Imogen?"))
    assert isinstance(end, AnswerEvent) and end.held and end.text == SHOWN

    general = {"route": "NOT_BOOK", "confidence": 0.9, "suggested_queries": []}
    server.script_chat(scripted.text(json.dumps(general)), scripted.text(LATER_NAME))
    end = final(ask(services.chat, book, "Tell me a joke"))
    assert isinstance(end, AnswerEvent) and end.held and end.text == SHOWN

    offline, book = chat_services(None, page=10)
    end = final(ask(offline.chat, book, "Silas Crane and the boat"))
    assert isinstance(end, AnswerEvent) and end.offline and not end.held and "[p. " in end.text


def test_the_readers_own_words_and_the_title_pass(scripted_server) -> None:
    server = scripted_server
    services, book = chat_services(server.base_url, page=10)
    answer = "I can't say yet what Morvoren Quay is; The Keeper of Gull Rock tells you later."
    server.script_chat(scripted.text(answer))
    end = final(ask(services.chat, book, "What is Morvoren Quay?"))
    assert isinstance(end, AnswerEvent) and not end.held and end.text == answer


def test_a_later_name_that_is_an_ordinary_word_holds_only_as_a_name() -> None:
    pages = [(1, "I will go where I hope to go."), (2, "Anna will wait."), (3, "Then Will came, and Hope.")]
    book = Book("b" * 64, "A Test", "Ann Writer", "en", "txt", "/x", 3, 2, "synthetic", "now")
    names = [ConceptName(1, "person", 3, "Will", 3), ConceptName(2, "person", 3, "Hope", 3)]
    index = ShieldIndex(book, 2, BookTextIndex.build(pages), names, [Page(n, str(n)) for n in (1, 2, 3)], [])
    for honest in ("I will tell you. Will you read on? Hope is a fine thing to keep.", "We hope so."):
        assert not verdict(index, "", honest).held
    for leak in ("Soon she meets Will.", "Anna waits for Hope and Will."):
        assert verdict(index, "", leak).held


def test_ask_holds_back_and_reveals_on_request(scripted_server, capsys: pytest.CaptureFixture[str]) -> None:
    server = scripted_server
    write_config(server.base_url)
    main(["demo", "--print"])
    main(["set-page", "gull", "10"])
    capsys.readouterr()
    server.script_chat(scripted.text(LATER_NAME), scripted.text(LATER_NAME))
    assert main(["ask", "gull", "What happens next?", "-v"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith(SHOWN + "\n") and "Morvoren" not in out and HELD_NOTICE in out and "--reveal" in out
    assert 'spoiler shield: held back: later name "Morvoren Quay" (first met p. 26)' in err
    assert main(["ask", "gull", "What happens next?", "--reveal"]) == 0
    out, err = capsys.readouterr()
    assert out == LATER_NAME + "\n" and "Morvoren" not in err


def test_chat_holds_back_and_reveals_with_a_command(
    scripted_server, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    server = scripted_server
    write_config(server.base_url)
    main(["demo", "--print"])
    main(["set-page", "gull", "10"])
    capsys.readouterr()
    server.script_chat(scripted.text(LATER_NAME))
    monkeypatch.setattr("sys.stdin", io.StringIO("What happens next?\n/reveal\n/quit\n"))
    assert main(["chat", "gull"]) == 0
    out, _ = capsys.readouterr()
    held, _, revealed = out.partition(HELD_NOTICE)
    assert SHOWN in held and "Morvoren" not in held and "/reveal" in revealed and LATER_NAME in revealed

    server.script_chat(scripted.text(LATER_NAME))
    monkeypatch.setattr("sys.stdin", io.StringIO("Again?\n"))
    assert main(["chat", "gull", "--reveal"]) == 0
    out, _ = capsys.readouterr()
    assert LATER_NAME in out and HELD_NOTICE not in out


def test_upgrade_from_schema_6_keeps_messages_with_nothing_held(tmp_path) -> None:
    import sqlean

    from reader.adapters.sqlite.connection import open_connection
    from reader.adapters.sqlite.conversation_repository import SqliteConversationRepository
    from reader.adapters.sqlite.migrations import migrate

    path = tmp_path / "old.db"
    old = sqlean.connect(str(path), isolation_level=None)
    migrate(old, target=6)
    old.execute(
        "INSERT INTO books (id, title, format, source_path, page_count, index_version, imported_at) "
        "VALUES (?, 'Old', 'txt', '/x', 1, 1, '2026-01-01')",
        ("ab" * 32,),
    )
    old.execute("INSERT INTO conversations (id, book_id, title) VALUES (1, ?, 'x')", ("ab" * 32,))
    old.execute(
        "INSERT INTO messages (conversation_id, role, content, horizon) VALUES (1, 'assistant', 'Old.', 1)"
    )
    old.close()

    conn = open_connection(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] >= 7
    (message,) = SqliteConversationRepository(conn).messages(1)
    assert message.content == "Old." and message.held_at is None and not message.revealed
    assert not message.held_back(1) and message.shown(1) == "Old."
