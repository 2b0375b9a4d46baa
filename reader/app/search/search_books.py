"""Search that never spoils: lexical (pages ranked by their sentences), semantic (KNN) and hybrid (the
best lexical pages re-scored by their stored vectors).

Every retriever filters by the reader's page inside its query; nothing here post-filters. By default
only the story's pages are searched: front and back matter (a publisher's header, a licence) only
with `matter=True`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from reader.app.search.page_ranker import DEPTH as LEARNED_DEPTH
from reader.app.search.page_ranker import Ranking, learned_order, learned_weights
from reader.app.search.passages import PagePassage, rank_pages, rarity, weighted_terms
from reader.app.search.question_frames import FRAME_WEIGHT, FRAME_WORDS
from reader.app.search.question_scope import QuestionScope, asked_names, names_someone, question_scope
from reader.app.search.search_memory import SearchMemory
from reader.app.search.search_terms import query_terms, replace_word
from reader.app.search.verb_forms import other_forms
from reader.domain.errors import EmbeddingError, ReaderError
from reader.domain.knowledge import ConceptEntry
from reader.domain.models import Book
from reader.domain.ports import BookRepository, ConceptRepository, EmbeddingProvider, SearchIndex, VectorStore
from reader.domain.search import EmbeddingSpace, ScoredChunk, SearchResult

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

MODES = ("auto", "lexical", "semantic", "hybrid")
HYBRID_BY_DEFAULT = False
"""Whether an installed in-process embedding model (`reader[semantic]`) turns hybrid search on with no
configuration. Off for now. With the learned re-ranker (page_ranker), hybrid with all-MiniLM-L6-v2
beats lexical on the FairytaleQA checking half at every position, narrowly (see
benchmarks/story_questions.py); turning it on changes what a default library loads and fetches, which
is left to its own change. Set [embeddings] model = "local" to use it."""
FUSION_WEIGHTS: Mapping[str, float] = {"lexical": 0.6, "summary": 0.6, "semantic": 0.25}
"""How much each retriever's normalised score counts in `fuse` (a retriever not listed: 0.5): page
summaries beside the lexical pages, and KNN pages when no question word matched (or KNN_IN_HYBRID).

The lexical retrievers (pages ranked by their sentences, and page summaries) weigh 12:5 against
semantic KNN gathered to pages. Tuned on FairytaleQA train anthologies (2 books, 1,496 questions,
MiniLM in-process; R@1/R@5 at the end of the book): semantic 0.4 0.660/0.901, 0.25 0.680/0.901,
0.15 0.679/0.898, lexical alone 0.660/0.890. (`fuse`'s SQuAD figures were measured with chunk-level
rankings and 0.4, before pages were ranked by sentences.)"""
RERANK_DEPTH = 20
"""Pages of the lexical ranking whose closeness to the question hybrid search reads from the stored vectors."""
SEMANTIC_WEIGHT = 0.3
"""How much a page's closeness to the question can raise its score in `rerank` (x1.3 at most), used only
when page_ranker.json holds no hybrid weights (the learned re-ranker weighs closeness itself).

FairytaleQA train (2 anthologies, 1,496 questions, MiniLM; R@1/R@5 on the answer's page / at the end
of the book): lexical 0.896/0.979 0.664/0.890; re-scored 0.15: 0.891/0.980 0.675/0.897, 0.3:
0.884/0.979 0.682/0.905, 0.5: 0.883/0.978 0.682/0.906; added (not multiplied) 0.3: 0.871/0.979
0.678/0.902; KNN fused as before: 0.872/0.977 0.676/0.903; re-scored and KNN fused: 0.858/0.978
0.661/0.902. Embedding each page's best two sentences at query time instead of reading the stored
chunk vectors (one anthology, the reader on the answer's page, 10 pages re-scored) gave 0.889/0.981
against 0.887/0.980, at many times the cost."""
KNN_IN_HYBRID = False
"""Whether hybrid search also fuses in the nearest chunks by vector (pages no question word matched);
off: it lowered R@1 (see SEMANTIC_WEIGHT). Hybrid still runs KNN when no question word matches."""
FUSION_POOL = 50
"""Candidates each retriever contributes to the fusion."""
LEXICAL_POOL = 120
"""Chunks the full-text index hands to sentence scoring (page recall in the pool: 0.99 on FairytaleQA)."""
MAX_K = 100


_EMBEDDER: ThreadPoolExecutor | None = None


def _embedder_thread() -> ThreadPoolExecutor:
    """The one worker thread that embeds queries beside the lexical ranking."""
    global _EMBEDDER
    if _EMBEDDER is None:
        from concurrent.futures import ThreadPoolExecutor  # loads when a query is first embedded

        _EMBEDDER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="query-embedder")
    return _EMBEDDER


@dataclass(frozen=True)
class SearchResponse:
    """Passages up to the reader's page, the mode that ran, and what the reader should know."""

    results: tuple[SearchResult, ...]
    mode: str
    warnings: tuple[str, ...] = ()
    correction: str | None = None
    """The corrected query that was searched instead, when the original found nothing."""
    current_page: int = 0


@dataclass
class _Plan:
    mode: str
    space: EmbeddingSpace | None = None
    warnings: list[str] = field(default_factory=list)


def _result(hit: ScoredChunk, score: float, retrievers: tuple[str, ...]) -> SearchResult:
    return SearchResult(
        chunk_id=hit.chunk_id,
        book_id=hit.book_id,
        content=hit.text,
        start_page=hit.start_page,
        end_page=hit.end_page,
        start_label=hit.start_label,
        end_label=hit.end_label,
        score=score,
        retrievers=retrievers,
    )


def _by_page(hits: Sequence[ScoredChunk], lexical: Mapping[int, ScoredChunk]) -> list[ScoredChunk]:
    """Each page's best hit, best first; a page the lexical ranking holds is represented by its passage
    (so that fusion adds the two retrievers' scores for the page)."""
    best: dict[int, ScoredChunk] = {}
    for hit in hits:
        if hit.start_page not in best or hit.score > best[hit.start_page].score:
            best[hit.start_page] = hit
    out = [replace(lexical[p], score=h.score) if p in lexical else h for p, h in best.items()]
    return sorted(out, key=lambda h: (-h.score, h.start_page))


def fuse(
    rankings: Mapping[str, Sequence[ScoredChunk]], k: int, weights: Mapping[str, float] = FUSION_WEIGHTS
) -> list[SearchResult]:
    """Convex combination of min-max normalised scores, the top `k` first.

    Each ranking's scores are rescaled to 0..1 over the candidates it returned (its best 1, its
    worst 0; a ranking whose scores are all equal gives each 1), and a chunk scores the weighted sum
    over the rankings that hold it (a ranking that misses it adds 0). Ties go to the earlier page.

    Why not reciprocal rank fusion: RRF throws the scores away, so a weak retriever's rank counts as
    much as a strong one's, and on SQuAD (24 dev articles as books, 5,397 questions, k=10, MiniLM)
    RRF (k=60) ranked worse than bm25 alone: R@1 0.783 vs 0.825, MRR 0.861 vs 0.883. Normalised
    scores keep how far ahead a retriever's best hit is, so a clear bm25 winner stays first while
    the embedder still lifts paraphrased passages. With weights lexical 0.6 / semantic 0.4 the same
    benchmark gives R@1 0.838, R@5 0.969, R@10 0.986, MRR 0.896 (gold paragraph: R@1 0.802,
    R@5 0.959, MRR 0.870), against bm25 0.825 / 0.959 / 0.977 / 0.883 (gold 0.787 / 0.945 / 0.855).
    The weight was tuned on the even-numbered articles and held on the odd ones (R@1 0.841 vs
    0.829, MRR 0.896 vs 0.884); any lexical weight from 0.5 to 0.7 scores within 0.005 of it.
    Weighted or small-constant RRF (constant 0-60, lexical weight 1-3) at best tied bm25 on R@1;
    z-score or divide-by-the-top normalisation scored about the same as min-max.
    """
    scores: dict[str, float] = {}
    hits: dict[str, ScoredChunk] = {}
    found_by: dict[str, list[str]] = {}
    for name, ranking in rankings.items():
        if not ranking:
            continue
        weight = weights.get(name, 0.5)
        high = max(hit.score for hit in ranking)
        low = min(hit.score for hit in ranking)
        for hit in ranking:
            share = (hit.score - low) / (high - low) if high > low else 1.0
            scores[hit.chunk_id] = scores.get(hit.chunk_id, 0.0) + weight * share
            hits.setdefault(hit.chunk_id, hit)
            found_by.setdefault(hit.chunk_id, []).append(name)
    order = sorted(scores, key=lambda cid: (-scores[cid], hits[cid].start_page, cid))
    return [_result(hits[cid], scores[cid], tuple(found_by[cid])) for cid in order[:k]]


def rerank(
    passages: Sequence[PagePassage], closeness: Mapping[int, float], weight: float = SEMANTIC_WEIGHT
) -> list[PagePassage]:
    """Pages re-scored by how close their text is to the question (`closeness`: page -> cosine): each
    page's lexical score over the best's, times 1 + `weight` times its closeness rescaled over the
    pages given (closest 1, farthest 0). The reader's-page boost and the lexical margins stay; a page
    with no closeness given keeps its lexical share and goes after those re-scored that beat it."""
    if len(closeness) < 2 or not passages:
        return list(passages)
    low, high = min(closeness.values()), max(closeness.values())
    top = max(p.score for p in passages) or 1.0

    def share(page: int) -> float:
        return (closeness[page] - low) / (high - low) if high > low else 1.0

    rescored = [
        replace(p, score=p.score / top * (1.0 + weight * share(p.page)) if p.page in closeness else p.score / top)
        for p in passages
    ]
    return sorted(rescored, key=lambda p: (-p.score, -p.page))


class SearchBooksUseCase:
    """Searches a book up to a page; `provider` (optional) embeds queries for semantic search."""

    def __init__(
        self,
        books: BookRepository,
        index: SearchIndex,
        vectors: VectorStore,
        provider: EmbeddingProvider | None = None,
        config_hint: str = "the config file",
        concepts: ConceptRepository | None = None,
        memory: SearchMemory | None = None,
    ) -> None:
        self.books = books
        self.index = index
        self.vectors = vectors
        self.provider = provider
        self.config_hint = config_hint
        self.concepts = concepts
        self.memory = memory or SearchMemory()
        """Chapters and concept maps kept between searches (the caller may share one between use cases)."""

    # --- public ----------------------------------------------------------------------------------

    def search(
        self,
        book_id: str,
        query: str,
        current_page: int | None = None,
        k: int = 5,
        mode: str = "auto",
        *,
        matter: bool = False,
    ) -> SearchResponse:
        """The top `k` passages for `query` that end on or before `current_page` (default: the reader's),
        from the story's pages only unless `matter` (then front and back matter too)."""
        if mode not in MODES:
            raise ReaderError(f"Unknown search mode '{mode}'; use one of: {', '.join(MODES)}.")
        book = self.books.get(book_id)
        if book is None:
            raise ReaderError(f"No book with id {book_id}; see `reader list`.")
        page = book.current_page if current_page is None else current_page
        page = max(0, min(int(page), book.page_count))
        k = max(1, min(int(k), MAX_K))
        plan = self._plan(book, mode)
        terms = query_terms(query)
        first, last = (1, page) if matter else (book.story_start, min(page, book.story_last))
        if not terms or last < first:
            return SearchResponse((), plan.mode, tuple(plan.warnings), None, page)
        semantic: list[ScoredChunk] | None = None
        vector: list[float] | None = None
        pending: Future[list[float] | None] | None = None
        if plan.mode in ("semantic", "hybrid") and plan.space is not None:
            # the query is embedded while the lexical ranking runs (the model releases the GIL)
            pending = _embedder_thread().submit(self._query_vector, book_id, plan, query)
        correction = None
        ranking: Ranking | None = None
        summaries: list[ScoredChunk] = []
        if plan.mode != "semantic":
            ranking, summaries, correction = self._lexical_or_corrected(book, query, terms, page, first, last, k)
        vector = pending.result() if pending is not None else None
        if vector is not None and plan.space is not None and (plan.mode == "semantic" or KNN_IN_HYBRID):
            semantic = self.index.semantic(book_id, plan.space, vector, last, FUSION_POOL, first)
        if vector is None and plan.mode == "semantic":
            ranking, summaries, correction = self._lexical_or_corrected(book, query, terms, page, first, last, k)
        if vector is None and plan.mode in ("semantic", "hybrid"):
            plan.mode = "lexical"
        if plan.mode == "hybrid" and vector is not None and plan.space is not None:
            if ranking is not None and ranking.passages:
                ranking = replace(ranking, closeness=self._closeness(ranking.passages, plan.space, vector))
            elif semantic is None:  # no question word on the pages: the nearest chunks alone
                semantic = self.index.semantic(book_id, plan.space, vector, last, FUSION_POOL, first)
        passages = self._ordered(ranking) if ranking is not None else []
        spans = {p.chunk.chunk_id: p.spans for p in passages}
        lexical = [replace(p.chunk, text=p.text, score=p.score) for p in passages]
        semantic_pages = _by_page(semantic or [], {c.start_page: c for c in lexical})
        if plan.mode == "lexical" and not summaries:
            results = [_result(hit, hit.score, ("lexical",)) for hit in lexical]
        elif plan.mode == "lexical":
            results = fuse({"lexical": lexical, "summary": summaries}, k)
        elif plan.mode == "semantic":
            results = [_result(hit, hit.score, ("semantic",)) for hit in semantic_pages]
        elif not semantic_pages and not summaries:
            results = [_result(hit, hit.score, ("lexical", "semantic")) for hit in lexical]
        elif not lexical and not summaries:
            results = [_result(hit, hit.score, ("semantic",)) for hit in semantic_pages]
        else:
            rankings: dict[str, Sequence[ScoredChunk]] = {"lexical": lexical, "semantic": semantic_pages}
            if summaries:
                rankings["summary"] = summaries
            results = fuse(rankings, k)
        results = [replace(r, answer_spans=spans.get(r.chunk_id, ())) for r in results[:k]]
        return SearchResponse(tuple(results[:k]), plan.mode, tuple(plan.warnings), correction, page)

    def search_all_books(
        self, query: str, k: int = 5, mode: str = "auto", *, matter: bool = False
    ) -> list[tuple[Book, SearchResponse]]:
        """Every book searched up to its own reading position (its story only unless `matter`); books
        without results are left out."""
        found = []
        for book in self.books.list():
            if book.current_page < 1:
                continue
            response = self.search(book.id, query, book.current_page, k, mode, matter=matter)
            if response.results or response.warnings:
                found.append((book, response))
        return found

    # --- parts -----------------------------------------------------------------------------------

    def _plan(self, book: Book, mode: str) -> _Plan:
        """Which retrievers can run for this book, and why not when one cannot."""
        if mode == "lexical":
            return _Plan("lexical")
        wants_vectors = mode in ("semantic", "hybrid")
        if self.provider is None:
            plan = _Plan("lexical")
            if wants_vectors:
                plan.warnings.append(
                    f"{mode.capitalize()} search needs an embedding model ([embeddings] model in "
                    f"{self.config_hint}); showing lexical results."
                )
            return plan
        held = self.vectors.book_vectors(book.id)
        mine = [v for v in held if v.space.model == self.provider.name]
        if not mine:
            plan = _Plan("lexical")
            others = sorted({v.space.model for v in held})
            if others:
                plan.warnings.append(
                    f"'{book.title}' was embedded with {', '.join(others)}, not {self.provider.name}; run "
                    f"`reader embed {book.id[:8]}` to re-embed it. Showing lexical results."
                )
            elif wants_vectors:
                plan.warnings.append(
                    f"'{book.title}' has no embeddings yet; run `reader embed {book.id[:8]}`. "
                    "Showing lexical results."
                )
            return plan
        best = mine[0]
        if not best.complete:
            note = (
                f"'{book.title}' is only partly embedded ({best.count} of {best.total} passages); "
                f"run `reader embed {book.id[:8]}` to finish."
            )
            if not wants_vectors:
                return _Plan("lexical", warnings=[note + " Showing lexical results."])
            return _Plan(mode, best.space, [note])
        return _Plan("hybrid" if mode == "auto" else mode, best.space)

    def _lexical_or_corrected(
        self, book: Book, query: str, terms: list[str], page: int, first: int, last: int, k: int
    ) -> tuple[Ranking, list[ScoredChunk], str | None]:
        """The lexical ranking; when nothing matches, that of the query with misspelt words corrected
        (and the corrected query)."""
        scope = self._scope(book, query, page)
        ranking, summaries = self._lexical(book.id, query, terms, scope, first, last, k)
        if ranking.passages or summaries:
            return ranking, summaries, None
        corrected = self._correct(book.id, query, terms, first, last)
        if corrected is None:
            return ranking, summaries, None
        correction, corrected_terms = corrected
        ranking, summaries = self._lexical(book.id, correction, corrected_terms, scope, first, last, k)
        return ranking, summaries, correction

    def _scope(self, book: Book, query: str, page: int) -> QuestionScope:
        """What the book knows that bears on the question: its chapters and its people's other names."""
        chapters = self.memory.chapters(book, self.books)
        entries: Sequence[ConceptEntry] = ()
        if names_someone(query) and self.concepts is not None:
            entries = self.memory.concepts_at(book, page, self.concepts, asked_names(query))
        return question_scope(query, chapters.chapters, entries, chapters.chapter_of)

    def _lexical(
        self, book_id: str, query: str, terms: list[str], scope: QuestionScope, first: int, last: int, k: int
    ) -> tuple[Ranking, list[ScoredChunk]]:
        """Pages ranked by their best sentences among the chunks the full-text index finds (with what
        the re-ranker needs to know of them), and the pages' summaries that match."""
        weighted = weighted_terms(terms, FRAME_WORDS, FRAME_WEIGHT, scope.aliases, forms=other_forms)
        words = [t.word for t in weighted]
        pool = self.index.lexical(book_id, words, last, max(LEXICAL_POOL, 4 * k), first)
        total, counts = self.index.term_counts(book_id, words, last, first) if pool else (0, [])
        summaries = self.index.summaries(book_id, terms, last, FUSION_POOL, first)
        # pages scored sentence by sentence: what fusion or a named chapter's boost may lift into the
        # top k, else only what the answer and the hybrid re-scoring use
        depth = max(FUSION_POOL if summaries or scope.named else max(RERANK_DEPTH, LEARNED_DEPTH), k)
        idf = rarity(total, counts)
        ranked = rank_pages(weighted, pool, last, scope.chapter_of, rarity=idf, depth=depth)
        chapter_of = scope.chapter_of
        ranking = Ranking(
            query,
            tuple(weighted),
            tuple(idf),
            tuple(ranked),
            tuple(chapter_of(p.page) for p in ranked),
            tuple(chapter_of(p.page - 1) != chapter_of(p.page) for p in ranked),
            scope.named,
        )
        return ranking, summaries

    def _ordered(self, ranking: Ranking) -> list[PagePassage]:
        """The lexical ranking's best pages re-ordered by the learned re-ranker (with the pages'
        closeness to the question in hybrid search); the pages of a chapter the question names first."""
        if ranking.closeness and learned_weights("hybrid"):
            ranked = learned_order(ranking, learned_weights("hybrid"))
        else:
            ranked = learned_order(ranking, learned_weights("lexical"))
            if ranking.closeness:
                ranked = rerank(ranked, ranking.closeness, SEMANTIC_WEIGHT)
        named = ranking.named
        if named is not None:  # the reader said where to look: that chapter's pages first
            outside = [p for p in ranked if not named[0] <= p.page <= named[1]]
            lift = max((p.score for p in outside), default=0.0)
            inside = [replace(p, score=p.score + lift) for p in ranked if named[0] <= p.page <= named[1]]
            ranked = inside + outside
        return ranked

    def _closeness(
        self, passages: Sequence[PagePassage], space: EmbeddingSpace, vector: list[float]
    ) -> dict[int, float]:
        """The cosine of the question to the closest of each best page's matching chunks (stored vectors)."""
        head = passages[: max(RERANK_DEPTH, LEARNED_DEPTH)]
        similar = self.index.similarities(space, vector, [c for p in head for c in p.chunk_ids])
        closest = {p.page: max((similar[c] for c in p.chunk_ids if c in similar), default=None) for p in head}
        return {page: v for page, v in closest.items() if v is not None}

    def _query_vector(self, book_id: str, plan: _Plan, query: str) -> list[float] | None:
        """The query's vector, or None (with a warning) when the query cannot be embedded."""
        assert self.provider is not None and plan.space is not None
        try:
            vector = self.provider.embed_query(query[:8000])
        except EmbeddingError as error:
            plan.warnings.append(f"Semantic search failed: {error} Showing lexical results.")
            return None
        if len(vector) != plan.space.dimension:
            plan.warnings.append(
                f"{self.provider.name} now returns {len(vector)}-dimensional vectors, but the book was "
                f"embedded with {plan.space.dimension}; run `reader embed {book_id[:8]}`. Showing lexical results."
            )
            return None
        return vector

    def _correct(
        self, book_id: str, query: str, terms: list[str], first: int, last: int
    ) -> tuple[str, list[str]] | None:
        """Terms not in the searched text (pages first..last) replaced by the closest word in it, if any."""
        missing = [t for t in terms if not self.index.visible_forms(book_id, t, last, 1, first_page=first)]
        if not missing:
            return None
        from rapidfuzz import fuzz, process

        shortest = min(len(t) for t in missing)
        longest = max(len(t) for t in missing)
        vocabulary = [term for term, _ in self.index.vocabulary(max(2, shortest - 3), longest + 2)]
        corrected_terms = list(terms)
        corrected_query = query
        changed = False
        for term in missing:
            if len(term) < 3 or term.isdigit():
                continue
            cutoff = 80.0 if len(term) <= 5 else 75.0
            candidates = process.extract(term, vocabulary, scorer=fuzz.ratio, score_cutoff=cutoff, limit=8)
            for candidate, _score, _ in candidates:
                forms = self.index.visible_forms(book_id, candidate, last, 5, prefix=True, first_page=first)
                if forms:
                    form = min(forms, key=lambda f: (-fuzz.ratio(term, f.lower()), f != f.lower(), f))
                    corrected_terms[corrected_terms.index(term)] = form.lower()
                    corrected_query = replace_word(corrected_query, term, form)
                    changed = True
                    break
        return (corrected_query, corrected_terms) if changed else None
