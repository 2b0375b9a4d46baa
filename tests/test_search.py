"""Lexical search on the sample novella: ranking, the spoiler horizon, awkward queries, typo correction."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader.app.search.search_terms import query_terms
from reader.cli.library_commands import import_sample
from reader.cli.main import main
from reader.domain.errors import ReaderError
from reader.domain.models import Book
from reader.services import Services

REVEAL = "Gideon Thorne killed Edmund Halloran"


@pytest.fixture
def library() -> tuple[Services, Book]:
    services = Services.open()
    book = import_sample(services)
    return services, book


def test_reveal_is_found_only_once_the_reader_reaches_it(library: tuple[Services, Book]) -> None:
    services, book = library
    at_end = services.search.search(book.id, REVEAL, current_page=book.page_count)
    assert at_end.mode == "lexical" and at_end.results
    assert REVEAL in at_end.results[0].content
    assert at_end.results[0].retrievers == ("lexical",)
    for page in (1, 10, 27):
        response = services.search.search(book.id, REVEAL, current_page=page)
        assert all(r.end_page <= page for r in response.results)
        assert not any(REVEAL in r.content for r in response.results)


def test_default_horizon_is_the_reading_position(library: tuple[Services, Book]) -> None:
    services, book = library
    services.books.set_current_page(book.id, 5)
    response = services.search.search(book.id, "Thorne")
    assert response.current_page == 5 and response.results
    assert max(r.end_page for r in response.results) <= 5


def test_results_are_ranked_and_carry_labels(library: tuple[Services, Book]) -> None:
    services, book = library
    response = services.search.search(book.id, "Silas Crane boat", current_page=30, k=3)
    assert len(response.results) == 3
    scores = [r.score for r in response.results]
    assert scores == sorted(scores, reverse=True)
    first = response.results[0]
    assert first.page_citation == f"p. {first.start_label}" and "Crane" in first.content


def test_a_phrase_from_the_reveal_page_does_not_leak_through_other_words(
    library: tuple[Services, Book],
) -> None:
    services, book = library
    letter = services.search.search(book.id, "Morvoren Quay", current_page=25)
    assert letter.results and not any("Morvoren" in r.content for r in letter.results)
    assert any("Morvoren" in r.content for r in services.search.search(book.id, "Morvoren Quay", 30).results)


@pytest.mark.parametrize(
    "query",
    [
        "",
        "   ",
        '"',
        '"unbalanced quote',
        "C++",
        "don't",
        "AND",
        "OR NOT NEAR",
        "*",
        "lamp*",
        "(",
        ")(",
        "title: x",
        "chunks_fts MATCH 'x'",
        "'; DROP TABLE chunks; --",
        "🦜🏝️ lighthouse 🦜",
        "ß café naïve",
        "x" * 10_000,
        "lamp " * 3000,
        "\x00\x01\t\n",
        "-lamp +oil ^keeper",
        "NEAR(lamp oil, 3)",
    ],
)
def test_arbitrary_text_never_errors(library: tuple[Services, Book], query: str) -> None:
    services, book = library
    for mode in ("auto", "lexical", "semantic", "hybrid"):
        response = services.search.search(book.id, query, current_page=12, mode=mode)
        assert all(r.end_page <= 12 for r in response.results)


def test_operators_are_searched_as_words(library: tuple[Services, Book]) -> None:
    services, book = library
    response = services.search.search(book.id, "lamp AND oil", current_page=30)
    assert response.results and any("oil" in r.content.lower() for r in response.results)


def test_a_misspelling_is_corrected_from_visible_words_and_said(library: tuple[Services, Book]) -> None:
    services, book = library
    response = services.search.search(book.id, "lighthuose", current_page=20)
    assert response.correction is not None and response.correction.lower() == "lighthouse"
    assert response.results and all(r.end_page <= 20 for r in response.results)


def test_correction_never_uses_a_word_first_met_later(library: tuple[Services, Book]) -> None:
    services, book = library
    # "Morvoren" first appears on p. 26; a near miss must not be corrected to it before then
    early = services.search.search(book.id, "Morvorn", current_page=20)
    assert early.correction is None and early.results == ()
    late = services.search.search(book.id, "Morvorn", current_page=30)
    assert late.correction == "Morvoren" and late.results


def test_without_a_model_semantic_modes_say_they_fell_back(library: tuple[Services, Book]) -> None:
    services, book = library
    for mode in ("semantic", "hybrid"):
        response = services.search.search(book.id, "lamp", current_page=10, mode=mode)
        assert response.mode == "lexical" and response.results
        assert any("embedding model" in w for w in response.warnings)
    assert services.search.search(book.id, "lamp", current_page=10).warnings == ()


def test_unknown_mode_and_book_are_one_line_errors(library: tuple[Services, Book]) -> None:
    services, book = library
    with pytest.raises(ReaderError, match="Unknown search mode"):
        services.search.search(book.id, "lamp", 10, mode="fuzzy")
    with pytest.raises(ReaderError, match="No book"):
        services.search.search("nope", "lamp", 10)


def test_page_zero_and_beyond_the_end_are_clamped(library: tuple[Services, Book]) -> None:
    services, book = library
    assert services.search.search(book.id, "lamp", current_page=0).results == ()
    beyond = services.search.search(book.id, REVEAL, current_page=10_000)
    assert beyond.current_page == book.page_count and beyond.results


def test_all_books_respect_each_books_own_horizon(tmp_path: Path, library: tuple[Services, Book]) -> None:
    services, book = library
    other = tmp_path / "other.md"
    other.write_text("# Another Tale\n\n" + "\n\n".join(f"Gideon Thorne page {i} " * 60 for i in range(6)))
    (outcome,) = services.importer.import_paths([other])
    assert outcome.ok and outcome.book is not None
    services.books.set_current_page(book.id, 3)
    found = services.search.search_all_books("Gideon Thorne", k=10)
    by_book = {b.id: (b, r) for b, r in found}
    assert book.id in by_book and len(by_book) == 2
    for b, response in found:
        assert all(r.end_page <= b.current_page for r in response.results)


def test_query_terms_drop_common_words_unless_nothing_else_is_left() -> None:
    assert query_terms("Who is the keeper of the light?") == ["keeper", "light"]
    assert query_terms("who is it") == ["who", "is", "it"]
    assert query_terms('C++ "x" AND *') == ["c", "x"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_search_command_prints_labelled_snippets(capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "demo", "--print")
    assert run(capsys, "set-page", "gull", "12")[0] == 0
    code, out, err = run(capsys, "search", "gull", "Silas Crane", "--k", "2")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("[p. ") and "(lexical, score" in lines[0]
    assert len([line for line in lines if line.startswith("[p. ")]) == 2


def test_search_command_json_has_full_text_and_pages(capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "demo", "--print")
    run(capsys, "set-page", "gull", "30")
    code, out, _ = run(capsys, "search", "gull", REVEAL, "--json", "--k", "3")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(rows) == 3
    assert set(rows[0]) >= {
        "chunk_id",
        "start_page",
        "end_page",
        "start_label",
        "end_label",
        "score",
        "mode",
        "text",
    }
    assert REVEAL in rows[0]["text"] and rows[0]["mode"] == "lexical"


def test_search_command_says_what_it_corrected_and_when_nothing_matches(
    capsys: pytest.CaptureFixture[str],
) -> None:
    run(capsys, "demo", "--print")
    run(capsys, "set-page", "gull", "20")
    code, out, err = run(capsys, "search", "gull", "lighthuose")
    assert code == 0 and "searched for 'lighthouse'" in err and out.startswith("[p. ")
    code, out, _ = run(capsys, "search", "gull", "whalebone")
    assert code == 0 and out.strip() == "No passages up to p. 20 (your reading position) match 'whalebone'."


def test_search_command_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "demo", "--print")
    code, _, err = run(capsys, "search", "nosuchbook", "lamp")
    assert code == 1 and len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "search", "lamp")
    assert code == 1 and "--all-books" in err
    code, _, err = run(capsys, "search", "gull", "lamp", "--k", "0")
    assert code == 1 and "--k" in err
    code, _, err = run(capsys, "embed", "gull")
    assert code == 1 and "[embeddings] model" in err and len(err.strip().splitlines()) == 1


def test_full_text_hits_drive_the_query_not_the_books_chunks(library: tuple[Services, Book]) -> None:
    """Each chunk is looked up by the hit's rowid. Were the book's visible chunks the outer loop (as SQLite
    chose with plain JOINs), the MATCH would run once per chunk: 1.8 s instead of 4 ms on a 1,017-page book."""
    from reader.adapters.sqlite.search_index import _LEXICAL, match_expression

    services, book = library
    pages = (book.id, book.page_count, 1)
    params = (match_expression(["old", "man", "sea"]), 1, 10**9, *pages, 5, *pages)
    plan = [row[3] for row in services.db.conn.execute(f"EXPLAIN QUERY PLAN {_LEXICAL}", params)]
    lookups = [step for step in plan if step.startswith("SEARCH c ") or step.startswith("SEARCH chunks ")]
    assert lookups and all("INTEGER PRIMARY KEY (rowid=?)" in step for step in lookups), plan
    assert services.search.search(book.id, "old man sea", book.page_count, 5, "lexical").results
