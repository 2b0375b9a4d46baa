"""Merging the names of one concept ("Mr. Thorne", "Thorne", "Gideon Thorne") by what names mean.

Two name words are the same word when they differ only in accents, case or a possessive ("Rostóv",
"Rostov's"); never when the letters differ ("Russia"/"Prussia", "Rostóv"/"Rostóva"). Titles carry
gender and rank: "Mr. Bennet" and "Mrs. Bennet" are two people, and Miss X, Mrs. X and Lady X three
women. A bare surname or first name joins a full name only when exactly one candidate fits, or the
book's own evidence picks one (the bearer of nearly all the surname's titled uses, the one whose
scenes it shares); an ambiguous one stays a concept of its own, or joins the family the book names
in the plural ("the Bennets"). A fond form joins the name it extends in that name's scenes
("Dronushka", "Ratty"), and a clipped first name the full name it begins ("Tink"); a first name
and a titled surname the book writes together ("Napoleon Bonaparte") and two spellings of one long
name ("Bonaparte", "Buonaparte") are one person. A bare surname used far more often than the one
"Mrs. X" is not her ("Homais", "Madame Homais"). Names the book sets side by side ("Mr. Darcy and
Colonel Fitzwilliam") are never one concept.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

from reader.app.knowledge.cluster_joins import join_leading_names, join_married_names, join_other_names
from reader.app.knowledge.fond_forms import CLIPPED_LENGTH, diminutive_stems, full_form_of
from reader.app.knowledge.name_evidence import in_scenes, main_bearer, scene_mate, surname_uses
from reader.app.knowledge.name_forms import (
    ADDRESSED,
    FAMILY_TITLES,
    SOVEREIGNS,
    WOMEN_BY_STANDING,
    Cluster,
    NameForm,
    T,
    address,
    compatible,
    fold,
    gender_of,
    nickname,
    same_standing,
    same_word,
)


def _within(core: Sequence[str], canonical: Sequence[str], place: bool = False) -> bool:
    """Whether a full name fits a concept's: the same surname, and the same first name (or its short
    form, but not in a place's name: "Henry Street", "Henrietta Street"), or one name the end of the
    other ("Van Helsing", "Abraham Van Helsing")."""
    if not same_word(core[-1], canonical[-1]):
        return False
    shorter, longer = sorted((core, canonical), key=len)
    if all(same_word(a, b) for a, b in zip(reversed(shorter), reversed(longer), strict=False)):
        return True
    return not place and nickname(core[0], canonical[0])


def group_names(
    by_key: Mapping[str, Sequence[T]],
    forms: Mapping[str, NameForm],
    threshold: int = 1,
    apart: Collection[frozenset[str]] = frozenset(),
    things: Collection[str] = frozenset(),
    position: Callable[[T], int] | None = None,
    full_names: Mapping[tuple[str, str], int] | None = None,
) -> list[Cluster[T]]:
    """Group names (each with its mentions and form) into concepts.

    Full names (two or more name words) found the concepts, most frequent first. A titled one-word
    name ("Mr. Darcy") joins the one concept of a fitting gender using that word (preferring those
    already bearing its title), else is a person of its own; a bare one-word name joins the one
    concept using it (or the one whose surname forms bear it in nearly all their uses), else the
    family named in the plural, else stays a concept of its own. Concepts with fewer than
    `threshold` mentions make a name ambiguous only when no established one fits.

    Names the book sets side by side as two people (`apart`: pairs of keys, "Mr. Darcy and Colonel
    Fitzwilliam") never share a concept, and a surname with a title ("Miss Bennet") joins a full
    name only when no other title of a sex claims it and no other full name of its gender bears it.
    `things` are one-word names the book uses as a thing's ("the George", an inn): no one's alias.

    With `position` (where a mention is in the book) two names of a woman that share a first name
    join when the book stops using one before it starts the other ("Mina Murray", then "Mina
    Harker": a marriage), and a bare name several people bear joins the one it shares its scenes
    with ("Jane" with "Jane Andrews", not with "Flora Jane", met once).

    `full_names` counts pairs of one-word names the book writes together as one name ("Napoleon
    Bonaparte"); see `join_other_names`, which also joins one name's two spellings.
    """
    clusters: list[Cluster[T]] = []
    by_last: dict[str, list[int]] = {}
    using: dict[str, list[int]] = {}
    """Folded name word -> indexes of the concepts using it (full and titled names), ascending."""

    def found(core: tuple[str, ...], family: bool = False) -> int:
        clusters.append(Cluster(core, family=family))
        return len(clusters) - 1

    def uses(index: int, words: Iterable[str]) -> None:
        for word in words:
            indexes = using.setdefault(fold(word), [])
            if index not in indexes:
                indexes.append(index)

    def order(keys: Iterable[str]) -> list[str]:
        return sorted(keys, key=lambda k: (-len(by_key[k]), k))

    def likely(indexes: Sequence[int]) -> Sequence[int]:
        established = [i for i in indexes if len(clusters[i].mentions) >= threshold]
        return established or indexes

    partners: dict[str, set[str]] = {}
    for pair in apart:
        first, second = tuple(pair)
        partners.setdefault(first, set()).add(second)
        partners.setdefault(second, set()).add(first)

    def beside(key: str, index: int) -> bool:
        """Whether the book sets `key` side by side with one of the concept's names."""
        others = partners.get(key, ())
        return any(other in clusters[index].counts for other in others)

    full_forms: dict[int, list[NameForm]] = {}
    for key in order(k for k in by_key if len(forms[k].core) > 1):
        form = forms[key]
        candidates = by_last.get(fold(form.core[-1]), [])
        home = next(
            (
                i
                for i in candidates
                if _within(form.core, clusters[i].core, form.place)
                and compatible(form.gender, clusters[i].gender)
                and same_standing(form.titles, clusters[i].titles)
                and not beside(key, i)
            ),
            None,
        )
        if home is None:
            home = found(form.core)
            by_last.setdefault(fold(form.core[-1]), []).append(home)
        clusters[home].add(key, by_key[key], form)
        full_forms.setdefault(home, []).append(form)
    clusters = join_leading_names(clusters, full_forms, apart)
    if position is not None:
        clusters = join_married_names(clusters, position, threshold, apart)
    for index, cluster in enumerate(clusters):
        for key in cluster.keys:
            if not forms[key].place:
                uses(index, forms[key].core)
    surnames_of = [{fold(forms[k].core[-1]) for k in c.keys if len(forms[k].core) > 1} for c in clusters]

    def bearers_of(word: str) -> list[int]:
        """The concepts whose full names end in `word`, however often the book names them."""
        return [i for i in using.get(word, ()) if i < len(surnames_of) and word in surnames_of[i]]

    def bears(index: int, word: str) -> bool:
        """Whether a concept's full names end in `word` (a married woman's both surnames)."""
        return (
            word in surnames_of[index] if index < len(surnames_of) else fold(clusters[index].core[-1]) == word
        )

    singles = [k for k in by_key if len(forms[k].core) == 1]
    surnames = {fold(c.core[-1]) for c in clusters}
    # surnames first: "Mr. Darcy" is surer than "Colonel Fitzwilliam" (a Fitzwilliam, or Fitzwilliam
    # Darcy?), and once Darcy's, sets the Colonel apart; titles of a sex ("Mr. Bell") before ranks
    # ("Superintendent Bell"), which then join the one person a title of a sex names with that word
    titled = sorted(
        order(k for k in singles if forms[k].titles),
        key=lambda k: (fold(forms[k].core[0]) not in surnames, not address(forms[k].titles)),
    )
    fitting: dict[str, Sequence[int]] = {}
    claimed: dict[tuple[int, str], set[str]] = {}
    """(full name, folded word) -> the titles of a sex ("Mr.", "Miss") of the names that could be
    its with that word: two of them ("Mr. Bennet", "Mrs. Bennet") and the names cannot tell which."""
    for key in titled:
        form = forms[key]
        word = fold(form.core[0])
        compatible_ones = [
            i
            for i in using.get(word, ())
            if compatible(form.gender, clusters[i].gender)
            and (
                same_standing(form.titles, clusters[i].titles)
                or (clusters[i].married and form.titles == {"Mrs."})
            )
            and not beside(key, i)
        ]
        surname = likely(
            [
                i
                for i in compatible_ones
                if bears(i, word)
                and (
                    clusters[i].titles & form.titles
                    or not form.titles & FAMILY_TITLES
                    or (clusters[i].married and form.titles == {"Mrs."})
                )
            ]
        )
        # a title with a surname may be any bearer of it, even one the book names only once or twice
        # else those written with this title of a sex too ("Prince Vasíli Kurágin" for "Prince Vasíli"), however
        # rarely, before any other bearer of the word ("Vasíli Dmítrich Denisov")
        same_rank = [i for i in compatible_ones if clusters[i].titles & address(form.titles)]
        fits = surname if surname and form.gender else likely(same_rank or compatible_ones)
        fitting[key] = fits
        for i in fits:  # "Mr. Edgar" and "Master Edgar" may be one man; "Mr." and "Master Linton" not
            if bears(i, word) and len(by_key[key]) >= threshold:  # a title used once claims nothing
                claimed.setdefault((i, word), set()).update(address(form.titles))
    titled_homes: dict[tuple[str, str], int] = {}
    for key in titled:
        form = forms[key]
        word = fold(form.core[0])
        fits = [
            i
            for i in fitting[key]
            if not (
                address(form.titles)
                and _claimed_by_two(claimed.get((i, word), set()), likely(using.get(word, [])))
            )
            and not beside(key, i)
            and compatible(form.gender, clusters[i].gender)  # "Master Prynne" after "Mistress Prynne" joined
        ]
        same_title = [i for i in fits if clusters[i].titles & form.titles]
        # a title with a surname ("Countess Rostóva") is the family's head or his wife unless the
        # full name bears that title too; with a first name ("Countess Natásha") it is that person
        by_first_name = [i for i in fits if not bears(i, word)]
        wife = [i for i in fits if clusters[i].married and form.titles == {"Mrs."}]  # "Mrs. Harker"
        # a man's title with the one full name in the book with this surname ("Prince Kutúzov"),
        # or the one the book names often enough to count
        sole = (
            [i for i in fits if bears(i, word)]
            if form.gender == "m" and len(likely(bearers_of(word))) == 1
            else []
        )
        chosen = same_title or (by_first_name or wife or sole if form.titles & FAMILY_TITLES else fits)
        if len(chosen) == 1:
            clusters[chosen[0]].add(key, by_key[key], form)
            continue
        kind = sorted(address(form.titles)) or sorted(form.titles)
        identity = (word, kind[0])
        home = titled_homes.get(identity)
        if home is None and not address(form.titles):
            by_sex = [
                i
                for (w, title), i in titled_homes.items()
                if w == word and title in ADDRESSED and title not in SOVEREIGNS
            ]
            if len(by_sex) == 1 and not beside(key, by_sex[0]):
                home = titled_homes[identity] = by_sex[0]
        if home is None:
            home = titled_homes[identity] = found(form.core)
        clusters[home].add(key, by_key[key], form)

    for index, cluster in enumerate(clusters):  # titled one-word concepts are candidates for bare names
        if len(cluster.core) == 1:
            uses(index, cluster.core)
    first_names = {fold(c.core[0]) for c in clusters if len(c.core) > 1}
    surnames = {fold(c.core[-1]) for c in clusters if len(c.core) > 1} | {
        fold(c.core[0]) for c in clusters if len(c.core) == 1 and fold(c.core[0]) not in first_names
    }
    """Words the book uses as surnames: a plural of one names a family ("the Bennets"), not of a first
    name only ("two Alexanders", beside "Emperor Alexander" and "Alexander Golítsyn")."""
    borne = surname_uses(clusters, forms)
    plain = order(k for k in singles if not forms[k].titles)
    families: dict[str, int] = {}
    """Folded surname -> the family concept named by its plural."""
    family_keys = set()
    for key in plain:
        word = fold(forms[key].core[0])
        singular = None if word in using else _singular(word, surnames)
        if singular is not None:
            home = families.get(singular)
            if home is None:
                home = families[singular] = found(forms[key].core, family=True)
            clusters[home].add(key, by_key[key], forms[key])
            family_keys.add(key)
    alone: dict[str, int] = {}
    scenes: dict[int, set[int]] = {}
    first_names_of: dict[str, set[int]] = {}
    """Folded first word of a full name (not a place's) -> the concepts bearing it."""
    for index, cluster in enumerate(clusters):
        for name in cluster.keys:
            if len(forms[name].core) > 1 and not forms[name].place:
                first_names_of.setdefault(fold(forms[name].core[0]), set()).add(index)
    for key in plain:
        if key in family_keys:
            continue
        form = forms[key]
        word = fold(form.core[0])
        owners = [
            i
            for i in likely(using.get(word, []))
            if not beside(key, i) and not (key in things and fold(clusters[i].core[0]) == word)
        ]
        head, _, rest = form.core[0].partition("-")
        if not owners and rest.islower():  # "Anne-girl": a name and a common word
            owners = [i for i in likely(using.get(fold(head), [])) if not beside(key, i)]
        if not owners and position is not None:
            # "Dronushka" beside "Dron", "Ratty" beside "Rat": the fond form of the one name it
            # extends, in that name's scenes
            fond = {
                i
                for stem in diminutive_stems(word)
                for i in [*likely(using.get(stem, [])), *([alone[stem]] if stem in alone else [])]
                if not beside(key, i) and in_scenes(by_key[key], i, clusters, position, scenes)
            }
            owners = list(fond) if len(fond) == 1 else []
        if not owners and position is not None and len(word) >= CLIPPED_LENGTH:
            # "Tink" beside "Tinker Bell", "Art" beside "Arthur Holmwood": the clipped first name
            # of the one full name it begins, in that name's scenes
            clipped = {
                i
                for first, indexes in first_names_of.items()
                if len(first) > len(word) and first.startswith(word)
                for i in likely(sorted(indexes))
                if not beside(key, i) and in_scenes(by_key[key], i, clusters, position, scenes)
            }
            owners = list(clipped) if len(clipped) == 1 else []
        if not owners and position is not None:
            # "Adelheid" beside "Heidi": a rarely used full name that ends in the one frequent
            # short name (or its fond form's stem), in that name's scenes
            owners = full_form_of(word, alone, len(by_key[key]), clusters)
            owners = [i for i in owners if not beside(key, i) and in_scenes(by_key[key], i, clusters, position, scenes)]
        bearers = len(owners) > 1 and all(bears(i, word) for i in owners)
        # a bare surname whose own pronouns say "he" is none of the women who bear it
        of_sex = [i for i in owners if compatible(form.gender, clusters[i].gender)]
        main = main_bearer(of_sex, word, borne) if bearers and of_sex else None
        if main is not None and _head_of_family(
            by_key[key], clusters[main], form, [clusters[i] for i in owners]
        ):
            owners, of_sex, main = [], [], None
        if main is None and len(of_sex) > 1 and not any(bears(i, word) for i in of_sex):
            # a first name several bear: not his whom the book names so only with a title
            # ("Prince Nicholas", the old prince), when exactly one bearer goes by it untitled
            main = _untitled_bearer(of_sex, word, clusters, forms, by_key, threshold)
        if main is None and _forms_of_one(of_sex, word, clusters, key, beside):
            # "Monsieur Pierre", "Uncle Pierre" and "Pierre": one man the book names so
            main = of_sex[0]
            for i in of_sex[1:]:
                clusters[main].absorb(clusters[i])
                for indexes in using.values():
                    if i in indexes:
                        indexes.remove(i)
        if len(owners) == 1 and compatible(form.gender, clusters[owners[0]].gender) and not _husband(
            by_key[key], clusters[owners[0]], form
        ):
            home = owners[0]  # "Toller and his wife": not "Mrs. Toller"
        elif main is not None:
            home = main
        elif len(owners) > 1 and word in families:
            home = families[word]
        elif (
            len(owners) > 1
            and position is not None
            and (shared := scene_mate(by_key[key], owners, clusters, position, scenes)) is not None
        ):
            home = shared
        elif word in alone:
            home = alone[word]
        elif (singular := _singular(word, set(alone))) is not None:  # "the Neverlands"
            home = alone[singular]
        else:
            home = alone[word] = found(form.core)
        clusters[home].add(key, by_key[key], form)
    return join_other_names(clusters, forms, full_names or {}, apart, threshold)


HEAD_SHARE = 2
"""How many times more often than all its bearers' full and titled names together a bare surname
several people bear, whose main bearer is a wife, must be used to be someone else (her husband, the
family's head: "Villefort")."""


def _head_of_family(
    mentions: Sequence[T], wife: Cluster[T], form: NameForm, bearers: Sequence[Cluster[T]]
) -> bool:
    """Whether a bare surname of unknown sex, whose main bearer is a woman with a wife's title
    ("Madame de Villefort"), is someone else: used far more often than all its bearers are named."""
    return (
        form.gender is None
        and wife.gender == "f"
        and bool(wife.titles & FAMILY_TITLES)
        and len(mentions) > HEAD_SHARE * sum(len(c.mentions) for c in bearers)
    )


WIFE_SHARE = 3
"""How many times more often than "Mrs. X" alone a bare "X" of unknown sex must be used to be
someone else (her husband, the family: "Homais" beside a rare "Madame Homais")."""


def _husband(mentions: Sequence[T], wife: Cluster[T], form: NameForm) -> bool:
    """Whether a bare surname of unknown sex is not the one woman named by it with a wife's title,
    being used far more often than she is named."""
    return (
        form.gender is None
        and len(wife.core) == 1
        and wife.gender == "f"
        and bool(wife.titles & FAMILY_TITLES)
        and len(mentions) > WIFE_SHARE * len(wife.mentions)
    )


def _claimed_by_two(titles: Collection[str], bearers: Sequence[int]) -> bool:
    """Whether the titles of a sex that claim a word of one concept ("Mr. Bennet", "Mrs. Bennet") may be
    two people's: two sexes, or two titles of one sex ("Mr." and "Master Linton") where another
    concept bears the word too; "Mr." and "Master Dimmesdale" for the book's one Dimmesdale are one man."""
    if len(titles) < 2:
        return False
    return gender_of(titles) is None or len(bearers) > 1


def _forms_of_one(
    owners: Sequence[int],
    word: str,
    clusters: Sequence[Cluster[T]],
    key: str,
    beside: Callable[[str, int], bool],
) -> bool:
    """Whether several concepts are titled forms of one bare name and nothing else ("Monsieur
    Pierre", "Uncle Pierre"): one person, unless a sovereign's title, two women's standings or
    two sexes tell them apart, or the book sets the name beside one of them."""
    if len(owners) < 2 or any(beside(key, i) for i in owners):
        return False
    group = [clusters[i] for i in owners]
    if any(len(c.core) != 1 or fold(c.core[0]) != word or c.titles & SOVEREIGNS for c in group):
        return False
    titles = set().union(*(c.titles for c in group))
    return gender_of(titles) is not None and len(WOMEN_BY_STANDING & titles) <= 1


def _untitled_bearer(
    owners: Sequence[int],
    word: str,
    clusters: Sequence[Cluster[T]],
    forms: Mapping[str, NameForm],
    by_key: Mapping[str, Sequence[T]],
    threshold: int,
) -> int | None:
    """The one concept among `owners` that the book does not name by the first name `word` with a
    title ("Prince Nicholas"), if the others are so named often enough to count."""
    untitled = [
        i
        for i in owners
        if not any(
            forms[k].titles
            and len(forms[k].core) == 1
            and fold(forms[k].core[0]) == word
            and len(by_key[k]) >= threshold
            for k in clusters[i].keys
        )
    ]
    return untitled[0] if len(untitled) == 1 else None


def _singular(word: str, surnames: set[str]) -> str | None:
    """The surname `word` (folded) is the plural of, if any."""
    for cut in (1, 2):
        if word[-cut:] in ("s", "es") and word[:-cut] in surnames:
            return word[:-cut]
    return None
