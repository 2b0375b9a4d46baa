"""What kind of thing a name names (person, place or term), from the words around its mentions.

Titles and verbs of speech or action make a person ("said the Hatter", "Hildesheim cleared the box",
"wrote to Lucy"); place words and prepositions make a place ("Hunsford Parsonage", "at Whitby",
"the village of Grimpen"); a body or a vessel is a term. A name ending in a place word is a place
whatever titles it holds ("King Edward Street", "Scotland Yard"), unless a title of address begins
it or the book uses its last word as a surname ("Mrs. Hill", "Miss Vale"). A land whose people the book names ("Austria" beside "Austrians") is a
place, and the peoples themselves are terms.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from reader.app.knowledge.name_finder import NOT_NAMES, PLACE_PREFIXES, bare, is_title

SPEECH_VERBS = frozenset(
    """said says say asked asks replied answered cried called shouted whispered murmured muttered
    laughed smiled nodded sighed frowned shrugged grinned added told thought knew felt looked turned
    went came stood sat took gave wrote read walked ran rose spoke began continued insisted admitted
    agreed explained remarked exclaimed snapped demanded""".split()
)
TALK_VERBS = frozenset(
    """said says asked asks replied answered cried shouted whispered murmured muttered exclaimed
    remarked snapped demanded retorted observed inquired enquired sighed screamed""".split()
)
"""Verbs of speech around a name ("said the Hatter", "the Duchess asked"): whoever talks is a person."""
PLACE_WORDS = frozenset(
    """parsonage lodge rectory vicarage grange priory asylum hospital hotel terrace crescent avenue
    embankment barracks monastery convent cemetery churchyard mews heights district province empire
    canal channel gulf meadows orchard fortress theatre museum prison gaol docks estate plantation
    villa chateau château redoubt battery cloister
    rock rocks head cove quay bay harbour harbor island isle street lane road square hill hills mount
    mountain mountains river lake castle hall house abbey church chapel cathedral inn tavern bridge park
    point cape sound strait valley wood woods forest moor marsh field fields town city port court place
    gate tower farm manor cottage row sea ocean coast beach cliff cliffs creek brook falls ford green
    common heath downs wharf pier station palace gardens garden county shire kingdom village
    yard mire tor tors vale slope path walk alley hollow dale crag crags mill market circus gables
    pond pool wells spring springs end bank""".split()
)
"""Last words that make a place of a name of two or more words ("King Edward Street", "Scotland Yard"),
whatever titles it holds; after a title alone the word is a surname ("Mrs. Hill")."""
SETTLEMENT_WORDS = frozenset(
    """village town city hamlet parish parishes county kingdom kingdoms island isle province district port
    coast coasts shore shores continent country capital empire dominions language natives inhabitants
    king emperor queen border borders outskirts frontier frontiers suburbs streets mountains mountain
    valley valleys banks shores summit summits plains hills ravine forest hotel road""".split()
)
"""Words before "of" (or "of the") that make a place of the name after it ("the village of Grimpen",
"the language of Balnibarbi", "the King of Bohemia", "the banks of the Rhine")."""
PLACE_BEFORE = frozenset("planet river town city village hamlet county island isle province kingdom".split())
"""Common nouns right before a name that make it a place ("the planet Venus", "the river Wey")."""
ORGANISATION_WORDS = frozenset(
    """board company society council committee office navy army guild club college university school
    court trust institute ministry department service league party union church regiment battalion
    brigade division corps squadron guards grenadiers hussars dragoons cuirassiers uhlans chasseurs
    cavalry infantry artillery militia gazette chronicle herald magazine times courier press""".split()
)
PLACE_ENDINGS = ("shire",)
"""Endings that make a place of a one-word name that never speaks, acts or bears a title
("Hampshire", "Berkshire")."""
PLACE_OR_BODY_WORDS = PLACE_WORDS | ORGANISATION_WORDS
VESSEL_WORDS = frozenset(
    "schooner ship brig barque steamer yacht frigate lugger vessel hms boat sloop coach stagecoach diligence".split()
)
PAST_ENDINGS = ("ed", "ait", "aient")
"""Endings of a verb in the past right after a name, which then acts ("Hildesheim cleared the box";
in French "Félicité l'amenait" has a pronoun between, "Félicité pleurait" none)."""
NOT_AGENT_VERBS = frozenset("seemed appeared remained lined covered surrounded crowded called named".split())
"""Past tenses a place is often the subject of ("the Park seemed deserted")."""
FOND_WORDS = frozenset("poor dear unfortunate little".split())
"""Words of pity or fondness right before a name ("poor Bill", "dear Natásha"): someone."""
OWNER_AFTER = re.compile(r"[^\w\n]{0,3}[\w'’]+\s+(his|her|His|Her)\b")
"""A preposition and "his"/"her" right after a name ("Hildesheim in his office")."""
DATIVE_VERBS = frozenset(
    """said say says spoke speak speaking talked talking wrote write writes written gave give gives handed
    showed replied answered introduced married belonged nodded bowed whispered listened explained owed
    lent paid offered""".split()
)
"""Words before "to"/"from" that make what follows a person ("wrote to", "replied to")."""
PHRASE_WORDS = frozenset(
    """and or but nor that which where who whom when while as than so if for with by of to the a an is
    was were are has had have would could should will shall may might must did does do not""".split()
)
"""Words after a name that leave it a noun of its own ("the Rhine and", "the Wey has"); a content
word in lower case after it makes it a modifier ("the Puritan settlement")."""
LOCATIVE = frozenset(
    """at in into to from toward towards near on over across beyond off past round around under above
    below through onto behind outside inside within along via""".split()
)


CUE_WORDS = {
    # French
    "à": "at", "au": "at", "aux": "at", "en": "in", "dans": "in", "vers": "towards", "sur": "on",
    "près": "near", "forêt": "forest", "côte": "coast", "ville": "town", "rue": "street",
    "hôtel": "hotel", "route": "road", "abbaye": "abbey", "église": "church", "pont": "bridge", "pays": "country", "royaume": "kingdom", "roi": "king", "de": "of", "d'": "of", "d’": "of", "du": "of", "des": "of",
    "le": "the", "la": "the", "les": "the", "l'": "the", "l’": "the",
    # German
    "nach": "to", "im": "in", "am": "at", "bei": "near", "zu": "to", "zum": "to", "zur": "to",
    "von": "of", "der": "the", "die": "the", "das": "the", "dem": "the", "den": "the",
    "dit": "said", "répondit": "answered", "demanda": "asked", "s'écria": "cried", "reprit": "said",
    "murmura": "murmured", "sagte": "said", "fragte": "asked", "rief": "cried", "antwortete": "answered",
    "dachte": "thought", "sah": "looked", "blickte": "looked", "ging": "went", "kam": "came",
    "stand": "stood", "saß": "sat", "nahm": "took", "gab": "gave", "schrieb": "wrote", "lachte": "laughed",
    "nickte": "nodded", "flüsterte": "whispered", "schrie": "cried", "seufzte": "sighed",
    "wußte": "knew", "wusste": "knew", "fühlte": "felt", "begann": "began", "drehte": "turned",
}
"""Words of other languages around a name, as the English word whose cue they give ("à Rouen" as
"at Rouen", "d'Yvetot" as "of Yvetot", "dit Félicité" as "said Félicité"): the cues are English
words, the books are not all English."""


ADDRESS_TITLES = frozenset("mr mrs ms miss mister madam dr doctor master mme mlle monsieur madame".split())
"""Titles that make a person of the whole name they begin ("Mr. John Hill"); titles of rank may begin
a place's name ("King Edward Street", "Prince Albert Road")."""


def is_place_name(tokens: Sequence[str], surnames: Collection[str] = ()) -> bool:
    """Whether a name's words make it a place: a place word last after at least one word that is no
    title ("King Edward Street"; not "Mrs. Hill", "Mr. John Hill"), or a place word first ("Mount Doom").
    `surnames` are words the book writes after "Mr.", "Miss" and the like ("Miss Vale"): a name
    ending in one is a person's ("Imogen Vale")."""
    if bare(tokens[0]).lower() in PLACE_PREFIXES and len(tokens) > 1:
        return True
    last = bare(tokens[-1]).rsplit("-", 1)[-1]  # "the Spouter-Inn"
    if "-" in tokens[-1]:
        last = _cue_word(last.lower())  # "Yonville-l'Abbaye": "abbey"
    if last.lower() not in PLACE_WORDS or bare(tokens[0]).lower() in ADDRESS_TITLES or last in surnames:
        return False
    return len(tokens) == 1 or not all(is_title(t) for t in tokens[:-1])


@dataclass
class Cues:
    """Counts of what surrounds a concept's mentions."""

    total: int = 0
    titles: int = 0
    speech: int = 0
    place_words: int = 0
    organisation: int = 0
    locative: int = 0
    the: int = 0
    talk: int = 0
    vessel: int = 0
    """Mentions right after a vessel word ("the schooner Hesperus", but also "the end of the boat Ahab")."""
    of: int = 0
    """Mentions right after "of" ("the settlers of Nantucket", "doubloons of Peru")."""
    of_the: int = 0
    """Mentions right after "of the" ("the course of the Rhine")."""
    modifier: int = 0
    """Mentions followed by a content word in lower case: a word used as an adjective ("the Puritan
    settlement"), or a name as a noun's modifier."""
    who: int = 0
    """Mentions followed by ", who" ("the Lizard, who seemed too much overcome"): someone."""
    same_of: int = 0
    """Mentions after one and the same common noun and "of" ("l'eau de Seltz", "eau de Cologne"):
    the name is part of that thing's name."""
    same_of_noun: str = ""
    """That noun ("eau"; "palace" of "the Palace of Green Porcelain": then a place's name)."""


SAME_OF_SHARE = 0.7
"""The share of a name's mentions after one common noun and "of" from which it is part of a thing's
name ("l'eau de Seltz")."""

OF_PLACE_SHARE = 0.4
"""The share of a name's mentions after a preposition, "of" included, from which a name that never
speaks, acts or bears a title is a place ("the settlers of Nantucket", "off Peru"). Higher than for
the other prepositions alone: people are "of" too ("the death of Bazdeev")."""

VESSEL_SHARE = 3
"""A name that acts and that the book seldom writes after "the" is a vessel's only if more than one in
this many of its mentions follow a vessel word."""

TALKING_PLACE = 2
"""Mentions with a verb of speech from which a name that says little of somewhere (a place
preposition at most half as often as it speaks or acts) is someone, however it is formed ("Monte
Cristo", "St. Clair")."""

PLACE_ACTS = 4
"""A one-word name that never talks and follows a preposition at least this many times as often as
it seems to act ("the fogs of London", "in London"; "London hummed", "had London ransacked") is a
place."""


def kind_of(cues: Cues, core_length: int) -> str:
    """person, place or term from the cues of every mention of a concept."""
    total = max(1, cues.total)
    if cues.vessel > cues.titles + cues.talk and (
        cues.vessel * VESSEL_SHARE > total or 2 * cues.the >= total or not cues.speech
    ):  # a vessel, unless it bears titles or talks more often; one that acts and is seldom after
        return "term"  # "the" needs more than once in three ("the steamer Fresleven commanded")
    if cues.organisation and cues.organisation >= cues.place_words:
        return "term"
    if cues.talk >= TALKING_PLACE and cues.speech > 2 * (cues.locative + cues.of):
        return "person"  # "said Monte Cristo", "St. Clair said": someone named like a place
    if cues.same_of >= SAME_OF_SHARE * total and cues.same_of_noun in PLACE_WORDS:
        return "place"  # "the Palace of Green Porcelain": the end of a place's name
    if cues.place_words and cues.place_words > cues.titles:
        return "place"
    if cues.titles or cues.talk >= max(2, 0.1 * total):
        return "person"
    if cues.same_of >= SAME_OF_SHARE * total and not (cues.speech or cues.who or cues.place_words):
        return "term"  # "l'eau de Seltz" three times in four: a kind of water, not someone
    if cues.the >= total / 2:  # "the Knave": a character if it ever talks, else a place or a thing
        if cues.talk or cues.who > cues.locative / 3:  # "in the Pacific" far more than ", who"
            return "person"
        return "place" if cues.locative >= 0.3 * total else "term"
    if cues.locative >= 0.3 * total and cues.locative > cues.speech:
        return "place"
    if (
        core_length == 1
        and cues.locative
        and not (cues.talk or cues.who)
        and cues.speech * PLACE_ACTS <= cues.locative + cues.of
        and cues.locative + cues.of >= OF_PLACE_SHARE * total
    ):  # "sailed out of Nantucket", "off Peru": somewhere, that at most now and then acts ("London
        return "place"  # hummed"); a first name and a surname ("over Catherine Earnshaw") name someone
    return "person"


def lands_and_peoples(words: set[str]) -> tuple[set[str], set[str]]:
    """Capitalised words that name a land ("Austria") because the book also names its people in the
    plural ("Austrians") or as a known nationality ("Russian"), and those peoples' names. "Julia"
    stays a person next to a "Julian"."""
    lands: set[str] = set()
    peoples: set[str] = set()
    for word in words:
        if len(word) < 4 or not word[0].isupper():
            continue
        stems = (word, word[:-1]) if word.endswith(("a", "y", "e")) else (word,)
        for stem in stems:
            for ending in ("n", "an", "ian", "ese"):
                people = stem + ending
                if people != word and (people + "s" in words or people.lower() in NOT_NAMES):
                    lands.add(word)
                    peoples.update(p for p in (people, people + "s") if p in words)
    return lands, peoples


PEOPLE_ENDINGS = ("an", "ant", "ic", "ish", "ese", "ch")
"""Endings of the adjectives of peoples and faiths among the words that are never names ("Russian",
"Protestant", "Catholic", "English", "Chinese", "French")."""


def of_a_people(word: str) -> bool:
    """Whether a word is the plural or the "-man" of an adjective of a people or a faith that names
    no one ("Protestants", "Englishman", "Frenchwomen")."""
    folded = word.lower()
    for ending in ("man", "men", "woman", "women"):
        if folded.endswith(ending) and folded[: -len(ending)] in NOT_NAMES:
            return True
    stem = folded[:-1]
    return folded.endswith("s") and stem in NOT_NAMES and stem.endswith(PEOPLE_ENDINGS)


_CUE_KEYS = CUE_WORDS.keys()


def _cue_word(word: str) -> str:
    """The English cue word a word of another language gives ("à": "at"; "l'hôtel": "hotel")."""
    if word[1:2] in ("'", "’") and len(word) > 2:
        word = word[2:]
    return CUE_WORDS.get(word, word)


def cues_of(
    mentions: Sequence[tuple[tuple[str, ...], tuple[str, ...], str, bool, bool]],
    surnames: Collection[str] = (),
) -> Cues:
    """Cues from mentions given as (tokens, words before, word after, preceded by "the", possessive);
    for `surnames` see `is_place_name`. A preposition before a possessive governs what is owned ("to
    Claparède's division"), so it says nothing of the name."""
    cues = Cues()
    of_nouns: Counter[str] = Counter()
    for tokens, previous, following, the, possessive in mentions:
        if previous and (previous[-1][1:2] in ("'", "’") or not _CUE_KEYS.isdisjoint(previous)):
            previous = tuple(map(_cue_word, previous))
            the = the or previous[-1] == "the"  # "die Schwester", "la Vaubyessard"
        following = CUE_WORDS.get(following, following)
        cues.total += 1
        last = bare(tokens[-1]).lower()
        place = is_place_name(tokens, surnames)
        if place:  # "King Edward Street": a place, whatever titles it holds
            cues.place_words += 1
        elif any(is_title(t) for t in tokens):
            cues.titles += 1
        if (
            following in SPEECH_VERBS
            or (previous and previous[-1] in SPEECH_VERBS)
            or (
                len(following) > 4
                and following[0].isalpha()  # not ",viewed": a clause break between
                and following.endswith(PAST_ENDINGS)
                and following not in NOT_AGENT_VERBS
            )
            or following.endswith((" his", " her"))
            or (previous and previous[-1] in FOND_WORDS)
        ):  # what speaks, acts or owns ("Hildesheim cleared the box", "in his office") or what the
            cues.speech += 1  # narrator pities ("poor Bill", "the unfortunate little Bill") is a person
        before = previous[:-1] if previous and previous[-1] == "the" else previous
        if following in TALK_VERBS or (before and before[-1] in TALK_VERBS):
            cues.talk += 1
        if last in ORGANISATION_WORDS:
            cues.organisation += 1
        of_at = -2 if previous and previous[-1] == "the" else -1
        if len(previous) > -of_at and previous[of_at] == "of" and previous[of_at - 1] in SETTLEMENT_WORDS:
            cues.place_words += 1  # "the village of Grimpen", "the town of Hunsford", "banks of the Rhine"
        elif previous and previous[-1] in PLACE_BEFORE:
            cues.place_words += 1  # "the planet Venus"
        if previous and (
            previous[-1] in VESSEL_WORDS or (len(previous) > 1 and previous[-1] == "the" and previous[-2] in VESSEL_WORDS)
        ):  # "the schooner Hesperus", "la diligence l'Hirondelle"
            cues.vessel += 1
        if len(previous) > 1 and previous[-1] == "of" and previous[-2].isalpha() and previous[-2].islower():
            of_nouns[previous[-2]] += 1  # "l'eau de Seltz"
        cues.the += the
        cues.who += following in (",who", ",whom")
        if (
            following.isalpha()
            and following.islower()
            and following not in PHRASE_WORDS
            and following not in LOCATIVE
            and following not in SPEECH_VERBS
            and not following.endswith(PAST_ENDINGS)
        ):
            cues.modifier += 1
        if possessive:
            continue
        if previous and previous[-1] == "of":
            cues.of += 1
        elif len(previous) > 1 and previous[-2:] == ("of", "the"):
            cues.of_the += 1
        preposition = previous[:-1] if previous and previous[-1] == "the" else previous
        if len(preposition) > 1 and preposition[-1] in ("to", "from") and preposition[-2] in DATIVE_VERBS:
            cues.speech += 1  # "wrote to Hildesheim", "said to the Knave": someone, not somewhere
        elif previous and (
            previous[-1] in LOCATIVE
            or (previous[-1] == "the" and len(previous) > 1 and previous[-2] in LOCATIVE)
        ):
            cues.locative += 1
    cues.same_of, cues.same_of_noun = max(
        ((n, word) for word, n in of_nouns.items() if word not in SETTLEMENT_WORDS), default=(0, "")
    )
    return cues
