"""Pages ranked by where a question's words stand together: sentences scored, gathered to their page.

A chunk's bm25 counts words wherever they are in it; an answer is usually one or two sentences that
hold several of the question's words at once. Each candidate page's text (its chunks that matched) is
cut into sentences; a window of consecutive sentences scores the weighted words it holds (each word
once), and a page scores its best window, then a little for every other question word it holds, and
a little for the words its chapter holds (a story names its people on every page; the page that
answers may not), and a little for its best chunk's bm25. A word counts by its rarity in the book's
pages read so far (given by the caller; else among the candidates). The reader's own page and the
one before count a little more.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from reader.domain.search import ScoredChunk

_SENTENCE_END = re.compile(r"[.!?…]+[\"'”’)\]]*(?=\s)|\n\s*\n")


@dataclass(frozen=True)
class Weights:
    """How the parts of a page's score add up (tuned on FairytaleQA train anthologies)."""

    window: int = 2
    """Consecutive sentences a window holds."""
    page: float = 0.35
    """Per weighted word on the page outside its best window."""
    chapter: float = 0.25
    """Per weighted word the page's chapter holds among the candidates (normalised)."""
    bm25: float = 0.4
    """The best chunk's bm25 over the best page's."""
    recent: float = 0.3
    """Boost of the reader's own page, fading with distance (reader's page 1 + recent): readers ask
    most about what they have just read (FairytaleQA train, reader on the answer's page: R@1 0.77 ->
    0.88; ten pages on: 0.69 -> 0.68)."""
    recent_pages: float = 1.0
    """Pages over which the boost falls to 1/e."""


WEIGHTS = Weights()


@dataclass(frozen=True)
class WeightedTerm:
    """A search word with how much it counts (question words 1, frame words and alias names less)."""

    word: str
    weight: float
    group: int = -1
    """Terms with the same group (an alias and the name it stands for) count once, the best."""


@dataclass(frozen=True)
class ScoreParts:
    """What a page's lexical score is made of (each over the question's whole weight, `whole`)."""

    window: float
    """The best window's weighted words."""
    sentence: float
    """The best single sentence's weighted words."""
    on_page: float
    """The weighted words anywhere on the page."""
    chapter: float
    """The page's chapter's weighted words over the best chapter's (0..1)."""
    bm25: float
    """The page's best chunk's bm25 over the best chunk's (0..1)."""
    boost: float
    """The reader's-page boost (1 far from the reader's page)."""
    whole: float
    """All the question's weighted words."""
    found: frozenset[int] = frozenset()
    """The terms (indices) the page holds."""


@dataclass(frozen=True)
class PagePassage:
    """A page's score, its text that matched (its matching chunks, in order) with the sentences that
    answer inside it, and the chunk those sentences start in."""

    page: int
    score: float
    chunk: ScoredChunk
    text: str
    spans: tuple[tuple[int, int], ...]
    chunk_ids: tuple[str, ...] = ()
    """The page's chunks that matched."""
    parts: ScoreParts | None = None
    """How the lexical score was made (None for a passage made elsewhere)."""


def stem(word: str) -> str:
    """A light suffix strip, the same for questions and pages: "cried", "cries" and "crying" give "cri"
    or "cry"; "happy" gives "happi"; "running" gives "run"."""
    for suffix in ("ingly", "edly", "ness", "ing", "ies", "ied", "ed", "es", "ly", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            if suffix in ("ies", "ied"):
                return base + "i"
            doubled = len(base) > 3 and base[-1] == base[-2] and base[-1] not in "aeiouls"
            return base[:-1] if doubled and suffix in ("ing", "ed", "ingly", "edly") else base
    if len(word) > 3 and word[-1] in "ye":
        return word[:-1] + ("i" if word[-1] == "y" else "")
    return word


_Y_FORMS = "(?:y|ies|ied|ying|ier|iest|ily|iness|iful)"
_FORMS = "(?:{last}?(?:ing|ed|er|ers|est)|e|es|s|ed|d|er|ers|ly|ness|ful|ment|y)?"


def term_pattern(word: str) -> str:
    """A regex for a word's inflected forms: its light stem plus a common ending."""
    word = word.lower()
    base = stem(word)
    if not base.isalpha() or len(base) < 3:
        return re.escape(word) + r"(?:s|es)?"
    if base[-1] in "iy":
        return re.escape(base[:-1]) + _Y_FORMS
    return re.escape(base) + _FORMS.format(last=re.escape(base[-1]))


def sentence_bounds(text: str) -> list[int]:
    """Where each sentence after the first starts in `text`."""
    return [m.end() for m in _SENTENCE_END.finditer(text)]


def _scan_prefix(word: str) -> str:
    """What every form `term_pattern` accepts starts with ("cri" for "cried": "cry" starts with "cr")."""
    base = stem(word)
    if not base.isalpha() or len(base) < 3:
        return word
    return base[:-1] if base[-1] in "iy" else base


class Matcher:
    """Finds the terms' forms in text: one scan for any of them, then which term each form is."""

    def __init__(self, terms: Sequence[WeightedTerm]) -> None:
        self.forms = [re.compile(term_pattern(t.word), re.IGNORECASE) for t in terms]
        stems = sorted({_scan_prefix(t.word.lower()) for t in terms}, key=len, reverse=True)
        self.scan = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(x) for x in stems) + r")\w*", re.IGNORECASE)
        self.known: dict[str, int] = {}

    def term(self, form: str) -> int:
        """The index of the term `form` is a form of, or -1."""
        key = form.lower()
        found = self.known.get(key)
        if found is None:
            found = next((i for i, f in enumerate(self.forms) if f.fullmatch(key)), -1)
            self.known[key] = found
        return found

    def found(self, text: str) -> list[tuple[int, int, int]]:
        """(start, end, term index) of every match."""
        out = []
        for match in self.scan.finditer(text):
            index = self.term(match.group())
            if index >= 0:
                out.append((match.start(), match.end(), index))
        return out


def _value(found: Iterable[int], terms: Sequence[WeightedTerm], idf: Sequence[float]) -> float:
    """The weighted words in `found` (term indices), each group counted once at its best."""
    best: dict[int, float] = {}
    for index in set(found):
        term = terms[index]
        key = term.group if term.group >= 0 else -1 - index
        best[key] = max(best.get(key, 0.0), term.weight * idf[index])
    return sum(best.values())


@dataclass
class _Page:
    number: int
    chunks: list[ScoredChunk]
    text: str = ""
    starts: tuple[int, ...] = ()
    """Where each chunk starts in `text`."""
    found: tuple[tuple[int, int, int], ...] = ()


def rank_pages(
    terms: Sequence[WeightedTerm],
    pool: Sequence[ScoredChunk],
    current_page: int,
    chapter_of: Callable[[int], int] = lambda page: 0,
    weights: Weights = WEIGHTS,
    rarity: Sequence[float] = (),
    depth: int = 30,
) -> list[PagePassage]:
    """The best `depth` pages of `pool` (chunks that matched), best first, one passage each (pages that
    cannot reach the `depth`th score are not scored sentence by sentence)."""
    if not terms or not pool:
        return []
    pages: dict[int, _Page] = {}
    for chunk in sorted(pool, key=_reading_order):
        pages.setdefault(chunk.start_page, _Page(chunk.start_page, [])).chunks.append(chunk)
    matcher = Matcher(terms)
    holders: list[set[int]] = [set() for _ in terms]
    for page in pages.values():
        texts = [c.text for c in page.chunks]
        starts, offset = [], 0
        for text in texts:
            starts.append(offset)
            offset += len(text) + 2
        page.text = "\n\n".join(texts)
        page.starts = tuple(starts)
        page.found = tuple(matcher.found(page.text))
        for _, _, index in page.found:
            holders[index].add(page.number)
    count = len(pages)
    idf = [math.log(1.0 + (count - len(h) + 0.5) / (len(h) + 0.5)) for h in holders]
    if rarity:
        idf = list(rarity)
    chapters: dict[int, set[int]] = {}
    for page in pages.values():
        chapters.setdefault(chapter_of(page.number), set()).update(i for _, _, i in page.found)
    chapter_value = {c: _value(found, terms, idf) for c, found in chapters.items()}
    top_chapter = max(chapter_value.values(), default=0.0) or 1.0
    top_bm25 = max((c.score for c in pool), default=0.0) or 1.0
    whole = _value(range(len(terms)), terms, idf) or 1.0

    def bound(page: _Page) -> float:
        """The most the page can score: its best window holds every word the page holds."""
        score = _value((i for _, _, i in page.found), terms, idf)
        score += weights.chapter * whole * chapter_value[chapter_of(page.number)] / top_chapter
        score += weights.bm25 * whole * max(c.score for c in page.chunks) / top_bm25
        return score * boost(page.number)

    def boost(number: int) -> float:
        """More for the reader's page, fading over the pages before it."""
        return 1.0 + weights.recent * math.exp(-max(0, current_page - number) / weights.recent_pages)

    ranked: list[PagePassage] = []
    for ceiling, page in sorted(((bound(p), p) for p in pages.values()), key=lambda b: -b[0]):
        if len(ranked) >= depth and ceiling < ranked[depth - 1].score:
            break
        window, spans, sentence = _best_window(page, terms, idf, weights.window)
        on_page = _value((i for _, _, i in page.found), terms, idf)
        chapter_share = chapter_value[chapter_of(page.number)] / top_chapter
        bm25_share = max(c.score for c in page.chunks) / top_bm25
        score = window + weights.page * (on_page - window)
        score += weights.chapter * whole * chapter_share
        score += weights.bm25 * whole * bm25_share
        chunk = page.chunks[max(0, bisect.bisect_right(page.starts, spans[0]) - 1)]
        passage = PagePassage(
            page.number,
            score * boost(page.number),
            chunk,
            page.text,
            _trimmed(page.text, spans),
            tuple(c.chunk_id for c in page.chunks),
            ScoreParts(
                window,
                sentence,
                on_page,
                chapter_share,
                bm25_share,
                boost(page.number),
                whole,
                frozenset(i for _, _, i in page.found),
            ),
        )
        ranked.append(passage)
        ranked.sort(key=lambda p: (-p.score, -p.page))
    return ranked


def _best_window(
    page: _Page, terms: Sequence[WeightedTerm], idf: Sequence[float], size: int
) -> tuple[float, tuple[int, int], float]:
    """The best run of `size` sentences: its score and its (start, end) in the page's text; and the best
    single sentence's score."""
    bounds = [0, *sentence_bounds(page.text), len(page.text)]
    by_sentence: dict[int, list[int]] = {}
    for start, _, index in page.found:
        by_sentence.setdefault(bisect.bisect_right(bounds, start) - 1, []).append(index)
    best, where = 0.0, (0, min(len(page.text), bounds[1] if len(bounds) > 1 else len(page.text)))
    single = max((_value(found, terms, idf) for found in by_sentence.values()), default=0.0)
    for first in sorted(by_sentence):
        for low in range(max(0, first - size + 1), first + 1):
            found = [i for s in range(low, low + size) for i in by_sentence.get(s, ())]
            value = _value(found, terms, idf)
            if value > best:
                last = min(low + size, len(bounds) - 1)
                best, where = value, (bounds[low], bounds[last])
    return best, where, single


def _trimmed(text: str, span: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """The span without the white space at its ends (none when nothing is left)."""
    start, end = span
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return ((start, end),) if end > start else ()


def _reading_order(chunk: ScoredChunk) -> tuple[int, int, str]:
    """Page, then the chunk's number on it (ids end in their index: "…-12")."""
    tail = chunk.chunk_id.rsplit("-", 1)[-1]
    return chunk.start_page, int(tail) if tail.isdigit() else 0, chunk.chunk_id


def rarity(total: int, counts: Sequence[int]) -> list[float]:
    """Each term's inverse document frequency among `total` chunks (empty when there are none)."""
    if total <= 0:
        return []
    return [math.log(1.0 + (total - n + 0.5) / (n + 0.5)) for n in counts]


def weighted_terms(
    words: Sequence[str],
    frame_words: frozenset[str],
    frame_weight: float,
    aliases: Mapping[str, Sequence[str]] | None = None,
    alias_weight: float = 0.8,
    forms: Callable[[str], Sequence[str]] = lambda word: (),
) -> list[WeightedTerm]:
    """Question words (1), frame words (`frame_weight`), each word's other `forms` (as much as the word)
    and the other names of named people (`alias_weight`), a word's forms and names grouped with it."""
    out: list[WeightedTerm] = []
    seen: set[str] = set()
    for group, word in enumerate(words):
        if word in seen:
            continue
        seen.add(word)
        weight = frame_weight if word in frame_words else 1.0
        out.append(WeightedTerm(word, weight, group))
        for form in forms(word):
            if form not in seen:
                seen.add(form)
                out.append(WeightedTerm(form, weight, group))
        for alias in (aliases or {}).get(word, ()):
            if alias not in seen:
                seen.add(alias)
                out.append(WeightedTerm(alias, alias_weight, group))
    return out
