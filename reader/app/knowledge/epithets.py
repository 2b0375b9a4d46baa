"""A name's epithet ("Charlotta the Fourth", "Peter the Great"): a capitalised word the book writes
mostly right after one name and "the" is that name's, not someone of its own ("the Fourth")."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from reader.app.knowledge.name_forms import Cluster

EPITHET_SHARE = 0.7
"""The share of a one-word name's mentions right after one and the same name and "the" from which it
is that name's epithet."""
EPITHET_SAMPLE = 30
_NAME_THE = re.compile(r"([A-Z][\w'’\-]*)[ \t]+the[ \t]+$")
"""A capitalised word and "the", right before a mention."""


def epithet_owners(
    clusters: Sequence[Cluster[tuple[int, int, bool]]], kinds: Sequence[str | None], text: str
) -> dict[int, int]:
    """One-word concepts (index) -> the concept (index) whose name the book writes right before them
    with "the" in nearly all their mentions ("Charlotta the Fourth"). `kinds`: None is not shown."""
    home_of = {key: i for i, c in enumerate(clusters) if kinds[i] for key in c.keys}
    joined: dict[int, int] = {}
    for index, cluster in enumerate(clusters):
        if not kinds[index] or len(cluster.core) != 1 or cluster.titles or cluster.family:
            continue
        mentions = cluster.mentions
        step = max(1, len(mentions) // EPITHET_SAMPLE)
        sample = mentions[::step]
        owners: Counter[str] = Counter()
        for start, _, _ in sample:
            found = _NAME_THE.search(text, max(0, start - 40), start)
            if found:
                owners[found.group(1)] += 1
        if not owners:
            continue
        owner, count = owners.most_common(1)[0]
        home = home_of.get(owner)
        if home is not None and home != index and count >= EPITHET_SHARE * len(sample):
            joined[index] = home
    return joined
