"""The learned page re-ranker: its shipped weights, its features, and the order it gives real rankings."""

from __future__ import annotations

from pathlib import Path

from reader.app.search.page_ranker import FEATURES, Ranking, learned_order, learned_weights, page_features
from reader.app.search.passages import WeightedTerm, rank_pages
from reader.domain.search import ScoredChunk


def _ranking(question: str, words: list[str], pages: dict[int, str], chapters: dict[int, int]) -> Ranking:
    """A real lexical ranking of one-chunk pages (the reader at the last page)."""
    terms = [WeightedTerm(w, 1.0, i) for i, w in enumerate(words)]
    pool = [ScoredChunk(f"b-{n}", "b", text, n, n, str(n), str(n), 1.0) for n, text in pages.items()]
    last = max(pages)
    ranked = rank_pages(terms, pool, last, lambda page: chapters[page], depth=20)
    return Ranking(
        question,
        tuple(terms),
        tuple(1.0 for _ in terms),
        tuple(ranked),
        tuple(chapters[p.page] for p in ranked),
        tuple(chapters.get(p.page - 1) != chapters[p.page] for p in ranked),
    )


def _weights(**named: float) -> tuple[float, ...]:
    return tuple(named.get(name, 0.0) for name in FEATURES)


def test_the_shipped_weights_match_the_features() -> None:
    lexical = learned_weights("lexical")
    assert len(lexical) == len(FEATURES)
    assert lexical[FEATURES.index("closeness")] == 0.0  # lexical weights never need a model
    hybrid = learned_weights("hybrid")
    assert hybrid == () or len(hybrid) == len(FEATURES)


def test_weights_fitted_on_other_features_are_not_used(tmp_path: Path) -> None:
    stale = tmp_path / "weights.json"
    stale.write_text('{"features": ["lexical"], "weights": {"lexical": [1.0]}}', encoding="utf-8")
    assert learned_weights("lexical", stale) == ()
    assert learned_weights("lexical", tmp_path / "missing.json") == ()


def test_features_see_the_question_words_in_order_as_written_and_the_answer_cues() -> None:
    ranking = _ranking(
        "How did the miller feel when the wheel broke?",
        ["miller", "wheel", "broke"],
        {
            1: "The miller oiled the wheel. It never broke down in winter, the miller said.",
            2: "When the wheel broke, the miller wept with grief all night.",
            3: "Breaking bread, the millers watched a cart wheel roll by.",
        },
        {1: 0, 2: 0, 3: 0},
    )
    rows = {
        p.page: dict(zip(FEATURES, row, strict=True))
        for p, row in zip(ranking.passages, page_features(ranking), strict=True)
    }
    assert all(len(row) == len(FEATURES) for row in rows.values())
    assert rows[2]["in_order"] > rows[3]["in_order"]  # "wheel broke" stands together on page 2
    assert (
        rows[2]["as_written"] == 1.0 and rows[3]["as_written"] < 1.0
    )  # "millers", "breaking" are other forms
    assert rows[2]["cue_feel"] > 0.0 and rows[1]["cue_feel"] == 0.0  # "wept", "grief"
    assert all(row["cue_why"] == 0.0 for row in rows.values())  # not a why-question


def test_the_learned_order_lifts_the_page_the_features_favour_and_keeps_every_page() -> None:
    ranking = _ranking(
        "Why did the fox hide the key?",
        ["fox", "hide", "key"],
        {
            1: "The fox, the key, the hide of a deer: all lay in the hut. The fox slept.",
            2: "The fox ran. Later the fox found a key. He did hide it because the wolf wanted it.",
            3: "A key hung on the wall.",
        },
        {1: 0, 2: 0, 3: 1},
    )
    cue_only = learned_order(ranking, _weights(cue_why=5.0, lexical=1.0))
    assert cue_only[0].page == 2  # "because" beside the matched words
    assert sorted(p.page for p in cue_only) == sorted(p.page for p in ranking.passages)
    assert all(0.0 < p.score <= 1.0 for p in cue_only)
    assert learned_order(ranking, ()) == list(ranking.passages)  # no weights: the lexical order


def test_the_shipped_weights_keep_a_clear_lexical_winner() -> None:
    ranking = _ranking(
        "What did the giant give Jack for the golden harp?",
        ["giant", "give", "jack", "golden", "harp"],
        {
            1: "Jack met a giant. The giant would give Jack a golden harp for his cow, he said.",
            2: "Jack sang.",
            3: "The harp was golden.",
        },
        {1: 0, 2: 0, 3: 0},
    )
    assert learned_order(ranking, learned_weights("lexical"))[0].page == 1
