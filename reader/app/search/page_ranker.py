"""The learned re-ranker: the lexical ranking's best pages re-ordered by a linear model over what each
page shows about the question.

The lexical score adds up a few parts with fixed weights; the re-ranker looks at more of what a page
holds (its best window and sentence, the words it shares with the question as written and in the
question's order, how rare its words are inside its own story rather than in the book, the cue words
of the kind of answer asked for) and weighs it all with weights fitted on the tuning half
(benchmarks/story_ranker.py) and kept as data beside this module (`page_ranker.json`). Features are
relative to the pages ranked together, so the same weights serve any book.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from reader.app.search.answer_cues import CUE_WORDS, QUESTION_KINDS
from reader.app.search.passages import Matcher, PagePassage, ScoreParts, WeightedTerm, stem

DEPTH = 20
"""Pages of the lexical ranking the re-ranker re-orders (the rest follow, in lexical order)."""
WEIGHTS_PATH = Path(__file__).with_name("page_ranker.json")
_NEAR = 20
"""Characters between two of the question's neighbouring words that still stand together ("the wheel broke")."""
_TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*|\d+")

FEATURES = (
    "lexical",
    "first",
    "reciprocal_rank",
    "window",
    "sentence",
    "on_page",
    "chapter",
    "bm25",
    "recent",
    "story_rarity",
    "top_story",
    "story_share",
    "in_order",
    "as_written",
    "window_as_written",
    "length",
    "opens_story",
    "closeness",
    "closeness_gap",
    *(f"cue_{kind}" for kind in QUESTION_KINDS),
)
"""The features of a page, in the order the weights are stored."""


@dataclass(frozen=True)
class Ranking:
    """What the re-ranker is given: the question, its weighted words and their rarity in the book, and
    the lexical ranking's pages with the chapter each is in and whether it opens that chapter."""

    question: str
    terms: tuple[WeightedTerm, ...]
    idf: tuple[float, ...]
    passages: tuple[PagePassage, ...]
    chapters: tuple[int, ...]
    opens: tuple[bool, ...]
    named: tuple[int, int] | None = None
    """The pages of a chapter the question names."""
    closeness: Mapping[int, float] = field(default_factory=dict)
    """page -> the question's cosine to the page's closest chunk (hybrid search; empty in lexical)."""


@cache
def learned_weights(kind: str = "lexical", path: Path = WEIGHTS_PATH) -> tuple[float, ...]:
    """The weights fitted for `kind` ("lexical" or "hybrid"), one a feature (empty when the file is
    missing, lacks them, or was fitted on other features)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ()
    weights = data.get("weights", {}).get(kind, ())
    if tuple(data.get("features", ())) != FEATURES or len(weights) != len(FEATURES):
        return ()
    return tuple(float(w) for w in weights)


def _kinds(question: str) -> list[str]:
    return [kind for kind, pattern in QUESTION_KINDS.items() if pattern.search(question)]


@cache
def _cue_stems() -> dict[str, frozenset[str]]:
    return {kind: frozenset(stem(w) for w in words) for kind, words in CUE_WORDS.items()}


def page_features(ranking: Ranking, depth: int = DEPTH) -> list[list[float]]:
    """One row of FEATURES for each of the ranking's first `depth` pages."""
    head = ranking.passages[:depth]
    if not head:
        return []
    terms, idf = ranking.terms, ranking.idf
    if len(idf) != len(terms):
        idf = tuple(1.0 for _ in terms)
    matcher = Matcher(terms)
    held = [
        set(p.parts.found) if p.parts is not None else {i for _, _, i in matcher.found(p.text)} for p in head
    ]
    chapters = ranking.chapters[: len(head)]
    # how many of a story's ranked pages hold each word: a word on every page of the story tells its
    # pages apart no better than a word it lacks
    story_pages: dict[int, int] = {}
    story_holders: dict[tuple[int, int], int] = {}
    for chapter, indices in zip(chapters, held, strict=True):
        story_pages[chapter] = story_pages.get(chapter, 0) + 1
        for i in indices:
            story_holders[(chapter, i)] = story_holders.get((chapter, i), 0) + 1
    top = head[0].score or 1.0
    story_score: dict[int, float] = {}
    for chapter, passage in zip(chapters, head, strict=True):
        story_score[chapter] = story_score.get(chapter, 0.0) + passage.score
    total = sum(story_score.values()) or 1.0
    words = [w.lower() for w in _TOKEN.findall(ranking.question)]
    content = {t.word for t in terms if t.weight >= 1.0}
    asked = [w for w in words if w in content]
    pairs = list(zip(asked, asked[1:], strict=False))
    distinct = sorted(set(asked), key=len, reverse=True)
    as_asked = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, distinct)) + r")(?!\w)", re.IGNORECASE)
    kinds = _kinds(ranking.question)
    cues = _cue_stems()
    cosines = [ranking.closeness[p.page] for p in head if p.page in ranking.closeness]
    low, high = (min(cosines), max(cosines)) if cosines else (0.0, 0.0)
    rows = []
    for rank, (passage, indices, chapter) in enumerate(zip(head, held, chapters, strict=True)):
        parts = passage.parts or ScoreParts(0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0)
        whole = parts.whole or 1.0
        n = story_pages[chapter]
        span = passage.spans[0] if passage.spans else (0, 0)
        rarity = 0.0
        if n > 1:
            local = {
                i: math.log((n + 1) / (story_holders[(chapter, i)] + 0.5)) / math.log((n + 1) / 1.5)
                for i in indices
            }
            rarity = sum(terms[i].weight * idf[i] * local[i] for i in indices) / whole
        # the question's words as it writes them, and its neighbouring words standing together
        where: dict[str, list[tuple[int, int]]] = {}
        for match in as_asked.finditer(passage.text) if distinct else ():
            where.setdefault(match.group().lower(), []).append(match.span())
        written = sum(1 for w in asked if w in where) / max(1, len(asked))
        ordered = 0.0
        if pairs:
            together = {
                (a, b)
                for a, b in pairs
                if any(0 < y[0] - x[1] <= _NEAR for x in where.get(a, ()) for y in where.get(b, ()))
            }
            ordered = len(together) / len(pairs)
        in_window = {w.lower() for w in _TOKEN.findall(passage.text[span[0] : span[1]])}
        window = {stem(w) for w in in_window}
        close = ranking.closeness.get(passage.page)
        closeness = (close - low) / (high - low) if close is not None and high > low else 0.0
        gap = close - high if close is not None else -1.0 if cosines else 0.0
        cue = {kind: 0.0 for kind in QUESTION_KINDS}
        for kind in kinds:
            cue[kind] = min(1.0, len(window & cues[kind]) / 2.0)
        row = [
            passage.score / top,
            1.0 if rank == 0 else 0.0,
            1.0 / (rank + 1),
            parts.window / whole,
            parts.sentence / whole,
            parts.on_page / whole,
            parts.chapter,
            parts.bm25,
            parts.boost - 1.0,
            rarity,
            1.0 if chapter == chapters[0] else 0.0,
            story_score[chapter] / total,
            ordered,
            written,
            sum(1 for w in asked if w in in_window) / max(1, len(asked)),
            math.log(1.0 + len(passage.text.split())) / 6.0,
            1.0 if ranking.opens[rank] else 0.0,
            closeness,
            gap,
            *(cue[kind] for kind in QUESTION_KINDS),
        ]
        rows.append(row)
    return rows


def learned_order(ranking: Ranking, weights: Sequence[float]) -> list[PagePassage]:
    """The ranking's pages with the first DEPTH re-ordered by the learned score (its exp, so that a
    page's score over the best's keeps its meaning); unchanged when there are no weights."""
    passages = list(ranking.passages)
    if not weights or len(passages) < 2:
        return passages
    head = passages[:DEPTH]
    scores = [sum(w * x for w, x in zip(weights, row, strict=True)) for row in page_features(ranking, DEPTH)]
    best = max(scores)
    rescored = [replace(p, score=math.exp(s - best)) for p, s in zip(head, scores, strict=True)]
    rescored.sort(key=lambda p: (-p.score, -p.page))
    floor = rescored[-1].score
    tail_top = passages[DEPTH].score if len(passages) > DEPTH else 1.0
    tail = [replace(p, score=floor * 0.5 * p.score / (tail_top or 1.0)) for p in passages[DEPTH:]]
    return rescored + tail
