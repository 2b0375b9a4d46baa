"""X-Ray: the people, places and terms of a book as far as the reader has read, and lookups of one."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rapidfuzz import fuzz, process, utils

from reader.app.knowledge.refined_map import RefinedMap, apply_refinements, merged_mentions, merged_shared
from reader.app.pages.page_lookup import page_label
from reader.app.text.sentences import split_sentences
from reader.domain.concept_refinement import ChapterRefinement
from reader.domain.knowledge import KINDS, ConceptDetail, ConceptEntry, ConceptSnippet
from reader.domain.models import Page, join_chunks
from reader.domain.ports import BookRepository, ChunkRepository, ConceptRepository

MATCH_CUTOFF = 80
"""rapidfuzz token_set_ratio from which a typed name matches a concept's name."""

CONCEPT_MAPS_SINCE = 2
"""The index version (see the import pipeline) from which every import builds a concept map."""

SNIPPET_CHARS = 220
SNIPPETS = 3
RELATED = 5

NO_MAP = (
    "{title} has no concept map yet (it was imported before X-Ray existed); "
    "run `reader reindex` to build one."
)

RefinementSource = Callable[[str, int], Sequence[ChapterRefinement]]
"""(book_id, page) -> the model's stored chapter refinements read up to that page (see refine_concepts)."""


def shorten_around(sentence: str, name: str, limit: int = SNIPPET_CHARS) -> str:
    """`sentence` cut to about `limit` characters around the first mention of `name`."""
    if len(sentence) <= limit:
        return sentence
    at = max(0, sentence.find(name))
    start = max(0, min(at - limit // 3, len(sentence) - limit))
    if start:
        start = sentence.find(" ", start) + 1
    end = start + limit
    if end < len(sentence):
        end = sentence.rfind(" ", start, end)
    piece = sentence[start:end].strip()
    return ("…" if start else "") + piece + ("…" if end < len(sentence) else "")


def mention_pattern(names: Sequence[str], kind: str) -> re.Pattern[str]:
    """A regex finding any of `names` as whole words (terms in any case, names as written)."""
    words = sorted({n.removeprefix("the ") for n in names if n}, key=len, reverse=True)
    alternatives = "|".join(re.escape(w).replace(r"'s", r"(?:'s|’s)?") for w in words) or "(?!)"
    flags = re.IGNORECASE if kind == "term" else 0
    return re.compile(rf"(?<![\w'’])(?:{alternatives})(?![\w])", flags)


def _normalise(name: str) -> str:
    """Lower-cased words without punctuation or a leading "the" (for fuzzy matching)."""
    return utils.default_process(name).removeprefix("the ")


class XRayUseCase:
    """Concepts of a book up to a page: lists, fuzzy lookups, mentions, co-occurrences and snippets."""

    def __init__(
        self,
        books: BookRepository,
        chunks: ChunkRepository,
        concepts: ConceptRepository,
        refinements: RefinementSource | None = None,
    ) -> None:
        self.books = books
        self.chunks = chunks
        self.concepts = concepts
        self.refinements = refinements
        """The chat model's refinements to apply on top of the map (None: the map as built)."""

    def has_map(self, book_id: str) -> bool:
        """Whether the book was imported with a concept map (possibly an empty one)."""
        return (
            self.concepts.count(book_id) > 0 or (self.books.index_version(book_id) or 0) >= CONCEPT_MAPS_SINCE
        )

    def view(self, book_id: str, current_page: int) -> RefinedMap:
        """The concepts met up to `current_page`, with the model's refinements (if any) applied."""
        found = self.concepts.visible(book_id, current_page)
        if self.refinements is None:
            return RefinedMap(found)
        return apply_refinements(
            found,
            self.refinements(book_id, current_page),
            lambda concept_id: self.concepts.mentions(concept_id, current_page),
        )

    def entries(self, book_id: str, current_page: int, kind: str | None = None) -> list[ConceptEntry]:
        """Concepts met up to `current_page`, grouped by kind (people, places, terms), most mentioned first."""
        found = self.view(book_id, current_page).entries
        if kind:
            found = [e for e in found if e.kind == kind]
        return sorted(found, key=lambda e: KINDS.index(e.kind) if e.kind in KINDS else len(KINDS))

    def find(
        self, book_id: str, name: str, current_page: int, entries: Sequence[ConceptEntry] | None = None
    ) -> ConceptEntry | None:
        """The concept met by `current_page` that `name` names (exactly, else fuzzily), or None."""
        visible = list(entries) if entries is not None else self.view(book_id, current_page).entries
        wanted = " ".join(name.split()).casefold().removeprefix("the ")
        if not wanted:
            return None
        for entry in visible:
            for known in (entry.name, *entry.aliases):
                if known.casefold().removeprefix("the ") == wanted:
                    return entry
        choices = {
            (index, known): known
            for index, entry in enumerate(visible)
            for known in (entry.name, *entry.aliases)
        }
        best = process.extractOne(
            name, choices, scorer=fuzz.token_set_ratio, processor=_normalise, score_cutoff=MATCH_CUTOFF
        )
        return visible[best[2][0]] if best else None

    def detail(
        self,
        book_id: str,
        entry: ConceptEntry,
        current_page: int,
        pages: Sequence[Page] | None = None,
        entries: Sequence[ConceptEntry] | None = None,
        snippets: int = SNIPPETS,
    ) -> ConceptDetail:
        """Mentions, co-occurring concepts and a few cited snippets, all up to `current_page`."""
        pages = pages if pages is not None else self.books.pages(book_id)
        view = self.view(book_id, current_page) if entries is None or self.refinements else RefinedMap([])
        visible = list(entries) if entries is not None else view.entries
        by_id = {e.id: e for e in visible}

        def mentions_of(concept_id: int) -> Sequence[tuple[int, int]]:
            return self.concepts.mentions(concept_id, current_page)

        def shared_of(concept_id: int) -> dict[int, int]:
            return self.concepts.shared_pages(book_id, concept_id, current_page)

        mentions = tuple(merged_mentions(view, entry.id, mentions_of))
        own = {page for page, _ in mentions}
        shared = merged_shared(view, entry.id, own, shared_of, mentions_of, RELATED)
        related = sorted(
            ((by_id[other], count) for other, count in shared.items() if other in by_id and _named(by_id[other])),
            key=lambda pair: (-pair[1], -pair[0].mentions, pair[0].name),
        )[:RELATED]
        return ConceptDetail(
            entry, mentions, tuple(related), tuple(self._snippets(book_id, entry, mentions, pages, snippets))
        )

    def _snippets(
        self,
        book_id: str,
        entry: ConceptEntry,
        mentions: Sequence[tuple[int, int]],
        pages: Sequence[Page],
        limit: int,
    ) -> list[ConceptSnippet]:
        if not mentions or limit <= 0:
            return []
        chosen = [mentions[0][0]]
        for page, _ in sorted(mentions[1:], key=lambda m: (-m[1], m[0])):
            if len(chosen) >= limit:
                break
            chosen.append(page)
        pattern = mention_pattern([entry.name, *entry.aliases], entry.kind)
        found = []
        for page in sorted(chosen):
            text = join_chunks(
                c for c in self.chunks.get_by_page_range(book_id, page, page) if c.end_page == page
            )
            sentence = next((s for s in split_sentences(text) if pattern.search(s)), None)
            if sentence is None:
                continue
            match = pattern.search(sentence)
            name = match.group() if match else entry.name
            found.append(ConceptSnippet(page, page_label(pages, page), shorten_around(sentence, name)))
        return found


def _named(entry: ConceptEntry) -> bool:
    """A person, a place or a named term ("the Horse Guards"): what "appears with" lists. A plain
    key term ("coffin", "manner") is a word of the book, not company a concept keeps."""
    return entry.kind != "term" or any(c.isupper() for c in entry.name)
