"""`reader enrich`: strict JSON per page from the model, stored with version, hash and model; failures logged.

The model is the scripted server behind the real litellm client; the library is a real SQLite file.
"""

from __future__ import annotations

import json
import os
import re
import signal
import threading
from pathlib import Path
from typing import Any

import pytest

from reader.adapters.sqlite.book_repository import SqliteBookRepository
from reader.app.pages.chunking import make_chunks
from reader.app.pages.enrichment_schema import (
    ENRICHMENT_SCHEMA,
    EnrichmentInvalid,
    parse_enrichment,
    validate,
)
from reader.cli.main import main
from reader.config import ChatConfig, Config
from reader.domain.chat_model import TurnCancelled
from reader.domain.enrichment import ENRICHMENT_SCHEMA_VERSION
from reader.domain.models import Book
from reader.services import Services
from tests.chat_helpers import tool_messages
from tests.fixtures_books import write_figure_pdf
from tests.support import scripted_server as scripted

LAYOUTS = ("prose", "captioned", "prose", "figure", "prose", "vector")


def page_json(page: str, importance: int = 2, **extra: Any) -> str:
    value = {
        "summary": f"Summary of page {page}: the keeper trims the wick.",
        "sections": [f"Section {page}"],
        "visuals": [
            {"type": "figure", "description": f"the lamp drawn on page {page}", "relevance": "essential"}
        ],
        "visual_importance": importance,
        "full_text": "",
    }
    return json.dumps(value | extra)


def page_of(body: dict[str, Any]) -> str:
    """The printed label the enrich request is about (from its user message)."""
    content = body["messages"][-1]["content"]
    text = content if isinstance(content, str) else content[0]["text"]
    match = re.search(r"This is p\. (\S+) \(page", text)
    assert match, text
    return match.group(1)


def valid_replies(count: int, importance: int = 2) -> list[scripted.Reply]:
    return [
        scripted.respond(lambda body: scripted.text(page_json(page_of(body), importance)))
        for _ in range(count)
    ]


@pytest.fixture(scope="module")
def figure_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_figure_pdf(tmp_path_factory.mktemp("enrich") / "figures.pdf", LAYOUTS)


def library(
    pdf: Path, server: scripted.ScriptedServer, model: str = "openai/scripted", **chat: Any
) -> tuple[Services, Book]:
    settings = {"model": model, "api_base": server.base_url, "timeout": 10.0, "retry_backoff": 0.01} | chat
    services = Services.open(config=Config(chat=ChatConfig(**settings)))
    outcome = services.importer.import_file(pdf)
    assert outcome.book is not None, outcome.message
    return services, outcome.book


# --- the schema ------------------------------------------------------------------------------------


def test_a_valid_reply_parses_into_an_enrichment() -> None:
    enrichment = parse_enrichment("  \n" + page_json("7", 4) + "\n")
    assert enrichment.summary.startswith("Summary of page 7") and enrichment.sections == ("Section 7",)
    assert enrichment.visuals[0].type == "figure" and enrichment.visual_importance == 4
    assert "the lamp drawn on page 7" in enrichment.search_text


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ("", "the reply is empty"),
        ("Sure! " + page_json("1"), "not valid JSON"),
        ("```json\n" + page_json("1") + "\n```", "not valid JSON"),  # no guessed fix: fences stay an error
        (page_json("1")[:-20], "not valid JSON"),  # a partial object
        (page_json("1") + " {}", "not valid JSON"),  # trailing text
        ("[]", "$: expected object, got array"),
        (json.dumps({"summary": "x", "sections": [], "visuals": []}), '$: missing "visual_importance"'),
        (page_json("1", 7), "$.visual_importance: 7 is not between 1 and 5"),
        (page_json("1", importance=True), "$.visual_importance: expected integer, got boolean"),  # type: ignore[arg-type]
        (page_json("1", mood="calm"), '$: unexpected key "mood"'),
        (page_json("1", summary="  "), "$.summary: must not be empty"),
        (
            page_json("1", visuals=[{"type": "chart", "description": "d", "relevance": "maybe"}]),
            '$.visuals[0].relevance: "maybe" is not one of',
        ),
        (page_json("1", sections="One"), "$.sections: expected array, got string"),
        (page_json("1", full_text=None), "$.full_text: expected string, got null"),
    ],
)
def test_invalid_replies_say_what_is_wrong(raw: str, problem: str) -> None:
    with pytest.raises(EnrichmentInvalid, match=re.escape(problem)):
        parse_enrichment(raw)


def test_the_validator_reports_every_problem() -> None:
    value = {"summary": 3, "sections": ["a", 2], "visuals": [{"type": "x"}], "extra": 1}
    problems = validate(value, ENRICHMENT_SCHEMA)
    assert "$.summary: expected string, got integer" in problems
    assert "$.sections[1]: expected string, got integer" in problems
    assert '$.visuals[0]: missing "description"' in problems and '$: missing "visual_importance"' in problems
    assert '$: unexpected key "extra"' in problems


# --- the use case against the scripted model ------------------------------------------------------


def test_every_page_is_enriched_once_and_stored_with_version_hash_and_model(
    figure_pdf: Path, scripted_server: scripted.ScriptedServer
) -> None:
    services, book = library(figure_pdf, scripted_server)
    scripted_server.script_chat(*valid_replies(6, importance=5))
    progress: list[tuple[int, int]] = []
    outcome = services.enrich.enrich_book(book.id, progress=lambda d, t: progress.append((d, t)))
    assert (outcome.enriched, outcome.skipped, outcome.failures, outcome.total) == (6, 0, [], 6)
    assert progress[0] == (0, 6) and progress[-1] == (6, 6)
    requests = scripted_server.chat_requests()
    assert len(requests) == 6
    assert all(r["response_format"] == {"type": "json_object"} and "tools" not in r for r in requests)
    assert "Never mention or hint at anything that happens after it" in requests[0]["messages"][0]["content"]
    assert "lamp mechanism" in requests[1]["messages"][1]["content"]  # the page's text
    stored = services.enrichments.get(book.id, 2)
    assert stored is not None and stored.model == "openai/scripted"
    assert stored.schema_version == ENRICHMENT_SCHEMA_VERSION and len(stored.content_hash) == 64
    assert stored.enrichment.summary == "Summary of page 2: the keeper trims the wick."
    # the model's visual_importance replaces the measured one
    assert [p.visual_importance for p in services.books.pages(book.id)] == [5] * 6
    assert services.enrichments.status(book.id).done == 6
    services.close()


def test_a_rerun_skips_done_pages_and_a_new_model_redoes_them(
    figure_pdf: Path, scripted_server: scripted.ScriptedServer
) -> None:
    services, book = library(figure_pdf, scripted_server)
    scripted_server.script_chat(*valid_replies(6))
    services.enrich.enrich_book(book.id)
    again = services.enrich.enrich_book(book.id)
    assert (again.enriched, again.skipped) == (0, 6) and len(scripted_server.chat_requests()) == 6
    services.close()
    other, _ = library(figure_pdf, scripted_server, model="openai/another")
    scripted_server.script_chat(*valid_replies(2))
    redone = other.enrich.enrich_book(book.id, 2, 3)
    assert (redone.enriched, redone.skipped, redone.total) == (2, 0, 2)
    assert other.enrichments.get(book.id, 2).model == "openai/another"  # type: ignore[union-attr]
    other.close()


def test_invalid_and_partial_answers_are_logged_with_the_raw_output_and_not_retried(
    figure_pdf: Path, scripted_server: scripted.ScriptedServer
) -> None:
    services, book = library(figure_pdf, scripted_server)
    fenced = "```json\n" + page_json("2") + "\n```"
    partial = page_json("3")[:40]
    scripted_server.script_chat(
        scripted.text(page_json("1")),
        scripted.text(fenced),
        scripted.text(partial),
        scripted.text(page_json("4", 9)),
        scripted.text(page_json("5")),
        scripted.text(page_json("6")),
    )
    lines: list[Any] = []
    outcome = services.enrich.enrich_book(book.id, on_page=lines.append)
    assert outcome.enriched == 3 and [f.number for f in outcome.failures] == [2, 3, 4]
    assert len(scripted_server.chat_requests()) == 6  # one request per page: no silent retry
    failures = services.enrichments.failures(book.id)
    assert [(f.page, f.raw_output) for f in failures] == [(2, fenced), (3, partial), (4, page_json("4", 9))]
    assert failures[0].error.startswith("not valid JSON") and "between 1 and 5" in failures[2].error
    assert services.enrichments.get(book.id, 2) is None  # nothing guessed
    status = services.enrichments.status(book.id)
    assert (status.done, status.total, status.failed) == (3, 6, 3)
    assert [r.status for r in lines] == ["enriched", "failed", "failed", "failed", "enriched", "enriched"]
    # the next run asks again only for the pages that failed
    scripted_server.script_chat(*valid_replies(3))
    retry = services.enrich.enrich_book(book.id)
    assert (retry.enriched, retry.skipped) == (3, 3)
    assert services.enrichments.status(book.id).failed == 0
    services.close()


def test_an_interrupted_run_keeps_what_is_done_and_resumes(
    figure_pdf: Path, scripted_server: scripted.ScriptedServer
) -> None:
    services, book = library(figure_pdf, scripted_server)
    scripted_server.script_chat(*valid_replies(6))
    cancel = threading.Event()

    def stop_after_two(result: Any) -> None:
        if result.number == 2:
            cancel.set()

    with pytest.raises(TurnCancelled):
        services.enrich.enrich_book(book.id, on_page=stop_after_two, cancel=cancel)
    assert sorted(services.enrichments.keys(book.id)) == [1, 2]
    resumed = services.enrich.enrich_book(book.id)
    assert (resumed.enriched, resumed.skipped) == (4, 2)
    assert [page_of(r) for r in scripted_server.chat_requests()] == ["1", "2", "3", "4", "5", "6"]
    services.close()


def test_figure_pages_go_to_a_pdf_reading_model_as_the_page_itself(
    figure_pdf: Path, scripted_server: scripted.ScriptedServer
) -> None:
    services, book = library(figure_pdf, scripted_server, pdf_input="on")
    scripted_server.script_chat(*valid_replies(6))
    services.enrich.enrich_book(book.id)
    with_files = []
    for request in scripted_server.chat_requests():
        content = request["messages"][-1]["content"]
        if isinstance(content, list):
            (part,) = [p for p in content if p["type"] == "file"]
            assert part["file"]["file_data"].startswith("data:application/pdf;base64,")
            with_files.append(page_of(request))
    assert with_files == ["2", "4", "6"]  # the pages with an image or a drawing
    services.close()


def test_a_reindex_keeps_enrichments_of_unchanged_pages_only(
    figure_pdf: Path, scripted_server: scripted.ScriptedServer
) -> None:
    services, book = library(figure_pdf, scripted_server)
    scripted_server.script_chat(*valid_replies(6))
    services.enrich.enrich_book(book.id)
    assert services.importer.import_file(figure_pdf, force=True).status == "reindexed"
    assert sorted(services.enrichments.keys(book.id)) == [1, 2, 3, 4, 5, 6]
    # page 3's text changes: its enrichment goes, the others stay
    stored = services.books.get(book.id)
    assert stored is not None
    texts = [services.pages.page_text(stored, n).text for n in range(1, 7)]
    texts[2] = "A different third page."
    SqliteBookRepository(services.db.conn).replace(
        stored, 1, 2, services.books.pages(book.id), [], make_chunks(book.id, texts)
    )
    assert sorted(services.enrichments.keys(book.id)) == [1, 2, 4, 5, 6]
    services.close()


def test_without_a_model_enrich_says_how_to_configure_one(figure_pdf: Path) -> None:
    services = Services.open(config=Config())
    book = services.importer.import_file(figure_pdf).book
    assert book is not None
    from reader.domain.errors import ReaderError

    with pytest.raises(ReaderError, match=r"needs a chat model; set \[chat\] model"):
        services.enrich.enrich_book(book.id)
    services.close()


# --- the command line ------------------------------------------------------------------------------


def configure(home: Path, server: scripted.ScriptedServer) -> None:
    (home / "config.toml").write_text(
        f'[chat]\nmodel = "openai/scripted"\napi_base = "{server.base_url}"\ntimeout = 10.0\nretry_backoff = 0.01\n'
    )


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_enriches_a_range_reports_failures_and_hides_later_replies(
    figure_pdf: Path,
    scripted_server: scripted.ScriptedServer,
    isolated_env: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    configure(isolated_env, scripted_server)
    assert run(capsys, "import", str(figure_pdf))[0] == 0
    scripted_server.script_chat(scripted.text(page_json("2")), scripted.text("not json at all"))
    code, out, err = run(capsys, "enrich", "Figures", "--pages", "2-3")
    assert code == 1
    assert "Figures and Prose: enriched 1 of 2 pages (2-3) with openai/scripted (1 failed: p. 3)." in out
    assert "[2/2] p. 3 failed: not valid JSON" in err
    assert "--failures" in out
    # the failed page is past the reading position (page 1): its reply stays hidden
    code, out, _ = run(capsys, "enrich", "Figures", "--failures")
    assert code == 0 and "p. 3 (openai/scripted" in out and "not json at all" not in out
    assert "hidden: this page is past your reading position" in out
    run(capsys, "set-page", "Figures", "3")
    code, out, _ = run(capsys, "enrich", "Figures", "--failures", "--json")
    (line,) = [json.loads(x) for x in out.splitlines()]
    assert line["page"] == 3 and line["raw_output"] == "not json at all"
    # a second run only asks for what is missing; --json reports each page
    scripted_server.script_chat(*valid_replies(5))
    code, out, _ = run(capsys, "enrich", "Figures", "--json")
    records = [json.loads(x) for x in out.splitlines()]
    assert code == 0 and [r["page"] for r in records[:-1]] == [1, 3, 4, 5, 6]
    assert records[-1]["enriched"] == 5 and records[-1]["already_done"] == 1


def test_cli_ctrl_c_keeps_the_pages_done(
    figure_pdf: Path,
    scripted_server: scripted.ScriptedServer,
    isolated_env: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    configure(isolated_env, scripted_server)
    run(capsys, "import", str(figure_pdf))

    def interrupt(body: dict[str, Any]) -> scripted.Reply:
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl+C while the third page is with the model
        return scripted.delay(2.0, scripted.text(page_json("3")))

    scripted_server.script_chat(*valid_replies(2), scripted.respond(interrupt))
    code, _, err = run(capsys, "enrich", "Figures")
    assert code == 130 and "Interrupted after 2 of 6 pages; the pages done are kept" in err
    services = Services.open()
    book = services.find_book("Figures")
    assert sorted(services.enrichments.keys(book.id)) == [1, 2]
    services.close()


# --- enriched summaries in search and the chat ----------------------------------------------------


def unique_summaries(server: scripted.ScriptedServer, count: int) -> None:
    """Summaries that carry a word found nowhere in the pages: quillon<page>."""

    def reply(body: dict[str, Any]) -> scripted.Reply:
        page = page_of(body)
        return scripted.text(page_json(page, summary=f"The quillon{page} of the lamp turns on page {page}."))

    server.script_chat(*[scripted.respond(reply) for _ in range(count)])


def test_summaries_are_searchable_as_their_page_up_to_the_reading_position_only(
    figure_pdf: Path, scripted_server: scripted.ScriptedServer
) -> None:
    services, book = library(figure_pdf, scripted_server)
    unique_summaries(scripted_server, 6)
    services.enrich.enrich_book(book.id)
    search = services.search
    (hit,) = search.search(book.id, "quillon2", current_page=3).results
    assert (hit.start_page, hit.page_citation, hit.retrievers) == (2, "p. 2", ("summary",))
    assert hit.content.startswith("Page summary (made by openai/scripted, not the page's own words):")
    assert "quillon2" in hit.content
    # a later page's summary is never found before the reader gets there
    assert search.search(book.id, "quillon5", current_page=4).results == ()
    assert search.search(book.id, "quillon5", current_page=5).results[0].start_page == 5
    # page text and lexical hits are unchanged: the summary is not the page's text
    stored = services.books.get(book.id)
    assert stored is not None
    assert "quillon" not in services.pages.page_text(stored, 2).text
    mixed = search.search(book.id, "keeper quillon1", current_page=6, k=10).results
    assert {"summary"} < {r for hit in mixed for r in hit.retrievers}
    services.close()


def test_the_chat_sees_summaries_only_up_to_the_readers_page(
    figure_pdf: Path, scripted_server: scripted.ScriptedServer
) -> None:
    services, book = library(figure_pdf, scripted_server, tool_calling="on")
    unique_summaries(scripted_server, 6)
    services.enrich.enrich_book(book.id)
    services.books.set_current_page(book.id, 3)
    scripted_server.script_chat(
        scripted.tool_calls(
            scripted.call("search_book", {"query": "quillon1 quillon2 quillon3 quillon4 quillon6"})
        ),
        scripted.tool_calls(scripted.call("read_pages", {"start_page": "1", "end_page": "6"})),
        scripted.text("The quillon turns [p. 2]."),
    )
    list(services.chat.ask(book.id, "What turns?"))
    results = "\n".join(tool_messages(scripted_server.chat_requests()[6:]))
    assert all(f"The quillon{n} of the lamp" in results for n in (1, 2, 3))
    assert "The quillon4" not in results and "The quillon6" not in results
    assert "Stopped at p. 3" in results
    services.close()


def test_offline_recaps_are_made_of_the_enriched_summaries_up_to_the_readers_page(
    figure_pdf: Path, scripted_server: scripted.ScriptedServer
) -> None:
    services, book = library(figure_pdf, scripted_server)
    unique_summaries(scripted_server, 6)
    services.enrich.enrich_book(book.id)
    recap = services.summaries_for(offline=True).story_so_far(book.id, 4)
    assert "The quillon1 of the lamp turns on page 1. [p. 1]" in recap.text
    assert "quillon4" in recap.text and "quillon5" not in recap.text and "quillon6" not in recap.text
    # a page without a summary: the section falls back to sentences from the pages themselves
    services.db.conn.execute("DELETE FROM page_enrichments WHERE book_id = ? AND page = 3", (book.id,))
    partial = services.summaries_for(offline=True).story_so_far(book.id, 4)
    assert "quillon" not in partial.text and "[p. " in partial.text
    services.close()


def test_info_lists_figure_pages_and_enrichment(
    figure_pdf: Path,
    scripted_server: scripted.ScriptedServer,
    isolated_env: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    configure(isolated_env, scripted_server)
    run(capsys, "import", str(figure_pdf))
    code, out, _ = run(capsys, "info", "Figures")
    assert code == 0 and "figures   3 pages: pp. 2, 4, 6" in out and "enriched" not in out
    scripted_server.script_chat(scripted.text(page_json("1")), scripted.text("{"))
    run(capsys, "enrich", "Figures", "--pages", "1-2")
    code, out, _ = run(capsys, "info", "Figures", "--json")
    data = json.loads(out)
    assert data["figure_pages"] == ["2", "4", "6"]
    assert data["enriched"] == {"pages": 1, "of": 6, "failed": 1, "model": "openai/scripted"}
    code, out, _ = run(capsys, "info", "Figures")
    assert "enriched  1 of 6 pages with openai/scripted, 1 failed" in out
