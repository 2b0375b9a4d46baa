"""The kind of a name that its cues leave open, from what the book does with the word: a capitalised
common word that never acts ("Soup"), a word the book mostly writes in lower case ("Time"), a
"the" name that is a thing ("the Heat-Ray"), and names that are only one list's items."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from reader.app.knowledge.book_mentions import Name
from reader.app.knowledge.name_forms import Cluster
from reader.app.knowledge.name_kinds import Cues
from reader.app.text.background_words import BACKGROUND

COMMON_NOUN_ENDINGS = ("tude", "tion", "sion", "ness", "ment", "ity", "ism", "ship", "hood", "ology")
"""Endings of English common nouns ("Latitude", "Temptation"); a word with one that never speaks,
acts or bears a title is no one."""


def common_word(word: str, lower: Counter[str]) -> bool:
    """Whether a name's word is also a common word: the book writes it in lower case, it is general
    English, or it ends like a common noun."""
    folded = word.lower()
    return lower[folded] > 0 or folded in BACKGROUND or folded.endswith(COMMON_NOUN_ENDINGS)


def abstraction(cluster: Cluster[tuple[int, int, bool]], cues: Cues, lower: Counter[str]) -> bool:
    """Whether a one-word "place" is a common word capitalised ("travel in Time"): the book writes it
    in lower case at least as often, and fewer than half its mentions follow a place preposition or
    "the" ("in London", "the Thames"; "Reading", a town, is 10 times capitalised to 4 "reading")."""
    return (
        len(cluster.core) == 1
        and not (cluster.family or cluster.titles or cues.place_words)
        and lower[cluster.core[0].lower()] >= len(cluster.mentions)
        and 2 * cues.locative < cues.total
        and 2 * cues.the < cues.total
    )


ONE_PASSAGE_CHARS = 400
"""A name with no sign of someone or somewhere (no speech, action, title, owner's 's, place word or
preposition) whose mentions are one list's items within this many characters ("Aus dem Leben; Aus
Nah und Fern", titles of books) names nothing to show."""


def listed_only(
    cluster: Cluster[tuple[int, int, bool]], cues: Cues, names: Mapping[str, Name], text: str
) -> bool:
    """Whether a concept shows no sign of someone or somewhere and its mentions are items of one
    list: all within `ONE_PASSAGE_CHARS`, each after the first right after a comma or a semicolon."""
    if cues.titles or cues.speech or cues.talk or cues.place_words or cues.locative or cluster.titles:
        return False
    if cluster.family or any(names[key].possessive for key in cluster.keys):
        return False
    starts = sorted(start for start, _, _ in cluster.mentions)
    return starts[-1] - starts[0] < ONE_PASSAGE_CHARS and all(
        text[start - 2 : start].strip() in (",", ";") for start in starts[1:]
    )


THE_ACTS_SHARE = 0.25
"""The share of a "the" name's mentions, acting, from which an uncommon word names someone ("the
Turk renewed his promises"), and, after a preposition, somewhere ("of the Rhine", "across the Wey")."""


def the_name_kind(word: str, cues: Cues, lower: Counter[str]) -> str:
    """The kind of a one-word name used mostly after "the" that `kind_of` takes for a term: a word
    the book never writes in lower case and no common word ("the Turk", "the Rhine") is someone when
    it acts as often as it follows prepositions, somewhere when it follows them; else a term
    ("the Heat-Ray", and a word mostly written before a noun: "the Puritan settlement")."""
    if common_word(word, lower) or "-" in word or cues.modifier * 3 >= cues.total:
        return "term"  # "the Heat-Ray"; "the Puritan settlement", "Puritan elders": a modifier
    share = THE_ACTS_SHARE * cues.total
    places = cues.locative + cues.of_the
    if cues.speech >= max(3, share) and cues.speech > places:
        return "person"
    return "place" if places >= share else "term"
