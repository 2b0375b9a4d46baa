"""Merging the names of one concept ("Mr. Thorne", "Thorne", "Gideon Thorne") with rapidfuzz."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Generic, Protocol, TypeVar

from rapidfuzz import fuzz, process

SIMILAR = 88
"""rapidfuzz ratio from which two name words are the same word ("Kitto", "Kittos")."""

DOMINANT = 2.0
"""A surname shared by several people goes to one of them only if it is this many times as frequent."""


class Keyed(Protocol):
    @property
    def key(self) -> str: ...


M = TypeVar("M", bound=Keyed)
T = TypeVar("T")


@dataclass
class Cluster(Generic[T]):
    """The names of one concept: its canonical name words and every mention under any alias."""

    core: tuple[str, ...]
    mentions: list[T] = field(default_factory=list)
    words: set[str] = field(default_factory=set)
    """Every name word of every full-name alias, lower-cased."""
    keys: list[str] = field(default_factory=list)
    """The aliases whose mentions it holds, in the order they joined (their mentions in that order)."""


@lru_cache(maxsize=65536)
def same_word(a: str, b: str) -> bool:
    """Two name words are the same: equal ignoring case, or nearly so when long ("Kitto", "Kittos")."""
    a, b = a.lower(), b.lower()
    return a == b or (min(len(a), len(b)) >= 5 and fuzz.ratio(a, b) >= SIMILAR)


@lru_cache(maxsize=65536)
def nickname(a: str, b: str) -> bool:
    """A first name and its short form ("Toby" and "Tobias", "Sam" and "Samuel")."""
    a, b = a.lower(), b.lower()
    return same_word(a, b) or (min(len(a), len(b)) >= 3 and a[:3] == b[:3])


def _within(core: Sequence[str], canonical: Sequence[str]) -> bool:
    """Whether a full name fits a concept's: same last word, the others the same or nicknames."""
    if not same_word(core[-1], canonical[-1]):
        return False
    return all(any(nickname(word, other) for other in canonical[:-1]) for word in core[:-1])


class _SameWords:
    """For a name word, every word of the book's names that `same_word` matches (one rapidfuzz pass
    over the names' words per word asked about, instead of a comparison per pair)."""

    def __init__(self, words: Iterable[str]) -> None:
        self.long = sorted({w for w in (word.lower() for word in words) if len(w) >= 5})
        self.found: dict[str, set[str]] = {}

    def __call__(self, word: str) -> set[str]:
        """Lower-cased words equal to `word` under `same_word` (the word itself included)."""
        word = word.lower()
        found = self.found.get(word)
        if found is None:
            found = {word}
            if len(word) >= 5:
                matches = process.extract(
                    word, self.long, scorer=fuzz.ratio, score_cutoff=SIMILAR, limit=None
                )
                found.update(match for match, _, _ in matches)
            self.found[word] = found
        return found


def merge_aliases(
    mentions: Sequence[M], core_of: Callable[[M], tuple[str, ...]]
) -> tuple[list[Cluster[M]], list[M]]:
    """Group mentions into concepts by their names; also return the mentions that are titles alone.

    See `group_names`; a mention whose core is empty is a title alone.
    """
    by_key: dict[str, list[M]] = {}
    cores: dict[str, tuple[str, ...]] = {}
    titles_only: list[M] = []
    for mention in mentions:
        core = core_of(mention)
        if not core:
            titles_only.append(mention)
            continue
        by_key.setdefault(mention.key, []).append(mention)
        cores[mention.key] = core
    return group_names(by_key, cores), titles_only


def group_names(by_key: Mapping[str, Sequence[T]], cores: Mapping[str, tuple[str, ...]]) -> list[Cluster[T]]:
    """Group names (each with its mentions and core words) into concepts.

    Full names (two or more name words) found the concepts, most frequent first; a one-word name
    joins the one concept using that word, or the dominant one when several do; otherwise it is a
    concept of its own.
    """
    same = _SameWords(word for core in cores.values() for word in core)
    clusters: list[Cluster[T]] = []
    by_last: dict[str, list[int]] = {}
    """Lower-cased last word of a concept's core -> the concepts' indexes, ascending."""
    full = sorted((k for k in by_key if len(cores[k]) > 1), key=lambda k: (-len(by_key[k]), k))
    for key in full:
        core = cores[key]
        candidates = sorted(i for word in same(core[-1]) for i in by_last.get(word, ()))
        home = next((clusters[i] for i in candidates if _within(core, clusters[i].core)), None)
        if home is None:
            home = Cluster(core)
            clusters.append(home)
            by_last.setdefault(core[-1].lower(), []).append(len(clusters) - 1)
        home.mentions.extend(by_key[key])
        home.keys.append(key)
        home.words.update(word.lower() for word in core)
    using: dict[str, list[int]] = {}
    """Lower-cased name word -> indexes of the full-name concepts using it, ascending."""
    for index, cluster in enumerate(clusters):
        for word in cluster.words:
            using.setdefault(word, []).append(index)
    singles = sorted((k for k in by_key if len(cores[k]) == 1), key=lambda k: (-len(by_key[k]), k))
    alone: list[Cluster[T]] = []
    alone_by_word: dict[str, list[int]] = {}
    for key in singles:
        word = cores[key][0]
        similar = same(word)
        indexes = sorted({i for other in similar for i in using.get(other, ())})
        owners = sorted((clusters[i] for i in indexes), key=lambda c: -len(c.mentions))
        if owners and (len(owners) == 1 or len(owners[0].mentions) >= DOMINANT * len(owners[1].mentions)):
            owners[0].mentions.extend(by_key[key])
            owners[0].keys.append(key)
            continue
        found = min((i for other in similar for i in alone_by_word.get(other, ())), default=None)
        if found is None:
            home = Cluster((word,), words={word.lower()})
            alone.append(home)
            alone_by_word.setdefault(word.lower(), []).append(len(alone) - 1)
        else:
            home = alone[found]
        home.mentions.extend(by_key[key])
        home.keys.append(key)
    return clusters + alone
