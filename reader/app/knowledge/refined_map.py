"""The concept map as the reader sees it after the model's refinements: entries merged, retyped or hidden.

Applied when the X-Ray and lookup_concept read the map. Everything comes from the entries visible at
the reader's page: a refinement can only join concepts met by then, give one a kind or hide it; a name
it mentions that no visible entry bears is ignored, and a merge the names forbid on their face is
refused: titles of both genders (a "Mr." with a "Mrs.", a Count with a Countess), or two full names
of one surname with different first names ("Elizabeth Bennet", "Jane Bennet"). Chapters never
refined change nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from reader.app.knowledge.name_finder import PERSON_TITLES, bare, is_title
from reader.app.knowledge.name_forms import fold, gender_of, nickname
from reader.domain.concept_refinement import NOT_A_NAME, ChapterRefinement, name_key
from reader.domain.knowledge import ConceptEntry

MentionsOf = Callable[[int], Sequence[tuple[int, int]]]
"""Concept id -> its (page, count) mentions up to the reader's page."""
SharedOf = Callable[[int], dict[int, int]]
"""Concept id -> the pages it shares with each other concept up to the reader's page."""


@dataclass(frozen=True)
class RefinedMap:
    """The entries the reader sees, and which stored concepts each merged entry covers."""

    entries: list[ConceptEntry]
    members: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """Shown entry id -> every concept id it covers (only for merged entries)."""
    owner: dict[int, int] = field(default_factory=dict)
    """Concept id -> the id of the merged entry showing it (only for merged concepts)."""
    hidden: frozenset[int] = frozenset()
    """Concepts the model said are no name."""

    def covered(self, concept_id: int) -> tuple[int, ...]:
        return self.members.get(concept_id, (concept_id,))

    def shown_as(self, concept_id: int) -> int | None:
        """The entry a concept is listed under, or None when it is hidden."""
        return None if concept_id in self.hidden else self.owner.get(concept_id, concept_id)


def title_genders(names: Iterable[str]) -> set[str]:
    """The genders the titles in `names` say ("Mr. Bennet" and "Mrs. Bennet": both)."""
    genders = set()
    for name in names:
        for token in name.split():
            if is_title(token):
                gender = gender_of([PERSON_TITLES[bare(token).lower()]])
                if gender:
                    genders.add(gender)
    return genders


def full_names(names: Iterable[str]) -> set[tuple[str, str]]:
    """(first name, surname), folded, of each name with two or more words besides its titles."""
    found = set()
    for name in names:
        words = [w for w in name.split() if not is_title(w) and w[:1].isupper()]
        if len(words) >= 2:
            found.add((fold(words[0]), fold(words[-1])))
    return found


@dataclass
class _Identity:
    """What the names of a group of concepts say about whom they can be."""

    genders: set[str]
    full: set[tuple[str, str]]

    def allows(self, other: _Identity) -> bool:
        """Whether one entity may bear both groups' names."""
        if len(self.genders | other.genders) > 1:
            return False
        return not any(
            last == other_last and not nickname(first, other_first)
            for first, last in self.full
            for other_first, other_last in other.full
        )

    def absorb(self, other: _Identity) -> None:
        self.genders |= other.genders
        self.full |= other.full


def _decide(votes: Sequence[str]) -> str:
    """The kind most votes give; a tie goes to the latest of the tied."""
    counts = Counter(votes)
    best = max(counts.values())
    return next(kind for kind in reversed(votes) if counts[kind] == best)


def apply_refinements(
    entries: Sequence[ConceptEntry], refinements: Sequence[ChapterRefinement], mentions_of: MentionsOf
) -> RefinedMap:
    """`entries` (visible at the reader's page) with `refinements` (read up to it) applied."""
    if not refinements:
        return RefinedMap(list(entries))
    by_name: dict[str, int | None] = {}
    for entry in entries:
        for name in (entry.name, *entry.aliases):
            key = name_key(name)
            by_name[key] = entry.id if by_name.get(key, entry.id) == entry.id else None  # None: ambiguous

    parent = {e.id: e.id for e in entries}
    identity = {
        e.id: _Identity(title_genders((e.name, *e.aliases)), full_names((e.name, *e.aliases))) for e in entries
    }

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for refinement in refinements:
        for names in refinement.groups:
            named = [i for i in (by_name.get(name_key(n)) for n in names) if i is not None]
            for other in named[1:]:
                a, b = root(named[0]), root(other)
                if a != b and identity[a].allows(identity[b]):
                    parent[b] = a
                    identity[a].absorb(identity[b])

    votes: dict[int, list[str]] = {}
    for refinement in refinements:
        for name, kind in refinement.kinds:
            found = by_name.get(name_key(name))
            if found is not None:
                votes.setdefault(root(found), []).append(kind)

    components: dict[int, list[ConceptEntry]] = {}
    for entry in entries:
        components.setdefault(root(entry.id), []).append(entry)
    shown: list[ConceptEntry] = []
    members: dict[int, tuple[int, ...]] = {}
    owner: dict[int, int] = {}
    hidden: set[int] = set()
    for top, group in components.items():
        group.sort(key=lambda e: (-e.mentions, e.first_page, e.name))
        primary = group[0]
        kind = _decide(votes[top]) if top in votes else primary.kind
        if kind == NOT_A_NAME:
            hidden.update(e.id for e in group)
            continue
        if len(group) == 1:
            shown.append(primary if kind == primary.kind else replace(primary, kind=kind))
            continue
        ids = tuple(e.id for e in group)
        pages = {page for i in ids for page, _ in mentions_of(i)}
        every = [n for e in group for n in (e.name, *e.aliases)]
        shown.append(
            replace(
                primary,
                kind=kind,
                first_page=min(e.first_page for e in group),
                mentions=sum(e.mentions for e in group),
                pages=len(pages),
                last_page=max(e.last_page for e in group),
                aliases=tuple(n for n in dict.fromkeys(every) if n != primary.name),
            )
        )
        members[primary.id] = ids
        owner.update((i, primary.id) for i in ids)
    shown.sort(key=lambda e: (-e.mentions, e.first_page, e.name))
    return RefinedMap(shown, members, owner, frozenset(hidden))


def merged_mentions(view: RefinedMap, concept_id: int, mentions_of: MentionsOf) -> list[tuple[int, int]]:
    """(page, count) of an entry, summed over the concepts it covers."""
    ids = view.covered(concept_id)
    if len(ids) == 1:
        return list(mentions_of(concept_id))
    counts: Counter[int] = Counter()
    for i in ids:
        for page, count in mentions_of(i):
            counts[page] += count
    return sorted(counts.items())


def merged_shared(
    view: RefinedMap,
    concept_id: int,
    own_pages: set[int],
    shared_of: SharedOf,
    mentions_of: MentionsOf,
    wanted: int,
) -> dict[int, int]:
    """Pages an entry shares with each other shown entry: exact for the `wanted` most shared (and any
    tied with them), counted from the pages themselves wherever a merged entry is involved."""
    ids = view.covered(concept_id)
    bounds: Counter[int] = Counter()
    for i in ids:
        for other, count in shared_of(i).items():
            shown = view.shown_as(other)
            if shown is not None and shown != concept_id and other not in ids:
                bounds[shown] += count
    if not view.members:
        return dict(bounds)
    found: dict[int, int] = {}
    for shown, bound in sorted(bounds.items(), key=lambda pair: -pair[1]):
        if len(found) >= wanted and sorted(found.values(), reverse=True)[wanted - 1] > bound:
            break  # an upper bound below the wanted-th exact count: nothing further can enter
        if len(ids) > 1 or len(view.covered(shown)) > 1:
            pages = {page for i in view.covered(shown) for page, _ in mentions_of(i)}
            bound = len(own_pages & pages)
        if bound:
            found[shown] = bound
    return found
