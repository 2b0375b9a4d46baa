"""What searches keep between them (SearchMemory): the concept map read in memory gives what the library
gives at every page, a new position reads the names met by then, and a new import or a rewritten
concept map is read again; searches give the same results with it as without it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from reader.adapters.extractors.registry import SUPPORTED_SUFFIXES, extractor_for
from reader.adapters.sqlite.concept_repository import SqliteConceptRepository
from reader.adapters.sqlite.migrations import INDEX_VERSION
from reader.adapters.sqlite.page_text_repository import SqlitePageTextStore
from reader.adapters.sqlite.search_index import SqliteSearchIndex
from reader.app.knowledge.concept_map import build_concept_map
from reader.app.library.import_books import ImportBooksUseCase
from reader.app.search.question_scope import asked_names, name_aliases
from reader.app.search.search_books import SearchBooksUseCase
from reader.app.search.search_memory import ConceptMap, SearchMemory
from reader.domain.models import Book
from reader.services import SAMPLE_BOOK, Services

QUESTIONS = (
    "Why did Thorne go to the tower?",
    "What did Imogen find in the Sealed Letter chapter?",
    "Where was Gideon Thorne at night?",
    "what happened at Gull Rock",
    "Who met Martha Pell?",
)


def _sample(services: Services, tmp_path: Path) -> Book:
    path = tmp_path / "gull-rock.md"
    path.write_bytes(SAMPLE_BOOK.read_bytes())
    outcome = services.importer.import_file(path)
    assert outcome.ok and outcome.book is not None
    return outcome.book


def _book(services: Services, book_id: str) -> Book:
    book = services.books.get(book_id)
    assert book is not None
    return book


def _thorne_names(entries: Any) -> set[str]:
    return {name for e in entries if "thorn" in e.name.lower() for name in (e.name, *e.aliases)}


def test_the_map_in_memory_reads_every_page_as_the_library_does(tmp_path: Path) -> None:
    services = Services.open(tmp_path / "library.db")
    book = _sample(services, tmp_path)
    concepts = SqliteConceptRepository(services.db.conn)
    held = ConceptMap(concepts.histories(book.id))
    assert len(held.histories) == concepts.count(book.id) > 20
    for page in range(0, book.page_count + 2):
        library = concepts.visible(book.id, page)
        assert held.visible(page) == library
        # only the concepts a word names, in the library's order, and every one whose names hold it
        named = held.visible(page, {"thorne", "pell"})
        assert named == [e for e in library if e in named]
        assert {e.id for e in library if "thorne" in " ".join((e.name, *e.aliases)).lower()} <= {e.id for e in named}
    assert held.visible(3, {"nobody-is-called-this"}) == []


def test_moving_the_position_reads_the_names_met_by_the_new_page(tmp_path: Path) -> None:
    services = Services.open(tmp_path / "library.db")
    book = _sample(services, tmp_path)
    concepts = SqliteConceptRepository(services.db.conn)
    memory = SearchMemory()
    words = asked_names("Where did Mr. Thorne go?")
    first = memory.concepts_at(book, 4, concepts, words)  # the first time: one query for the page
    assert list(first) == concepts.visible(book.id, 4)
    at_four = memory.concepts_at(book, 4, concepts, words)  # then the whole map, kept
    at_five = memory.concepts_at(book, 5, concepts, words)
    assert "Gideon Thorne" not in _thorne_names(at_four)  # his full name comes on p. 5
    assert "Gideon Thorne" in _thorne_names(at_five)
    assert "gideon" not in str(name_aliases("Where did Mr. Thorne go?", at_four))
    assert "gideon" in name_aliases("Where did Mr. Thorne go?", at_five)["thorne"]
    assert memory.concepts_at(book, 4, concepts, words) == at_four  # back again: nothing read twice wrong


def test_searches_give_the_same_results_with_the_memory_as_without(tmp_path: Path) -> None:
    services = Services.open(tmp_path / "library.db")
    book = _sample(services, tmp_path)
    shared = services.search  # one memory across pages and questions, as in the app
    for page in (3, 5, 9, 20, book.page_count):
        for question in QUESTIONS:
            kept = shared.search(book.id, question, page, k=5, mode="lexical")
            fresh = services.search
            fresh.memory = SearchMemory()
            assert kept == fresh.search(book.id, question, page, k=5, mode="lexical")
    assert services.search.memory is shared.memory  # every use case the services build shares it


class _Revised:
    """An extractor whose book reads differently (as a newer pipeline might): chapters retitled, a
    person renamed."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def extract(self, path: Path, **options: Any) -> Any:
        book = self.inner.extract(path, **options)
        pages = [replace(p, text=p.text.replace("Thorne", "Thornbury")) for p in book.pages]
        chapters = [replace(c, title=c.title.replace("Sealed Letter", "Opened Letter")) for c in book.chapters]
        return replace(book, pages=pages, chapters=chapters)


def test_a_new_import_of_the_book_is_read_again(tmp_path: Path) -> None:
    services = Services.open(tmp_path / "library.db")
    book = _sample(services, tmp_path)
    search = services.search
    question = "What did Thorne do in the Sealed Letter chapter?"
    for page in (30, 31):  # the chapters and the whole concept map are kept now
        search.search(book.id, question, page, k=3, mode="lexical")
    kept = search.memory.chapters(book, services.books)
    assert any("Sealed Letter" in c.title for c in kept.chapters)

    revised = ImportBooksUseCase(
        services.books, lambda path: _Revised(extractor_for(path)), INDEX_VERSION, SUPPORTED_SUFFIXES
    )
    outcome = revised.import_file(tmp_path / "gull-rock.md", force=True)
    assert outcome.status == "reindexed"
    again = _book(services, book.id)
    assert again.imported_at != book.imported_at
    chapters = search.memory.chapters(again, services.books)
    assert any("Opened Letter" in c.title for c in chapters.chapters)
    assert not any("Sealed Letter" in c.title for c in chapters.chapters)
    concepts = SqliteConceptRepository(services.db.conn)
    entries = search.memory.concepts_at(again, 31, concepts, {"thornbury", "thorne"})
    assert "Gideon Thornbury" in _thorne_names(entries) and "Gideon Thorne" not in _thorne_names(entries)
    fresh = SearchBooksUseCase(services.books, search.index, services.vectors, concepts=concepts)
    for question in ("Where was Thornbury at night?", "What happened in the Opened Letter chapter?"):
        assert search.search(book.id, question, 31, k=3) == fresh.search(book.id, question, 31, k=3)


def test_a_concept_map_written_again_without_an_import_is_read_again(tmp_path: Path) -> None:
    """OCR or a model's transcription rebuilds the map in place (PageTextIndex): same book, same import."""
    services = Services.open(tmp_path / "library.db")
    book = _sample(services, tmp_path)
    concepts = SqliteConceptRepository(services.db.conn)
    memory = SearchMemory()
    for page in (30, 31):
        memory.concepts_at(book, page, concepts, {"thorne"})
    before = concepts.revision(book.id)
    # the same concepts with one renamed: as many, on the same pages
    pages = [c.text for c in services.chunks.get_by_page_range(book.id, 1, book.page_count)]
    rebuilt = build_concept_map(pages, {})
    renamed = [replace(c, name=c.name.replace("Thorne", "Thorn")) for c in rebuilt]
    SqlitePageTextStore(services.db.conn).replace_concepts(book.id, renamed)
    assert concepts.revision(book.id) != before
    entries = memory.concepts_at(book, 31, concepts, {"thorn"})
    assert list(entries) == [e for e in concepts.visible(book.id, 31) if e in entries]
    assert concepts.visible(book.id, 31) == ConceptMap(concepts.histories(book.id)).visible(31)
    shown = {e.id for e in entries}
    assert shown and shown <= {e.id for e in concepts.visible(book.id, 31)}


def test_the_index_reads_again_once_the_library_changes(tmp_path: Path) -> None:
    """The full-text index keeps a page range's rowids and word counts between queries, until a write:
    here a page's text stored again (as OCR does), by another connection and by its own."""
    services = Services.open(tmp_path / "library.db")
    book = _sample(services, tmp_path)
    other = Services.open(tmp_path / "library.db")  # a second connection to the same file (another thread)
    index = services.search_index
    assert services.search.index is index  # one per thread, kept across searches
    page = book.page_count

    def pages_with(word: str) -> set[int]:
        response = services.search.search(book.id, f"where is the {word}", page, k=50, mode="lexical")
        return {r.start_page for r in response.results if word in r.content.lower()}

    assert pages_with("zeppelin") == set()
    before = index.term_counts(book.id, ["zeppelin", "thorne"], page)
    other.page_text_index.save(book.id, 2, "ocr", "A zeppelin hung over Gull Rock all night.")
    assert pages_with("zeppelin") == {2}
    after = index.term_counts(book.id, ["zeppelin", "thorne"], page)
    assert after != before and after == SqliteSearchIndex(services.db.conn).term_counts(book.id, ["zeppelin", "thorne"], page)
    assert after[1][0] == 1
    services.page_text_index.save(book.id, 3, "ocr", "A second zeppelin came at dawn.")
    assert pages_with("zeppelin") == {2, 3}
    assert index.term_counts(book.id, ["zeppelin"], page)[1] == [2]
