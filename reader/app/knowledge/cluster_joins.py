"""Joining whole clusters of names that are one person: a first name and a surname the book writes
together ("Napoleon Bonaparte"), two spellings of one long name ("Bonaparte", "Buonaparte"), a
woman's first name and her name after marriage, and a leading name inside a longer one. Names the
book sets side by side are never joined (see `concept_aliases.group_names`, which calls these)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from reader.app.knowledge.name_forms import (
    Cluster,
    NameForm,
    T,
    compatible,
    fold,
    gender_of,
    same_standing,
    same_word,
)

FULL_NAME_USES = 2
"""How often the book must write two one-word names as one ("Napoleon Bonaparte") to join them."""
SPELLING_LENGTH = 8
"""The shortest names whose two spellings ("Bonaparte", "Buonaparte") are taken for one name."""


def join_other_names(
    clusters: list[Cluster[T]],
    forms: Mapping[str, NameForm],
    full_names: Mapping[tuple[str, str], int],
    apart: Collection[frozenset[str]],
    threshold: int,
) -> list[Cluster[T]]:
    """Join the concepts of two names that are one person's: a first name and a surname the book
    writes together as a full name at least twice and with a title too ("Napoleon Bonaparte",
    "General Bonaparte"), and two
    spellings of one long name, one letter inserted inside ("Bonaparte", "Buonaparte"). Never
    names set side by side, of two sexes, or a family."""
    home_of = {key: i for i, c in enumerate(clusters) for key in c.keys}

    def single(i: int) -> bool:
        return (
            len(clusters[i].core) == 1 and not clusters[i].family and len(clusters[i].mentions) >= threshold
        )

    borne: dict[tuple[int, str], set[int]] = {}
    """(0, first name) or (-1, surname), folded -> the concepts with full names using it so."""
    for i, cluster in enumerate(clusters):
        for key in cluster.keys:
            core = forms[key].core
            if len(core) > 1 and not forms[key].place:
                borne.setdefault((0, fold(core[0])), set()).add(i)
                borne.setdefault((-1, fold(core[-1])), set()).add(i)
    links: list[tuple[int, int]] = []
    for (first, second), uses in full_names.items():
        a, b = home_of.get(first), home_of.get(second)
        if (
            uses >= FULL_NAME_USES
            and a is not None
            and b is not None
            and borne.get((0, fold(first)), {a}) <= {a}  # "James": Windibank's, McCarthy's, Ryder's
            and borne.get((-1, fold(second)), {b}) <= {b}
            and not clusters[a].family
            and single(b)
            and clusters[b].titles  # "General Bonaparte": the surname is a person's ("Pierre Moscow" not)
            and (clusters[a].gender == "f" or gender_of(clusters[b].titles) != "f")
        ):  # "Mrs Mooney" is not "Jack Mooney": her son or husband bears her surname
            links.append((a, b))
    by_length: dict[int, list[tuple[str, int]]] = {}
    for i, cluster in enumerate(clusters):
        if cluster.family or len(cluster.mentions) < threshold:
            continue
        for word in {fold(forms[k].core[0]) for k in cluster.keys if len(forms[k].core) == 1}:
            if len(word) >= SPELLING_LENGTH:
                by_length.setdefault(len(word), []).append((word, i))
    for length, words in by_length.items():
        for shorter, a in words:
            for longer, b in by_length.get(length + 1, ()):
                if a != b and _one_letter_inside(shorter, longer):
                    links.append((a, b))
    joined: dict[int, int] = {}
    for a, b in links:
        while a in joined:
            a = joined[a]
        while b in joined:
            b = joined[b]
        one, other = clusters[a], clusters[b]
        side_by_side = any(frozenset((x, y)) in apart for x in one.keys for y in other.keys)
        if a == b or side_by_side or not compatible(one.gender, other.gender):
            continue
        if not same_standing(one.titles, other.titles):
            continue
        home, moved = (a, b) if len(one.mentions) >= len(other.mentions) else (b, a)
        clusters[home].mentions.extend(clusters[moved].mentions)
        for key in clusters[moved].keys:
            clusters[home].add(key, [], forms[key])
            clusters[home].counts[key] = clusters[moved].counts[key]
        joined[moved] = home
    return [c for i, c in enumerate(clusters) if i not in joined]


def _one_letter_inside(shorter: str, longer: str) -> bool:
    """Whether `longer` is `shorter` with one letter inserted, neither first nor last."""
    for i in range(1, len(shorter)):
        if longer[:i] == shorter[:i]:
            continue
        return i < len(shorter) and longer[i + 1 :] == shorter[i:]
    return False


MARRIED_SHARE = 0.65
"""The share of a woman's first name's uses that must come before her second name comes into use
(its first fifth of uses past)."""


def join_married_names(
    clusters: list[Cluster[T]],
    position: Callable[[T], int],
    threshold: int,
    apart: Collection[frozenset[str]],
) -> list[Cluster[T]]:
    """Join the two full names of a woman that share a first name when the book has (nearly) done
    with the first before it uses the second ("Mina Murray", then "Mina Harker"): a marriage. Only
    when no other full name shares that first name, and never names set side by side."""
    by_first: dict[str, list[int]] = {}
    for index, cluster in enumerate(clusters):
        if len(cluster.core) > 1 and len(cluster.mentions) >= threshold and cluster.gender != "m":
            by_first.setdefault(fold(cluster.core[0]), []).append(index)
    joined: dict[int, int] = {}
    for indexes in by_first.values():
        if len(indexes) != 2:
            continue
        where = {i: sorted(map(position, clusters[i].mentions)) for i in indexes}
        maiden, married = sorted(indexes, key=lambda i: where[i][len(where[i]) // 2])
        begins = where[married][len(where[married]) // 5]  # a stray early use does not count
        first, second = clusters[maiden], clusters[married]
        if same_word(first.core[-1], second.core[-1]) or "f" not in (first.gender, second.gender):
            continue
        before = sum(1 for at in where[maiden] if at < begins)
        side_by_side = any(frozenset((a, b)) in apart for a in first.keys for b in second.keys)
        if before >= MARRIED_SHARE * len(first.mentions) and not side_by_side:
            joined[maiden] = married
    for maiden, married in joined.items():
        home, moved = clusters[married], clusters[maiden]
        home.mentions.extend(moved.mentions)
        home.keys.extend(moved.keys)
        for key, count in moved.counts.items():
            home.counts[key] = home.counts.get(key, 0) + count
        home.titles.update(moved.titles)
        home.married = True
    return [c for i, c in enumerate(clusters) if i not in joined]


def join_leading_names(
    clusters: list[Cluster[T]],
    full_forms: Mapping[int, Sequence[NameForm]],
    apart: Collection[frozenset[str]] = frozenset(),
) -> list[Cluster[T]]:
    """Join a full name that begins exactly one concept's longer full names to it ("Anna Pávlovna"
    and "Anna Pávlovna Schérer", "Vasíli Dmítrich" and "General Vasíli Dmítrich Denisov" of Vaska
    Denisov); when several concepts' longer names begin with it, it names none of them for sure."""
    cores = {i: tuple(map(fold, c.core)) for i, c in enumerate(clusters)}
    by_lead: dict[tuple[str, ...], list[tuple[int, tuple[str, ...]]]] = {}
    for i, forms in full_forms.items():
        if any(form.place for form in forms):
            continue
        for longer in {tuple(map(fold, form.core)) for form in forms}:
            by_lead.setdefault(longer[:2], []).append((i, longer))
    joined: dict[int, int] = {}
    for i, core in sorted(cores.items(), key=lambda item: len(item[1])):
        if any(form.place for form in full_forms.get(i, ())):
            continue
        targets = {
            joined.get(j, j)
            for j, longer in by_lead.get(core[:2], ())
            if j != i and len(longer) > len(core) and longer[: len(core)] == core
        }
        if len(targets) == 1:
            target = targets.pop()
            side_by_side = any(
                frozenset((a, b)) in apart for a in clusters[i].keys for b in clusters[target].keys
            )
            if (
                target != i
                and compatible(clusters[i].gender, clusters[target].gender)
                and same_standing(clusters[i].titles, clusters[target].titles)
                and not side_by_side
            ):
                joined[i] = target
    if not joined:
        return clusters
    for i, target in joined.items():
        while target in joined:
            target = joined[target]
        home, moved = clusters[target], clusters[i]
        home.mentions.extend(moved.mentions)
        home.keys.extend(moved.keys)
        for key, count in moved.counts.items():
            home.counts[key] = home.counts.get(key, 0) + count
        home.titles.update(moved.titles)
    return [c for i, c in enumerate(clusters) if i not in joined]
