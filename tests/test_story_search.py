"""Questions about a story: sentence-level ranking gathered to pages, frame words, a named chapter, name
aliases, k results, the spoiler horizon, the in-process embedding model and the offline answer."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from reader.app.chat.offline_strategy import answer_excerpt
from reader.app.search.passages import Matcher, WeightedTerm, rank_pages, term_pattern, weighted_terms
from reader.app.search.question_scope import name_aliases, named_chapter
from reader.app.search.verb_forms import other_forms
from reader.domain.knowledge import ConceptEntry
from reader.domain.models import Book, Chapter
from reader.domain.search import ScoredChunk
from reader.services import Services
from tests.fixtures_models import write_tiny_model

FILLER = (
    "The road ran on between the hedges and the fields lay quiet under a pale sky. ",
    "Rain came later in the day and the river rose along its muddy banks. ",
    "Nobody in the village spoke of the weather, for it was always the same. ",
)

STORY = [
    # chapter 1: pages 1-3
    "The Miller's Daughter. Anna lived with her father at the mill. " + FILLER[0] * 3,
    "Tom the shepherd came down from the hills each spring. " + FILLER[1] * 3 + "Anna baked bread.",
    "One morning Tom left the valley for the city. When Tom left, Anna wept by the mill-race all day. "
    + FILLER[2] * 2,
    # chapter 2: pages 4-6
    "The Long Winter. Snow closed the passes. " + FILLER[0] * 3 + "Anna counted the sacks of flour.",
    "The miller fell ill and Anna kept the wheel turning alone. " + FILLER[1] * 3,
    "Tom wrote a letter about the city and its lamps. " + FILLER[2] * 3 + "Anna read it twice.",
]


def write_story_pdf(path: Path, pages: Sequence[str], sections: Sequence[tuple[int, str]]) -> Path:
    """A PDF with one given text a page and outline entries (1-based page, title)."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_title("The Mill Stories")
    pdf.set_author("Test Author")
    pdf.set_font("Helvetica", size=11)
    starts = dict(sections)
    for number, text in enumerate(pages, 1):
        pdf.add_page()
        if number in starts:
            pdf.start_section(starts[number], level=0)
        pdf.multi_cell(0, 6, text)
    pdf.output(str(path))
    return path


@pytest.fixture
def story(tmp_path: Path) -> tuple[Services, Book]:
    services = Services.open(tmp_path / "library.db")
    path = write_story_pdf(tmp_path / "mill.pdf", STORY, [(1, "Chapter 1: The Mill"), (4, "Chapter 2: Winter")])
    outcome = services.importer.import_file(path)
    assert outcome.ok and outcome.book is not None
    services.books.set_current_page(outcome.book.id, len(STORY))
    book = services.books.get(outcome.book.id)
    assert book is not None
    return services, book


def first_answer(story: tuple[Services, Book], question: str) -> tuple[int, str]:
    """The page of the question's first result and the words its first answer span marks."""
    services, book = story
    first = services.search.search(book.id, question, 6, k=3, mode="lexical").results[0]
    (start, end), *_ = first.answer_spans
    return first.start_page, first.content[start:end]


def test_a_feeling_question_finds_the_sentence_that_shows_it(story: tuple[Services, Book]) -> None:
    page, answer = first_answer(story, "How did Anna feel when Tom left?")
    assert page == 3
    assert "Anna wept" in answer


def test_a_question_in_the_present_finds_the_irregular_past_on_the_page(story: tuple[Services, Book]) -> None:
    # the page says "wept"; only the verb tells page 3 from Anna's other pages
    page, answer = first_answer(story, "Why did Anna weep?")
    assert page == 3
    assert "wept" in answer


def test_an_irregular_verb_stands_for_its_other_forms_and_counts_once() -> None:
    assert other_forms("stole") == ("steal", "stolen")
    assert other_forms("Take") == ("took", "taken")
    assert other_forms("bear") == () and other_forms("mill") == ()  # a noun as often as a verb: left out
    terms = weighted_terms(["anna", "felt"], frozenset({"feel", "felt"}), 0.35, forms=other_forms)
    assert [(t.word, t.weight, t.group) for t in terms] == [("anna", 1.0, 0), ("felt", 0.35, 1), ("feel", 0.35, 1)]
    matcher = Matcher(terms)
    found = [i for _, _, i in matcher.found("Anna felt cold; she could feel it.")]
    assert found == [0, 1, 2]


def test_one_result_a_page_and_k_results_when_k_pages_match(story: tuple[Services, Book]) -> None:
    services, book = story
    response = services.search.search(book.id, "Anna", 6, k=5, mode="lexical")
    pages = [r.start_page for r in response.results]
    assert len(pages) == 5 and len(set(pages)) == 5
    every = services.search.search(book.id, "Anna", 6, k=50, mode="lexical")
    assert sorted(r.start_page for r in every.results) == [1, 2, 3, 4, 5, 6]
    few = services.search.search(book.id, "Tom", 2, k=5, mode="lexical")
    assert [r.start_page for r in few.results] == [2]


def test_nothing_past_the_reading_position_even_for_its_own_words(story: tuple[Services, Book]) -> None:
    services, book = story
    for page in range(1, 6):
        response = services.search.search(book.id, "Tom wrote a letter about the city lamps", page, k=5)
        assert all(r.end_page <= page for r in response.results)
        assert not any("lamps" in r.content for r in response.results)


def test_a_chapter_the_question_names_comes_first(story: tuple[Services, Book]) -> None:
    services, book = story
    plain = services.search.search(book.id, "What did Anna do?", 6, k=3, mode="lexical")
    named = services.search.search(book.id, "What did Anna do in chapter 1?", 6, k=3, mode="lexical")
    assert plain.results[0].start_page in (4, 5, 6)  # the reader's own chapter
    assert named.results[0].start_page in (1, 2, 3)


def test_named_chapter_by_number_roman_numeral_or_title() -> None:
    chapters = [Chapter(0, "Chapter I. The Mill", 1, 3), Chapter(1, "Chapter II. The Long Winter", 4, 6)]
    assert named_chapter("what happens in chapter 2?", chapters) == (4, 6)
    assert named_chapter("who is ill in Chapter II", chapters) == (4, 6)
    assert named_chapter("why is the long winter so hard?", chapters) == (4, 6)
    assert named_chapter("what happens at the mill?", chapters) is None
    assert named_chapter("in chapter 9", chapters) is None


def test_a_name_brings_the_other_names_of_the_same_person() -> None:
    entries = [
        ConceptEntry(1, "Prince Andrew", "person", 1, 9, 4, 20, ("Bolkonsky", "Andrei Bolkonsky")),
        ConceptEntry(2, "Natasha", "person", 2, 5, 3, 18),
    ]
    aliases = name_aliases("Why did Bolkonsky leave the ball?", entries)
    assert set(aliases["bolkonsky"]) == {"prince", "andrew", "andrei"}
    assert name_aliases("why did he leave the ball?", entries) == {}


def test_an_alias_counts_once_with_its_name() -> None:
    def chunk(page: int, text: str) -> ScoredChunk:
        return ScoredChunk(f"c{page}", "b", text, page, page, str(page), str(page), 1.0)

    pool = [chunk(1, "Andrew rode away. The horse was tired."), chunk(2, "Bolkonsky and Andrew rode away.")]
    terms = [WeightedTerm("bolkonsky", 1.0, 0), WeightedTerm("andrew", 0.8, 0), WeightedTerm("rode", 1.0, 1)]
    ranked = rank_pages(terms, pool, 2)
    assert {p.page for p in ranked} == {1, 2}
    by_page = {p.page: p.score for p in ranked}
    assert by_page[2] >= by_page[1]
    assert by_page[2] < 2 * by_page[1]  # the alias and the name do not add up


@pytest.mark.parametrize(
    ("word", "forms", "others"),
    [
        ("cried", ["cry", "cries", "crying", "cried"], ["crisp"]),
        ("feel", ["feels", "feeling"], ["feet"]),
        ("run", ["runs", "running"], ["rung"]),
        ("love", ["loves", "loved", "loving"], ["lovely"]),
        ("happy", ["happily", "happiness", "happier"], ["hap"]),
    ],
)
def test_term_forms(word: str, forms: list[str], others: list[str]) -> None:
    import re

    pattern = re.compile(term_pattern(word), re.IGNORECASE)
    assert all(pattern.fullmatch(f) for f in forms)
    assert not any(pattern.fullmatch(f) for f in others)


def test_the_offline_answer_bolds_the_sentences_that_answer() -> None:
    text = "Spring came. " * 30 + "When Tom left, Anna wept by the mill-race all day. " + "The wheel turned. " * 30
    start = text.index("When Tom")
    end = text.index("all day.") + len("all day.")
    excerpt = answer_excerpt(text, [(start, end)])
    assert "**When Tom left, Anna wept by the mill-race all day.**" in excerpt
    assert excerpt.startswith("…") and excerpt.endswith("…") and len(excerpt) < 450


@pytest.fixture
def tiny_model(tmp_path: Path) -> Path:
    """Words about sorrow share a direction; the rest point elsewhere."""
    vectors = {
        "sorrow": [1.0, 0.0, 0.0, 0.0],
        "sad": [0.95, 0.05, 0.0, 0.0],
        "wept": [0.9, 0.1, 0.0, 0.0],
        "snow": [0.0, 1.0, 0.0, 0.0],
        "letter": [0.0, 0.0, 1.0, 0.0],
        "bread": [0.0, 0.0, 0.0, 1.0],
    }
    return write_tiny_model(tmp_path / "tiny-model", vectors)


def test_hybrid_search_with_the_in_process_model(tmp_path: Path, tiny_model: Path) -> None:
    from reader.config import Config, EmbeddingsConfig

    config = Config(embeddings=EmbeddingsConfig(model=f"local:{tiny_model}"))
    services = Services.open(tmp_path / "library.db", config)
    outcome = services.importer.import_file(
        write_story_pdf(tmp_path / "mill.pdf", STORY, [(1, "Chapter 1"), (4, "Chapter 2")])
    )
    assert outcome.book is not None
    book_id = outcome.book.id
    embedded = services.embed_use_case.embed_book(book_id)
    assert embedded.space is not None and embedded.space.model == "local/tiny-model"
    assert embedded.space.dimension == 4
    response = services.search.search(book_id, "sorrow", 6, k=3, mode="hybrid")
    assert response.mode == "hybrid" and not response.warnings
    assert response.results[0].start_page == 3  # "wept": no word in common with the query
    assert "semantic" in response.results[0].retrievers
    early = services.search.search(book_id, "sorrow", 2, k=3, mode="hybrid")
    assert all(r.end_page <= 2 for r in early.results)


def test_cli_hybrid_search_does_not_load_litellm(tmp_path: Path, tiny_model: Path) -> None:
    import subprocess

    db = tmp_path / "library.db"
    config = tmp_path / "config.toml"
    config.write_text(f'[embeddings]\nmodel = "local:{tiny_model}"\n', encoding="utf-8")
    pdf = write_story_pdf(tmp_path / "mill.pdf", STORY, [(1, "Chapter 1"), (4, "Chapter 2")])
    env = {"READER_DB": str(db), "READER_CONFIG": str(config), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    run = [sys.executable, "-m", "reader.cli.main"]
    for args in (["import", str(pdf)], ["set-page", "mill", "6"], ["embed", "--all"]):
        done = subprocess.run([*run, *args], env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
    probe = (
        "import sys; from reader.cli.main import main; code = main(['search', 'mill', 'sorrow', '--mode', "
        "'hybrid', '--k', '2']); print('LITELLM' if 'litellm' in sys.modules else 'NO-LITELLM'); sys.exit(code)"
    )
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "(hybrid" in done.stdout and "p. 3" in done.stdout
    assert "NO-LITELLM" in done.stdout


def test_a_missing_model_folder_is_one_clear_line(tmp_path: Path) -> None:
    from reader.adapters.embeddings.local_onnx import LocalEmbeddingProvider
    from reader.domain.errors import EmbeddingError

    provider = LocalEmbeddingProvider(f"local:{tmp_path / 'nowhere'}", tmp_path / "cache")
    with pytest.raises(EmbeddingError, match="No model.onnx in .*nowhere"):
        provider.embed_query("anything")


def test_the_model_is_fetched_once_into_the_cache_with_progress(tmp_path: Path, tiny_model: Path) -> None:
    from reader.adapters.embeddings.local_onnx import fetch

    files = {name: (tiny_model / name).as_uri() for name in ("model.onnx", "tokenizer.json")}
    seen: list[tuple[str, int, int]] = []
    folder = fetch(tmp_path / "cache" / "model", files, lambda *step: seen.append(step))
    assert (folder / "model.onnx").read_bytes() == (tiny_model / "model.onnx").read_bytes()
    assert {name for name, _, _ in seen} == {"model.onnx", "tokenizer.json"}
    assert seen[-1][1] == (tiny_model / "tokenizer.json").stat().st_size
    seen.clear()
    fetch(folder, files, lambda *step: seen.append(step))
    assert seen == []  # already there: nothing fetched
    broken = {"extra.bin": (tmp_path / "missing.bin").as_uri()}
    from reader.domain.errors import EmbeddingError

    with pytest.raises(EmbeddingError, match="Could not fetch the embedding model file extra.bin"):
        fetch(folder, broken)
    assert not list(folder.glob("*.part"))


def test_hybrid_re_scores_the_lexical_pages_by_their_stored_vectors(tmp_path: Path, tiny_model: Path) -> None:
    from reader.config import Config, EmbeddingsConfig

    config = Config(embeddings=EmbeddingsConfig(model=f"local:{tiny_model}"))
    services = Services.open(tmp_path / "library.db", config)
    outcome = services.importer.import_file(
        write_story_pdf(tmp_path / "mill.pdf", STORY, [(1, "Chapter 1"), (4, "Chapter 2")])
    )
    assert outcome.book is not None
    book_id = outcome.book.id
    services.embed_use_case.embed_book(book_id)
    lexical = services.search.search(book_id, "Anna sorrow", 4, k=4, mode="lexical")
    hybrid = services.search.search(book_id, "Anna sorrow", 4, k=4, mode="hybrid")
    assert lexical.results[0].start_page == 4  # every page names Anna: the reader's own page first
    assert hybrid.mode == "hybrid" and hybrid.results[0].start_page == 3  # "Anna wept": closest to sorrow
    assert len(hybrid.results) == 4 and all(r.end_page <= 4 for r in hybrid.results)
    assert {r.start_page for r in hybrid.results} == {r.start_page for r in lexical.results}


def test_rerank_keeps_clear_lexical_winners_and_the_order_of_pages_it_was_not_given() -> None:
    from reader.app.search.passages import PagePassage
    from reader.app.search.search_books import rerank

    def passage(page: int, score: float) -> PagePassage:
        chunk = ScoredChunk(f"c{page}", "b", "text", page, page, str(page), str(page), score)
        return PagePassage(page, score, chunk, "text", (), (chunk.chunk_id,))

    pages = [passage(1, 10.0), passage(2, 9.0), passage(3, 4.0), passage(4, 3.0)]
    close = rerank(pages, {1: 0.1, 2: 0.6, 3: 0.9}, weight=0.3)
    assert [p.page for p in close] == [2, 1, 3, 4]  # 2 was close behind; 3 was far behind
    assert rerank(pages, {1: 0.5}, weight=0.3) == pages  # one closeness says nothing
