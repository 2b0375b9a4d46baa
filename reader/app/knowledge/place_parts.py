"""A place named by the first word of its longer name ("Shevardino" of "the Shevardino Redoubt").

A one-word place is the same place as the one longer place name that begins with it when the book
uses the word where it uses the longer name (in the same pages): "at Shevardino" in the chapters of
"the Shevardino Redoubt". "Grimpen" (the village) beside "Grimpen Mire" is used elsewhere in the
book, and stays a place of its own; so does a word that begins two longer place names of the book,
however rarely used ("Putney": "Putney Hill", "Putney Bridge", a town and what is in it).

A place written as one hyphenated word whose first part is a one-word place of the book is that
place's full name ("Yonville-l'Abbaye" of "Yonville"): a hyphen joins the words of one name, where a
space sets a feature apart ("Grimpen Mire").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from reader.app.knowledge.name_forms import Cluster, T, fold

PLACE_PAGE_CHARS = 2000
"""A page, for where a place is named: about this many characters of the book."""
SAME_PAGES_SHARE = 0.5
"""The share of the one-word name's pages that must be the longer name's pages or their neighbours."""


def place_heads(
    clusters: Sequence[Cluster[T]],
    kinds: Sequence[str | None],
    position: Callable[[T], int],
    beginning: Mapping[str, int],
) -> dict[int, int]:
    """One-word places (index) -> the longer place (index) each is the first word of and shares
    its pages with. `kinds` is each concept's kind (None: not shown); `beginning` counts the book's
    place names of two or more words by their first word, folded, however rarely used."""
    longer: dict[str, set[int]] = {}
    for index, cluster in enumerate(clusters):
        if kinds[index] != "place":
            continue
        for key in cluster.keys:
            words = key.removeprefix("the ").split()
            if len(words) > 1:
                longer.setdefault(fold(words[0]), set()).add(index)
    joined: dict[int, int] = {}
    for index, cluster in enumerate(clusters):
        if kinds[index] != "place" or len(cluster.core) != 1 or cluster.titles or cluster.family:
            continue
        word = fold(cluster.core[0])
        homes = longer.get(word, set()) - {index}
        if len(homes) != 1 or beginning.get(word, 0) != 1:
            continue
        home = next(iter(homes))
        own = {position(m) // PLACE_PAGE_CHARS for m in cluster.mentions}
        theirs = {position(m) // PLACE_PAGE_CHARS for m in clusters[home].mentions}
        near = theirs | {p - 1 for p in theirs} | {p + 1 for p in theirs}
        if own and len(own & near) >= SAME_PAGES_SHARE * len(own):
            joined[index] = home
    single = {
        fold(cluster.core[0]): index
        for index, cluster in enumerate(clusters)
        if kinds[index] == "place" and len(cluster.core) == 1 and "-" not in cluster.core[0] and index not in joined
    }
    for index, cluster in enumerate(clusters):
        if kinds[index] != "place" or len(cluster.core) != 1 or index in joined:
            continue
        head, hyphen, _ = cluster.core[0].partition("-")
        town = single.get(fold(head)) if hyphen else None
        if town is not None and town != index:
            joined[index] = town  # "Yonville-l'Abbaye": the full name of the town "Yonville"
    return joined
