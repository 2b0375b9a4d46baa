"""The book's own evidence of whose a bare name is: the scenes it shares with a concept, and which concept
bears the surname in nearly all its titled or full uses."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from reader.app.knowledge.fond_forms import DIMINUTIVE_SCENES
from reader.app.knowledge.name_forms import Cluster, NameForm, T, fold

MAIN_BEARER_SHARE = 0.85
"""The share of a surname's titled and full uses one person must have for the bare surname to be his."""


SCENE_CHARS = 6000
"""A scene, for names that share scenes: this many characters of the book (about three pages)."""
SCENE_LEAD = 3
"""How many times more scenes the chosen bearer of a bare name must share with it than any other."""


def scene_mate(
    mentions: Sequence[T],
    owners: Sequence[int],
    clusters: Sequence[Cluster[T]],
    position: Callable[[T], int],
    scenes: dict[int, set[int]],
) -> int | None:
    """The one concept among `owners` whose scenes a bare name's mentions share, by far ("Jane" and
    "Jane Andrews" in the same schoolroom, "Flora Jane" met once), if any."""
    own = {position(m) // SCENE_CHARS for m in mentions}
    shared = []
    for i in owners:
        if i not in scenes:
            scenes[i] = {position(m) // SCENE_CHARS for m in clusters[i].mentions}
        shared.append((len(own & scenes[i]), i))
    shared.sort(reverse=True)
    (best, home), (second, _) = shared[0], shared[1]
    return home if best >= SCENE_LEAD and best >= SCENE_LEAD * second else None


def surname_uses(clusters: Sequence[Cluster[T]], forms: Mapping[str, NameForm]) -> list[Counter[str]]:
    """Per concept, how often each of its surnames is used with a title or a first name."""
    uses: list[Counter[str]] = []
    for cluster in clusters:
        counts: Counter[str] = Counter()
        for key, count in cluster.counts.items():
            form = forms[key]
            if form.core and (len(form.core) > 1 or form.titles):
                counts[fold(form.core[-1])] += count
        uses.append(counts)
    return uses


def main_bearer(owners: Sequence[int], word: str, borne: Sequence[Counter[str]]) -> int | None:
    """The one concept that bears the surname `word` in nearly all the book's uses of it with a title
    or a first name ("Mr. Darcy" beside a rare "Miss Darcy"), if any: a bare "Darcy" is his."""
    total = sum(borne[i][word] for i in owners)
    if not total:
        return None
    best = max(owners, key=lambda i: borne[i][word])
    return best if borne[best][word] >= MAIN_BEARER_SHARE * total else None


def in_scenes(
    mentions: Sequence[T],
    index: int,
    clusters: Sequence[Cluster[T]],
    position: Callable[[T], int],
    scenes: dict[int, set[int]],
) -> bool:
    """Whether most of a name's scenes are scenes of the concept `index` (`scenes` caches them)."""
    own = {position(m) // SCENE_CHARS for m in mentions}
    if index not in scenes:
        scenes[index] = {position(m) // SCENE_CHARS for m in clusters[index].mentions}
    return len(own & scenes[index]) >= DIMINUTIVE_SCENES * len(own)
