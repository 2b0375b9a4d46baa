"""The concept map: names, kinds and key terms of the sample novella, alias merging, storage at import."""

from __future__ import annotations

import re

import pytest

from reader.adapters.sqlite.concept_repository import SqliteConceptRepository
from reader.app.knowledge.concept_map import build_concept_map
from reader.app.knowledge.key_terms import page_words
from reader.app.knowledge.name_finder import find_names
from reader.app.knowledge.name_forms import nickname, same_word
from reader.app.text.sentences import split_sentences
from reader.cli.library_commands import import_sample
from reader.domain.knowledge import ExtractedConcept
from reader.services import SAMPLE_BOOK, Services

PEOPLE = {
    "Imogen Vale",
    "Edmund Halloran",
    "Gideon Thorne",
    "Tobias Wren",
    "Martha Pell",
    "Silas Crane",
    "Jonah Ashby",
}
PLACES = {
    "Gull Rock",
    "Tern Head",
    "Harrowmouth",
    "Kettlewick",
    "the Drowned Bell",
    "Merrow Cove",
    "the Teeth",
    "St. Elwyn's",
    "Morvoren Quay",
}


@pytest.fixture(scope="module")
def sample_map() -> dict[str, ExtractedConcept]:
    from reader.adapters.extractors.registry import extractor_for
    from reader.app.library.import_books import chapter_ranges

    extracted = extractor_for(SAMPLE_BOOK).extract(SAMPLE_BOOK)
    chapters = chapter_ranges(extracted.chapters, len(extracted.pages))
    headings: dict[int, list[str]] = {}
    for chapter in chapters:
        headings.setdefault(chapter.start_page, []).append(chapter.title)
    concepts = build_concept_map([p.text for p in extracted.pages], headings)
    return {c.name: c for c in concepts}


def test_the_novellas_people_and_places_are_found_with_their_kinds(sample_map) -> None:
    people = {name for name, c in sample_map.items() if c.kind == "person"}
    places = {name for name, c in sample_map.items() if c.kind == "place"}
    assert PEOPLE <= people
    assert PLACES <= places
    assert not people & places


def test_sentence_initial_words_and_common_words_are_not_names(sample_map) -> None:
    names = {alias.text.lower() for c in sample_map.values() for alias in c.aliases}
    for word in ("he", "the", "she", "and", "then", "young", "chapter", "god", "thursday", "i'm", "system"):
        assert word not in names


def test_aliases_are_merged_into_one_concept_with_their_first_pages(sample_map) -> None:
    thorne = sample_map["Gideon Thorne"]
    aliases = {a.text: a.first_page for a in thorne.aliases}
    assert {"Mr. Thorne", "Thorne", "Gideon"} <= set(aliases)
    assert aliases["Mr. Thorne"] == 3 and aliases["Gideon Thorne"] == 5 and thorne.first_page == 3
    ashby = {a.text for a in sample_map["Jonah Ashby"].aliases}
    assert {"Reverend Ashby", "the Reverend", "Jonah"} <= ashby
    wren = {a.text for a in sample_map["Tobias Wren"].aliases}
    assert {"Wren", "Mr. Wren", "Toby", "Toby Wren"} <= wren
    assert {a.text for a in sample_map["Martha Pell"].aliases} >= {"Martha"}
    # "Mrs. Pell" may be Martha or another Pell's wife: the title with a surname alone cannot say
    assert sample_map["Mrs. Pell"].kind == "person" and "Mrs. Pell" not in {
        a.text for a in sample_map["Martha Pell"].aliases
    }
    assert "Jack Pell" in sample_map and "Mrs. Pell" not in {a.text for a in sample_map["Jack Pell"].aliases}
    assert sample_map["Morvoren Quay"].first_page == 26


def test_mentions_count_each_run_once_per_page(sample_map) -> None:
    imogen = sample_map["Imogen Vale"]
    assert imogen.first_page == 1 and imogen.total > 50
    pages = [page for page, _ in imogen.mentions]
    assert pages == sorted(pages) and len(set(pages)) == len(pages)
    assert all(count > 0 for _, count in imogen.mentions)


def test_key_terms_by_tf_idf_skip_general_english(sample_map) -> None:
    terms = {name for name, c in sample_map.items() if c.kind == "term"}
    assert {"oil", "inquiry"} <= terms
    assert {a.text for a in sample_map["casks"].aliases} == {"casks", "cask"}
    assert not terms & {"said", "looked", "night", "door", "uncle", "page"}


def test_same_word_forgives_accents_case_and_possessives_only() -> None:
    assert same_word("Rostóv", "rostov") and same_word("Natásha's", "Natasha")
    assert not same_word("Russia", "Prussia") and not same_word("Rostóv", "Rostóva")
    assert not same_word("Vaska", "Vasíli") and not same_word("Pell", "Bell")
    assert nickname("Toby", "Tobias") and not nickname("Jack", "Martha")


def _grouped(counts: dict[str, int], threshold: int = 1) -> list[list[str]]:
    """Group made-up names the way the concept map does: each concept's names, sorted."""
    from reader.app.knowledge.concept_aliases import group_names
    from reader.app.knowledge.concept_map import core_tokens
    from reader.app.knowledge.name_finder import PERSON_TITLES, bare, is_title
    from reader.app.knowledge.name_forms import NameForm

    forms = {
        key: NameForm(
            core_tokens(tuple(key.split())),
            frozenset(PERSON_TITLES[bare(t).lower()] for t in key.split() if is_title(t)),
        )
        for key in counts
    }
    clusters = group_names({key: [key] * n for key, n in counts.items()}, forms, threshold)
    return [sorted(cluster.keys) for cluster in clusters]


def test_titles_carry_gender_and_ambiguous_surnames_stay_apart() -> None:
    grouped = _grouped(
        {
            "Elizabeth Bennet": 30,
            "Elizabeth": 50,
            "Jane Bennet": 10,
            "Mr. Bennet": 20,
            "Mrs. Bennet": 25,
            "Bennet": 5,
            "Bennets": 3,
            "Mr. Collins": 12,
            "Mrs. Collins": 4,
            "Collins": 6,
            "Miss Bingley": 8,
            "Charles Bingley": 5,
            "Mr. Bingley": 30,
        }
    )
    people = grouped
    assert ["Elizabeth", "Elizabeth Bennet"] in people and ["Jane Bennet"] in people
    assert ["Mr. Bennet"] in people and ["Mrs. Bennet"] in people  # two people, not one
    assert ["Bennet", "Bennets"] in people  # the family, never glued to one member
    assert ["Mr. Collins"] in people and ["Mrs. Collins"] in people and ["Collins"] in people
    assert ["Miss Bingley"] in people and not any("Miss Bingley" in n and "Mr. Bingley" in n for n in people)


def test_a_title_with_a_first_name_joins_the_one_person_and_nicknames_need_a_shared_surname() -> None:
    grouped = _grouped(
        {
            "Natásha Rostóva": 20,
            "Countess Natásha": 10,
            "Countess Rostóva": 15,
            "Count Ilyá Rostóv": 12,
            "Count Rostóv": 9,
            "Vaska Denísov": 10,
            "Vasíli Denísov": 3,
            "Prince Vasíli": 40,
            "Vasíli Kurágin": 5,
            "Russia": 30,
            "Prussia": 10,
        }
    )
    assert ["Countess Natásha", "Natásha Rostóva"] in grouped
    assert ["Count Ilyá Rostóv", "Count Rostóv"] in grouped
    assert ["Countess Rostóva"] in grouped  # the mother: a family title with the surname alone
    assert ["Vaska Denísov", "Vasíli Denísov"] in grouped  # short forms join only with the surname
    assert ["Prince Vasíli"] in grouped
    assert ["Russia"] in grouped and ["Prussia"] in grouped


def test_name_finder_marks_sentence_starts_and_titles() -> None:
    text = 'He met Mr. Thorne at Gull Rock. Thorne smiled. "Crane will take you," said Imogen Vale.'
    found = [(o.text, o.initial) for o in find_names(text, 1)]
    assert ("Mr. Thorne", False) in found and ("Gull Rock", False) in found
    assert ("Thorne", True) in found and ("Crane", True) in found and ("Imogen Vale", False) in found
    assert split_sentences(text) == [
        "He met Mr. Thorne at Gull Rock.",
        "Thorne smiled.",
        '"Crane will take you," said Imogen Vale.',
    ]


def test_import_stores_the_map_and_reads_stop_at_the_page() -> None:
    services = Services.open()
    book = import_sample(services)
    concepts = SqliteConceptRepository(services.db.conn)
    assert concepts.count(book.id) > 20
    at_four = {e.name: e for e in concepts.visible(book.id, 4)}
    assert "Morvoren Quay" not in at_four and "Gideon Thorne" not in at_four  # the full name comes on p. 5
    assert at_four["Mr. Thorne"].last_page <= 4 and "Gideon Thorne" not in at_four["Mr. Thorne"].aliases
    at_five = {e.name: e for e in concepts.visible(book.id, 5)}
    assert "Mr. Thorne" in at_five["Gideon Thorne"].aliases
    assert at_five["Gideon Thorne"].mentions > at_four["Mr. Thorne"].mentions
    late = {e.name for e in concepts.visible(book.id, 30)}
    assert "Morvoren Quay" in late


def test_reindex_rebuilds_the_map_and_a_failure_leaves_the_old_copy(monkeypatch) -> None:
    services = Services.open()
    book = import_sample(services)
    concepts = SqliteConceptRepository(services.db.conn)
    before = concepts.count(book.id)
    outcome = services.importer.import_file(SAMPLE_BOOK, force=True)
    assert outcome.status == "reindexed" and concepts.count(book.id) == before

    import reader.adapters.sqlite.book_repository as repository

    def broken(conn, book_id, found, *_ids) -> None:
        conn.execute(
            "INSERT INTO concepts (book_id, name, kind, first_page) VALUES (?, 'x', 'term', 1)", (book_id,)
        )
        raise RuntimeError("disk full")

    monkeypatch.setattr(repository, "write_concepts", broken)
    outcome = services.importer.import_file(SAMPLE_BOOK, force=True)
    assert outcome.status == "failed" and "disk full" in outcome.message
    assert concepts.count(book.id) == before
    assert services.books.get(book.id) is not None
    assert services.chunks.count(book.id) > 0


def test_a_book_imported_before_concept_maps_is_told_to_reindex(capsys: pytest.CaptureFixture[str]) -> None:
    from reader.cli.main import main

    services = Services.open()
    book = import_sample(services)
    services.db.conn.execute("DELETE FROM concepts WHERE book_id = ?", (book.id,))
    assert services.xray.has_map(book.id)  # imported with a map that happens to be empty
    assert main(["xray", "gull"]) == 0 and "Nobody and nothing recurring yet" in capsys.readouterr().out
    services.db.conn.execute("UPDATE books SET index_version = 1 WHERE id = ?", (book.id,))
    assert main(["xray", "gull"]) == 1
    assert "run `reader reindex`" in capsys.readouterr().err
    assert main(["reindex"]) == 0
    capsys.readouterr()
    assert main(["xray", "gull"]) == 0 and "Imogen Vale" in capsys.readouterr().out


def _novel_pages() -> list[str]:
    """A made-up novel in 12 pages whose names test the rules below, each name used often enough."""
    page = (
        "Count Dracula met Jonathan Harker at Castle Dracula. The Count smiled, and Dracula "
        "said nothing. Jonathan Harker wrote in his diary that night. "
        "Anna Pávlovna Schérer gave a party, and Anna Pávlovna greeted the guests herself. "
        "They found Hildesheim in his office. Hildesheim cleared the box at once, and the clerk went "
        "to Hildesheim again. Mary Ann Smith and Mary Ann Jones arrived; Mary Ann sat down.\n\n"
        "That evening Jonathan read from Harker's Journal, for a journal keeps what a journal must. "
        "They walked to Whitby and on to Whitby again.\n\n"
    )
    return [page + "Count de Ville was another name."] + [page] * 11


def test_titles_places_possessives_and_leading_names_follow_what_names_mean() -> None:
    concepts = {c.name: c for c in build_concept_map(_novel_pages())}
    names = {c.name: {a.text for a in c.aliases} for c in concepts.values()}
    dracula = next(c for c in concepts.values() if "Dracula" in {a.text for a in c.aliases})
    # "Castle Dracula" is a place and never makes the bare name ambiguous; "the Count" is the one
    # established count (Count de Ville is named once) and never the name shown
    assert {"Dracula", "Count Dracula", "the Count"} <= {a.text for a in dracula.aliases}
    assert dracula.kind == "person" and dracula.name != "the Count"
    assert concepts["Castle Dracula"].kind == "place"
    # a name that begins exactly one longer full name is that person; one beginning two names is neither
    assert {"Anna Pávlovna", "Anna Pávlovna Schérer"} <= next(a for a in names.values() if "Anna Pávlovna" in a)
    assert not any("Mary Ann" in a and ("Mary Ann Smith" in a or "Mary Ann Jones" in a) for a in names.values())
    # "Harker's Journal" names Harker's journal, not a person called that
    assert not any("Journal" in alias for aliases in names.values() for alias in aliases)
    # "to Hildesheim" is not enough to make a place of someone found "in his office" who acts
    assert concepts["Hildesheim"].kind == "person"
    assert concepts["Whitby"].kind == "place"


def test_appears_with_lists_people_places_and_named_terms_never_plain_words() -> None:
    services = Services.open()
    book = import_sample(services)
    entries = services.xray.entries(book.id, book.page_count)
    plain = {e.name for e in entries if e.kind == "term" and e.name.islower()}
    assert plain  # the sample has plain key terms, which could keep company in "appears with"
    for entry in entries:
        detail = services.xray.detail(book.id, entry, book.page_count)
        assert not plain & {other.name for other, _ in detail.related}, entry.name


def test_page_words_with_accented_names_and_words_match_a_plain_tokeniser() -> None:
    page = (
        "“Natásha!” cried Count Rostóv—and Natásha’s café au lait went cold. "
        "The calèche was late; it cost £5 and ½ a rouble. Élise said “à bientôt” to Pierre."
    )
    words = page_words(page)
    expected = re.findall(r"[\w'’\-]+", page)
    lower = [w.replace("\x01", "’") for w in words if "a" <= w[0] <= "z"]
    assert lower == [w for w in expected if "a" <= w[0] <= "z"]
    assert len(words) == len(expected)


def test_a_book_without_words_has_an_empty_concept_map() -> None:
    """Pictures-only books (comics) have pages with no text: the map is empty, not an error."""
    assert build_concept_map(["", "  ", ""], {}) == []
