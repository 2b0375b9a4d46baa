"""Pages with no text layer get their text from a model that reads PDFs (the enrichment's full_text) or
from OCR: stored as the page's text, marked, indexed, embedded again, cited as the page itself."""

from __future__ import annotations

import base64
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from reader.cli.main import main
from reader.services import Services
from reader.tui.app import ReaderApp
from reader.tui.widgets.page_header import PageHeader
from tests.fixtures_formats import write_scanned_pdf
from tests.support import scripted_server as scripted
from tests.tui_helpers import wait_until

PAGES = [
    ["Preface by the editor of this volume."],
    ["The lighthouse keeper told Margaret", "about seventeen gulls at dawn."],
    ["Then Margaret rowed the skiff", "toward the harbour lantern."],
]

TRANSCRIPTIONS = {
    "2": "The lighthouse keeper told Margaret about seventeen walruses at dawn.",
    "3": "Then Margaret rowed the skiff toward the harbour lantern.",
}
"""What the scripted model "reads" on the scanned pages (walruses: a word OCR would never give)."""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def configure(home: Path, server: scripted.ScriptedServer, *, chat: bool = True) -> None:
    text = f'[embeddings]\nmodel = "openai/scripted-embed"\napi_base = "{server.base_url}"\nretry_backoff = 0.01\n'
    if chat:
        text += (
            f'[chat]\nmodel = "openai/scripted"\napi_base = "{server.base_url}"\ntimeout = 10.0\n'
            'retry_backoff = 0.01\npdf_input = "on"\n'
        )
    (home / "config.toml").write_text(text)


def user_message(body: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """The enrich request's text and its file parts."""
    content = body["messages"][-1]["content"]
    if isinstance(content, str):
        return content, []
    return content[0]["text"], [part for part in content if part["type"] == "file"]


def label_of(body: dict[str, Any]) -> str:
    match = re.search(r"This is p\. (\S+) \(page", user_message(body)[0])
    assert match
    return match.group(1)


def transcribing_model(body: dict[str, Any]) -> scripted.Reply:
    """A model that reads PDFs: it transcribes a page it is asked to, else leaves full_text empty."""
    label = label_of(body)
    text, files = user_message(body)
    asked = bool(files) and "transcribe its text in full" in text
    reply = {
        "summary": f"Page {label}: Margaret and the keeper.",
        "sections": [],
        "visuals": [],
        "visual_importance": 1,
        "full_text": TRANSCRIPTIONS[label] if asked else "",
    }
    return scripted.text(json.dumps(reply))


def attached_pages(part: dict[str, Any]) -> int:
    data = part["file"]["file_data"].split(",", 1)[1]
    return len(PdfReader(io.BytesIO(base64.b64decode(data))).pages)


def test_a_pdf_reading_model_transcribes_scanned_pages_which_search_then_cites(
    tmp_path: Path,
    scripted_server: scripted.ScriptedServer,
    isolated_env: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    configure(isolated_env, scripted_server)
    path = write_scanned_pdf(tmp_path / "scan.pdf", PAGES, text_pages=[1], title="Gull Rock Scan")
    assert run(capsys, "import", str(path))[0] == 0
    run(capsys, "set-page", "Gull Rock", "3")
    code, out, err = run(capsys, "embed", "Gull Rock")
    assert code == 0, err
    embedded_before = len(scripted_server.embedding_requests())

    scripted_server.script_chat(*[scripted.respond(transcribing_model) for _ in range(3)])
    code, out, err = run(capsys, "enrich", "Gull Rock")
    assert code == 0, err
    assert "enriched 3 of 3 pages" in out and "2 without a text layer transcribed" in out

    requests = scripted_server.chat_requests()
    assert [label_of(r) for r in requests] == ["1", "2", "3"]
    assert user_message(requests[0])[1] == []  # a text page goes as its text
    (second,) = user_message(requests[1])[1]
    assert second["file"]["filename"] == "page-2.pdf"  # cited as this page ...
    assert attached_pages(second) == 2  # ... with the next page attached for spill-over
    (third,) = user_message(requests[2])[1]
    assert attached_pages(third) == 1  # the last page has no next one

    # the transcription is the page's text: found by search, cited as the page itself
    code, out, _ = run(capsys, "search", "Gull Rock", "walruses", "--json")
    hits = [json.loads(line) for line in out.splitlines()]
    assert hits and hits[0]["start_label"] == hits[0]["end_label"] == "2"
    assert "seventeen walruses" in hits[0]["text"] and hits[0]["mode"] == "hybrid"
    code, out, err = run(capsys, "search-page", "Gull Rock", "2")
    assert out.strip() == TRANSCRIPTIONS["2"] and err.strip() == "[p. 2: model transcription]"
    page = json.loads(run(capsys, "search-page", "Gull Rock", "1", "--json")[1])
    assert page["text_source"] is None and "Preface" in page["text"]

    # the book was embedded: the transcribed pages' chunks were embedded after the run
    new_inputs = json.dumps(scripted_server.embedding_requests()[embedded_before:])
    assert "seventeen walruses" in new_inputs and "harbour lantern" in new_inputs
    services = Services.open(None)
    try:
        book = services.find_book("Gull Rock")
        (vectors,) = services.vectors.book_vectors(book.id)
        assert vectors.complete
        marked = services.db.conn.execute(
            "SELECT page, source, text FROM page_texts WHERE book_id = ? ORDER BY page", (book.id,)
        ).fetchall()
        assert [tuple(row) for row in marked] == [
            (2, "model", TRANSCRIPTIONS["2"]),
            (3, "model", TRANSCRIPTIONS["3"]),
        ]
        stored = services.enrichments.get(book.id, 2)
        assert stored is not None and stored.enrichment.full_text == TRANSCRIPTIONS["2"]
        names = {row[0] for row in services.db.conn.execute(
            "SELECT name FROM concepts WHERE book_id = ?", (book.id,)
        ).fetchall()}  # fmt: skip
        assert "Margaret" in names  # the concept map was rebuilt with the transcriptions
    finally:
        services.close()

    # idempotent: a second run asks the model nothing
    code, out, _ = run(capsys, "enrich", "Gull Rock")
    assert code == 0 and "enriched 0 of 3 pages" in out and "3 already done" in out
    assert len(scripted_server.chat_requests()) == 3


def test_a_malformed_transcription_is_one_line_and_stores_nothing(
    tmp_path: Path,
    scripted_server: scripted.ScriptedServer,
    isolated_env: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    configure(isolated_env, scripted_server)
    path = write_scanned_pdf(tmp_path / "scan.pdf", PAGES, text_pages=[1], title="Gull Rock Scan")
    run(capsys, "import", str(path))
    broken = '{"summary": "Page 2", "full_text": "The lighthouse keeper told Margaret'
    scripted_server.script_chat(scripted.text(broken))
    code, out, err = run(capsys, "enrich", "Gull Rock", "--pages", "2")
    assert code == 1
    (line,) = err.strip().splitlines()
    assert line.startswith("[1/1] p. 2 failed: not valid JSON")
    assert "1 failed: p. 2" in out
    services = Services.open(None)
    try:
        book = services.find_book("Gull Rock")
        conn = services.db.conn
        assert conn.execute("SELECT count(*) FROM page_texts").fetchone()[0] == 0
        assert not services.chunks.get_by_page_range(book.id, 2, 2)
        assert services.enrichments.get(book.id, 2) is None
        (failure,) = services.enrichments.failures(book.id)
        assert failure.raw_output == broken
    finally:
        services.close()
    run(capsys, "set-page", "Gull Rock", "3")
    code, out, _ = run(capsys, "search", "Gull Rock", "lighthouse", "--json")
    assert "lighthouse" not in out.lower()


def test_ocr_embeds_an_embedded_books_new_chunks(
    tmp_path: Path,
    scripted_server: scripted.ScriptedServer,
    isolated_env: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    configure(isolated_env, scripted_server, chat=False)
    path = write_scanned_pdf(tmp_path / "scan.pdf", PAGES, text_pages=[1], title="Gull Rock Scan")
    run(capsys, "import", str(path))
    run(capsys, "set-page", "Gull Rock", "3")
    assert run(capsys, "embed", "Gull Rock")[0] == 0
    before = len(scripted_server.embedding_requests())
    code, out, err = run(capsys, "ocr", "Gull Rock")
    assert code == 0, err
    assert "read 2 of 2 pages" in out
    new_inputs = json.dumps(scripted_server.embedding_requests()[before:])
    assert "seventeen gulls" in new_inputs and "harbour lantern" in new_inputs
    services = Services.open(None)
    try:
        book = services.find_book("Gull Rock")
        (vectors,) = services.vectors.book_vectors(book.id)
        total = services.db.conn.execute(
            "SELECT count(*) FROM chunks WHERE book_id = ?", (book.id,)
        ).fetchone()[0]
        assert vectors.complete and vectors.count == total == 3
    finally:
        services.close()
    code, out, _ = run(capsys, "search", "Gull Rock", "gulls at dawn", "--json")
    hits = [json.loads(line) for line in out.splitlines()]
    assert hits[0]["mode"] == "hybrid" and hits[0]["start_label"] == "2"
    assert "semantic" in hits[0]["retrievers"]
    code, out, err = run(capsys, "search-page", "Gull Rock", "3")
    assert err.strip() == "[p. 3: OCR text]"


async def test_the_page_header_marks_transcribed_and_ocr_text(tmp_path: Path) -> None:
    path = write_scanned_pdf(tmp_path / "scan.pdf", PAGES, text_pages=[1], title="Gull Rock Scan")
    services = Services.open()
    book = services.importer.import_file(path).book
    assert book is not None
    services.page_text_index.save(book.id, 2, "model", TRANSCRIPTIONS["2"])
    services.page_text_index.save(book.id, 3, "ocr", TRANSCRIPTIONS["3"])
    async with ReaderApp(services, book_id=book.id).run_test(size=(120, 36)) as pilot:
        header = pilot.app.query_one(PageHeader)
        assert "transcription" not in header.line.position and "OCR" not in header.line.position
        await pilot.press("right")
        await wait_until(pilot, lambda: "p. 2" in header.line.position)
        assert "model transcription" in header.line.position
        await pilot.press("right")
        await wait_until(pilot, lambda: "p. 3" in header.line.position)
        assert "OCR text" in header.line.position and "transcription" not in header.line.position
