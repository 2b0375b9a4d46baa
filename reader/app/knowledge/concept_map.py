"""The concept map of a book, built at import with no model: people, places and key terms.

Names are runs of capitalised words that are capitalised mid-sentence too (a capital at the start
of a sentence proves nothing), frequent enough to matter. Aliases ("Mr. Thorne", "Thorne",
"Gideon Thorne") are merged into one concept on the book's own evidence (`concept_aliases`: names
set side by side, the pronouns of a name's own actions, where in the book each is used); a word
used as an inn's or a ship's name ("the George") is nobody's alias, and a capitalised common word
that never speaks, acts or bears a title ("Soup", "Latitude") is a term. The kind comes from simple
cues (titles and speech verbs for people; place words, "the X" and prepositions like at/in/to for
places: `name_kinds`; words of other languages give the English words' cues). A one-word place
used in the pages of the one longer place name it begins is that place ("Shevardino", "the
Shevardino Redoubt": `place_parts`), and a name that is only one list's items is no one; a word
the book mostly writes in lower case is no place ("travel in Time": `concept_kinds`), and a rare
run of two established names side by side counts as those names (`rare_runs`). In a
book in a language that capitalises its nouns (German), the words the book mostly writes after a
determiner, inflected or as a compound's end are common nouns, not names (`noun_capitals`). Key terms
are the book's most distinctive lower-case words by TF-IDF over its pages, general English excluded
(`key_terms`; none for a book not in English).

It runs inside every import, so it works on the whole book at once: one regex pass finds every run
of capitalised words in the book's text, each distinct run is split and judged once, and the
per-occurrence work is C loops (map, Counter, str.split) or a few dictionary operations. Only a
sample of mentions has its surrounding words read. The result is the same as judging page by
page with `find_names`.
"""

from __future__ import annotations

import gc
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import accumulate, chain, repeat
from operator import itemgetter

from reader.app.knowledge.book_mentions import (
    BookNames,
    Name,
    core_tokens,
    find_book_names,
    leading_titles,
)
from reader.app.knowledge.concept_aliases import group_names
from reader.app.knowledge.concept_kinds import abstraction, common_word, listed_only, the_name_kind
from reader.app.knowledge.epithets import epithet_owners
from reader.app.knowledge.key_terms import BookWords, key_terms, term_count
from reader.app.knowledge.name_finder import (
    PERSON_TITLES,
    bare,
    context_of,
    is_title,
)
from reader.app.knowledge.name_forms import Cluster, NameForm, fold
from reader.app.knowledge.name_hints import CONTEXT_SAMPLE, gender_hints, named_things, sample_indexes
from reader.app.knowledge.name_kinds import (
    LOCATIVE,
    ORGANISATION_WORDS,
    OWNER_AFTER,
    PLACE_ENDINGS,
    PLACE_WORDS,
    SAME_OF_SHARE,
    Cues,
    cues_of,
    is_place_name,
    kind_of,
    lands_and_peoples,
    of_a_people,
)
from reader.app.knowledge.place_parts import place_heads
from reader.app.knowledge.play_text import PlayText, add_speakers, join_to_speakers, no_one, read_play
from reader.app.knowledge.rare_runs import fold_rare_runs
from reader.domain.knowledge import ConceptAlias, ExtractedConcept

SHARED_TITLES = frozenset(
    "Reverend Captain Doctor Professor Colonel Major Inspector Sergeant Admiral".split()
)
"""Titles that alone ("the Reverend") name the one character who bears them, when only one does."""


HEADING_NUMBER = re.compile(
    r"^\W*(?:(?i:chapter|stave|book|part|letter|canto|section)\W+)?(?:[IVXLCDM]+|\d+)\b\W*"
)
"""The numbering a chapter title begins with ("III. ", "Chapter 3: "), which the page may print on a
line of its own above the title."""


def min_mentions(page_count: int) -> int:
    """How often a name must appear to be a concept: twice in a short book, more in a long one."""
    return 2 if page_count < 150 else 3 if page_count < 500 else 4


def build_concept_map(
    pages: Sequence[str], headings: Mapping[int, Sequence[str]] | None = None
) -> list[ExtractedConcept]:
    """People, places and key terms of a book whose page texts are `pages` (page 1 first).

    `headings` maps a page number to chapter titles printed on it; their title-case words are
    ignored when looking for names.
    """
    headings = headings or {}
    with _collector_paused():
        return _build(pages, headings)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector: the build allocates many short-lived objects (no cycles),
    and each collection they trigger walks the whole heap, a large one in the app (measured: 15% of
    the build in a bare process).

    Process-wide (every thread, the UI's too) for the build's duration only, which is why it is here
    and not with the other process-wide settings in reader.startup (listed there): it must bracket
    exactly this build, which runs in an import worker. It does nothing when the collector is off.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _build(pages: Sequence[str], headings: Mapping[int, Sequence[str]]) -> list[ExtractedConcept]:
    words = BookWords.of(pages)
    texts: list[str] = []
    for number, text in enumerate(pages, start=1):
        for title in headings.get(number, ()):
            if title not in text:  # "III. The Time Traveller Returns" printed as "III." over the title
                title = HEADING_NUMBER.sub("", title, count=1)
            if title:
                text = text.replace(title, " ", 1)
        texts.append(text)
    play = read_play(texts, words.lower)  # a play's labels and cues, verse lines' capitals
    book = find_book_names(play.texts if play else texts, words.lower)
    add_speakers(book, play.speakers if play else {}, words.lower)
    threshold = min_mentions(len(pages))
    full_names = fold_rare_runs(book.names, words.lower, threshold)
    forms = _forms(book.names, gender_hints(book, threshold), book.surnames)
    clusters = group_names(
        {key: name.mentions for key, name in book.names.items()},
        forms,
        threshold,
        book.apart,
        named_things(book, forms, threshold),
        itemgetter(0),
        full_names,
    )
    if play and play.speakers:
        clusters = join_to_speakers(clusters, play.speakers)
    concepts = _name_concepts(book, clusters, threshold, words.lower, play)
    taken = {word.lower() for concept in concepts for alias in concept.aliases for word in alias.text.split()}
    concepts.extend(key_terms(words, taken, term_count(len(pages))))
    return concepts


def _forms(
    names: Mapping[str, Name], hints: Mapping[str, str], surnames: Collection[str]
) -> dict[str, NameForm]:
    return {key: _form(name.tokens, hints.get(key), surnames) for key, name in names.items()}


def _form(tokens: tuple[str, ...], hint: str | None = None, surnames: Collection[str] = ()) -> NameForm:
    """What a name says of whom it names; a place's or a body's name ("King Edward Street", "Kiev
    Grenadiers") holds no title, and all its words are its own."""
    if len(tokens) > 1 and (
        is_place_name(tokens, surnames) or bare(tokens[-1]).lower() in ORGANISATION_WORDS
    ):
        return NameForm(tuple(bare(t) for t in tokens if len(bare(t)) > 1), frozenset(), True)
    titles = frozenset(
        PERSON_TITLES[bare(t).lower()] for t in tokens[: leading_titles(tokens)] if is_title(t)
    )
    return NameForm(core_tokens(tokens), titles, hint=hint)


@dataclass
class _Alias:
    """What one name of a concept adds up to: where first seen, how often, and its articles."""

    first_page: int
    count: int = 0
    the: int = 0
    judged: int = 0
    """Mentions whose preceding words are known (all those with "the"; a sample of the others)."""
    possessive: int = 0


def _title_mentions(
    book: BookNames, clusters: list[Cluster[tuple[int, int, bool]]], threshold: int
) -> dict[int, list[tuple[str, int, bool]]]:
    """Titles used alone ("the Count", "the Reverend") as mentions of the one concept bearing that
    title; a title no named concept bears ("the Duchess") becomes a person of its own. A title
    several concepts bear ("the Prince" among many princes) names nobody for sure and is left out.

    Returns (alias, start, preceded by "the") per concept index; new concepts are appended to
    `clusters` and `book.names`.
    """
    by_title: dict[str, list[int]] = {}
    for index, cluster in enumerate(clusters):
        for title in cluster.titles | _hyphened_title(cluster.core):
            by_title.setdefault(title, []).append(index)
    for title, indexes in by_title.items():  # a bearer named once or twice does not make it ambiguous
        established = [i for i in indexes if len(clusters[i].mentions) >= threshold]
        by_title[title] = established or indexes
    extra: dict[int, list[tuple[str, int, bool]]] = {}
    unowned: dict[str, Name] = {}
    for start, end, the, tokens in book.titles:
        if len(tokens) != 1:
            continue
        title = PERSON_TITLES[bare(tokens[-1]).lower()]
        if not the:
            previous, _ = book.context(start, end)
            the = bool(previous) and previous[-1] == "the"
        if not the and title not in SHARED_TITLES:
            continue  # "Yes, Sir": an address, not a name
        owners = by_title.get(title, [])
        if len(owners) == 1:
            extra.setdefault(owners[0], []).append((f"the {title}" if the else title, start, the))
        elif not owners and the:
            key = f"the {title}"
            name = unowned.get(key)
            if name is None:
                name = unowned[key] = Name(key, ("the", title))
            name.mentions.append((start, end, True))
            name.the += 1
    for key, name in unowned.items():
        book.names[key] = name
        title = PERSON_TITLES[title_key(key)]
        alone: Cluster[tuple[int, int, bool]] = Cluster((title,))
        alone.add(key, name.mentions, NameForm((), frozenset({title})))
        clusters.append(alone)
    return extra


def _hyphened_title(core: Sequence[str]) -> set[str]:
    """The title a name's last word ends in after a hyphen ("Alm-Uncle": "Uncle"): the name's bearer
    is the one "the Uncle" names."""
    if not core:
        return set()
    head, _, tail = core[-1].rpartition("-")
    title = PERSON_TITLES.get(tail.lower()) if head else None
    return {title} if title else set()


def title_key(alias: str) -> str:
    """The PERSON_TITLES key of "the Duchess"."""
    return bare(alias.split()[-1]).lower()


def _name_concepts(
    book: BookNames,
    clusters: list[Cluster[tuple[int, int, bool]]],
    threshold: int,
    lower: Counter[str],
    play: PlayText | None = None,
) -> list[ExtractedConcept]:
    names = book.names
    extra = _title_mentions(book, clusters, threshold)
    lands, peoples = lands_and_peoples({word for key in names for word in names[key].tokens})
    place_firsts = {
        bare(name.tokens[0]) for name in names.values() if len(name.tokens) > 1 and is_place_name(name.tokens)
    }
    """First words of the book's place names ("Grimpen" of "Grimpen Mire")."""
    contexts: dict[int, tuple[tuple[str, ...], str]] = {}
    """The words around each mention read so far, by its start."""
    judged: Counter[str] = Counter()
    the_before: Counter[str] = Counter()

    text, page_starts = book.text, book.starts

    def read(key: str, mention: tuple[int, int, bool]) -> tuple[tuple[str, ...], str, bool, bool]:
        """The words before and after a mention, whether "the" precedes it, and whether it ends in
        a possessive ("Claparède's")."""
        start, end, the = mention
        found = contexts.get(start)
        if found is None:
            floor = page_starts[bisect_right(page_starts, start) - 1]
            found = context_of(text, start, end, floor)
            if found[1] in LOCATIVE:  # "found Hildesheim in his office": "in his" marks a person
                owner = OWNER_AFTER.match(text, end, end + 30)
                if owner:
                    found = (found[0], f"{found[1]} {owner.group(1).lower()}")
            if the:  # the run began with "The": what precedes it does not matter, what follows does
                found = ((), found[1])
            else:
                judged[key] += 1
                the_before[key] += bool(found[0]) and found[0][-1] == "the"
            contexts[start] = found
        previous, following = found
        possessive = text[end - 2 : end] in ("'s", "’s") or text[end - 1 : end] in ("'", "’")
        return previous, following, the or (bool(previous) and previous[-1] == "the"), possessive

    def cues_of_cluster(cluster: Cluster[tuple[int, int, bool]]) -> Cues:
        for key in cluster.keys:  # each alias's article ("the Teeth") is judged on its own sample
            group = names[key].mentions
            for i in sample_indexes(len(group), CONTEXT_SAMPLE // 3):
                read(key, group[i])
        ends = list(accumulate(len(names[key].mentions) for key in cluster.keys))
        sampled = []
        for i in sample_indexes(len(cluster.mentions), CONTEXT_SAMPLE):
            key = cluster.keys[bisect_right(ends, i)]
            sampled.append((names[key].tokens, *read(key, cluster.mentions[i])))
        return cues_of(sampled, book.surnames)

    kinds: list[str | None] = []
    place_ends: dict[int, str] = {}
    """Places named after a place word and "of" ("Green Porcelain"), and that word ("palace")."""
    """Each concept's kind; None for one named too rarely to show."""
    for index, cluster in enumerate(clusters):  # grows while it runs: see _place_words_apart
        more = extra.get(index, [])
        if len(cluster.mentions) + len(more) < threshold:
            kinds.append(None)
            continue
        cues = cues_of_cluster(cluster)
        speaks = play is not None and any(key in play.speakers for key in cluster.keys)  # a person
        if not (cluster.family or speaks) and kind_of(cues, len(cluster.core)) == "place" and not cluster.titles:
            apart = _place_words_apart(cluster, names)
            if apart is not None:
                clusters.append(apart)
                cues = cues_of_cluster(cluster)
        if play and not speaks and len(cluster.core) == 1 and not cluster.titles:
            if no_one(play, text, cluster.core[0], cluster.mentions):
                kinds.append(None)  # "Governor,", "Garn!", "with Attendants", a verse line's "Examine"
                continue
        if not speaks and listed_only(cluster, cues, names, text):
            kinds.append(None)  # "Aus dem Leben; Aus Nah und Fern": a list of titles, no one
            continue
        kind = "person" if cluster.family or speaks else kind_of(cues, len(cluster.core))
        if (
            kind == "place"
            and cues.same_of_noun in PLACE_WORDS
            and cues.same_of >= SAME_OF_SHARE * cues.total
        ):
            place_ends[index] = cues.same_of_noun  # "Green Porcelain" of "the Palace of Green Porcelain"
        if kind == "place" and cluster.titles and not cues.place_words:
            kind = "person"  # "General Weyrother", then "into Weyrother's plan": a titled name is someone
        if len(cluster.core) == 1 and kind == "person" and not (cluster.family or speaks):
            word = cluster.core[0]
            if word in peoples or word.endswith("men"):
                kind = "term"  # "the Austrians", "Frenchmen": a people, not a person
            elif word in lands:
                kind = "place"  # "Austria", whose people the book calls "Austrians"
            elif not (cues.titles or cues.speech or cues.talk or cluster.titles):
                if word in place_firsts or word.endswith(PLACE_ENDINGS):
                    kind = "place"  # "Grimpen" beside "Grimpen Mire", "Hampshire", never acting
                elif book.nouns is not None:
                    kinds.append(None)  # in German every noun is capitalised: a word that never
                    continue  # acts or bears a title names no one ("Uhr", "Hilfe")
                elif common_word(word, lower) or of_a_people(word) or _modifier(cues, cluster, names):
                    kind = "term"  # "Latitude", "Soup": a common word, capitalised, that never acts;
                    # "Protestants", "Englishman": a people's, not someone's; "Phœnician decorations",
                    # "a Bonapartist plot": a word written before a noun
        elif (
            kind == "term"
            and len(cluster.core) == 1
            and not cluster.family
            and cues.the >= cues.total / 2
            and not cues.vessel  # "la diligence l'Hirondelle": a coach, whatever it is "in"
        ):
            kind = the_name_kind(cluster.core[0], cues, lower)
        if kind == "place" and abstraction(cluster, cues, lower):
            kind = "term"
        kinds.append(kind)

    beginning = Counter(
        fold(bare(name.tokens[0])) for name in names.values() if len(name.tokens) > 1 and is_place_name(name.tokens)
    )
    joined = place_heads(clusters, kinds, itemgetter(0), beginning)
    joined.update(
        (moved, home)
        for moved, home in epithet_owners(clusters, kinds, text).items()
        if moved not in joined and home not in joined
    )  # "the Fourth" of "Charlotta the Fourth"
    written: dict[str, str] = {}
    """Names shown as the book writes them in full ("Green Porcelain": "Palace of Green Porcelain")."""
    for moved, home in _place_of_ends(clusters, kinds, place_ends).items():
        if moved not in joined and home not in joined:
            joined[moved] = home
            keys = clusters[home].keys
            the = sum(names[k].the + the_before[k] for k in keys) >= THE_SHARE * sum(
                names[k].the + judged[k] for k in keys
            )
            head = f"the {clusters[home].core[0]}" if the else clusters[home].core[0]
            written.update((key, f"{head} of {key}") for key in clusters[moved].keys)
    for moved, home in joined.items():  # "Shevardino" in the pages of "the Shevardino Redoubt"
        clusters[home].absorb(clusters[moved])
        extra.setdefault(home, []).extend(extra.pop(moved, []))
    concepts: list[ExtractedConcept] = []
    for index, cluster in enumerate(clusters):
        shown = kinds[index]
        if shown is None or index in joined:
            continue
        more = extra.get(index, [])
        aliases: dict[str, _Alias] = {}
        for key in cluster.keys:
            name = names[key]
            aliases[key] = _Alias(
                book.page(name.mentions[0][0]),
                len(name.mentions),
                name.the + the_before[key],
                name.the + judged[key],
                name.possessive,
            )
        for key, start, the in more:
            alias = aliases.get(key)
            if alias is None:
                alias = aliases[key] = _Alias(book.page(start))
            alias.count += 1
            alias.the += the
            alias.judged += 1
        starts = chain(map(itemgetter(0), cluster.mentions), map(itemgetter(1), more))
        per_page = Counter(map(bisect_right, repeat(book.starts), starts))
        concepts.append(_concept(aliases, per_page, shown, cluster.family, written))
    return concepts


ADJECTIVE_ENDINGS = ("an", "ese", "ist", "ite", "al", "ic", "ish")
"""Endings of the words for peoples, parties and faiths ("Phœnician", "Bonapartist", "Oriental")."""


def _place_of_ends(
    clusters: Sequence[Cluster[tuple[int, int, bool]]], kinds: Sequence[str | None], ends: Mapping[int, str]
) -> dict[int, int]:
    """The ends of places' names (index) -> the one place (index) the book calls by their place word
    alone ("Green Porcelain" -> "the Palace", in "the Palace of Green Porcelain")."""
    by_word: dict[str, list[int]] = {}
    for index, cluster in enumerate(clusters):
        if kinds[index] == "place" and len(cluster.core) == 1 and not cluster.family:
            by_word.setdefault(cluster.core[0].lower(), []).append(index)
    homes = {index: by_word.get(word, []) for index, word in ends.items()}
    return {index: found[0] for index, found in homes.items() if len(found) == 1}


def _modifier(cues: Cues, cluster: Cluster[tuple[int, int, bool]], names: Mapping[str, Name]) -> bool:
    """Whether a name ending like a people's or a party's word is mostly written before a common noun
    ("Phœnician decorations", "the Bonapartist party"), never as an owner ("Parnell's anniversary")
    nor before ", who": an adjective, not someone ("Homer makes his gods converse" is someone)."""
    return (
        cluster.core[0].endswith(ADJECTIVE_ENDINGS)
        and cues.modifier * 2 >= cues.total
        and not cues.who
        and not any(names[key].possessive for key in cluster.keys)
    )


def _place_words_apart(
    cluster: Cluster[tuple[int, int, bool]], names: Mapping[str, Name]
) -> Cluster[tuple[int, int, bool]] | None:
    """Take out of a place's concept the one-word names that are the last word of one of its longer
    names ("England" of "New England"): a place of several words is not its last word's alias.
    Returns them as a concept of their own, if any; `cluster` keeps the rest."""
    cores = {key: core_tokens(names[key].tokens) for key in cluster.keys}
    lasts = {core[-1] for core in cores.values() if len(core) > 1}
    moved = [key for key, core in cores.items() if len(core) == 1 and core[0] in lasts]
    if not moved or len(moved) == len(cluster.keys):
        return None
    kept = [key for key in cluster.keys if key not in moved]
    apart: Cluster[tuple[int, int, bool]] = Cluster(cores[moved[0]])
    for key in moved:
        apart.add(key, names[key].mentions, NameForm(cores[key]))
    cluster.keys, cluster.mentions = kept, [m for key in kept for m in names[key].mentions]
    cluster.counts = {key: cluster.counts.get(key, 0) for key in kept}
    return apart


THE_SHARE = 0.6
"""The share of a place's or a thing's mentions after "the" from which it is shown with "the"."""


def _concept(
    aliases: Mapping[str, _Alias],
    per_page: Counter[int],
    kind: str,
    family: bool = False,
    written: Mapping[str, str] | None = None,
) -> ExtractedConcept:
    def display(key: str) -> str:
        alias = aliases[key]
        text = written.get(key, key) if written else key
        if kind != "person" and alias.possessive >= 0.8 * alias.count and alias.count > 1:
            text += "'s"
        judged = max(1, alias.judged)
        if kind == "person" and not family:  # "the Hatter", never "the Emperor Napoleon"
            the = alias.the >= 0.8 * judged and not any(is_title(t) for t in key.split())
        else:  # "the Thames", "the Bennets"
            the = alias.the >= THE_SHARE * judged
        if the and not key.startswith("the "):
            text = "the " + text
        return text

    def preference(key: str) -> tuple[int, int, int, int, int]:
        tokens = tuple(key.split())
        core = core_tokens(tokens)
        titled = any(is_title(t) for t in tokens)
        alias = aliases[key]
        full = len(core) > 1 and full_names >= max(2, total // 30)
        if full:  # best a full name ending in a name used alone ("Kutúzov"), then the most used
            return (0, int(titled), int(core[-1] not in alone), -alias.count, alias.first_page)
        if all(
            is_title(t) for t in tokens if t != "the"
        ):  # a title alone ("the Count") names it only where the book gives no name
            return (2, 0, 0, -alias.count, alias.first_page)
        bare_surname = not titled and len(core) == 1 and core[0] in surnames  # "Thorne": "Mr. Thorne" first
        return (1, int(bare_surname), 0, -alias.count, alias.first_page)

    cores = {key: core_tokens(tuple(key.split())) for key in aliases}
    surnames = {core[-1] for core in cores.values() if len(core) > 1}
    alone = {core[0] for key, core in cores.items() if len(core) == 1 and not key.startswith("the ")}
    full_names = sum(aliases[key].count for key, core in cores.items() if len(core) > 1)
    total = sum(alias.count for alias in aliases.values())
    """A concept with full names is shown by one, unless the book rarely uses them ("Comte Pierre
    Besouhoff" once among 1,900 "Pierre", "Wendy Moira Angela Darling" among 350 "Wendy")."""

    keys = list(aliases) if family else sorted(aliases, key=preference)  # a family by its plural
    named = tuple(ConceptAlias(display(key), aliases[key].first_page, rank) for rank, key in enumerate(keys))
    unique: dict[str, ConceptAlias] = {}
    for alias in named:
        if alias.text not in unique or alias.first_page < unique[alias.text].first_page:
            unique[alias.text] = alias
    ordered = tuple(sorted(unique.values(), key=lambda a: a.preference))
    return ExtractedConcept(
        name=ordered[0].text,
        kind=kind,
        aliases=ordered,
        mentions=tuple(sorted(per_page.items())),
    )
