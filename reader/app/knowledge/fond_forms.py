"""Fond and short forms of a name: "Dronushka" of "Dron", "Ratty" of "Rat", "Heidi" of "Adelheid" (the
endings as data; concept_aliases joins a form to its name where the book's scenes agree)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from reader.app.knowledge.name_forms import Cluster, T

DIMINUTIVE_ENDINGS = tuple("ushka yushka ushok enka echka ochka ichka ette chen ie y".split())
"""Endings that make a fond form of a name ("Dronushka" of "Dron", "Jessie" of "Jess", "Toady" of
"Toad"); with "y" a doubled consonant ("Ratty") or a dropped "e" ("Moly" of "Mole") too."""
CLIPPED_LENGTH = 3
"""The shortest clipped first name ("Art" of "Arthur") joined to the full name it begins."""
DIMINUTIVE_SCENES = 0.5
"""The share of a fond form's scenes that must be scenes of the name it extends."""


def diminutive_stems(word: str) -> list[str]:
    """The names (folded) that `word` (folded) may be a fond form of."""
    stems = []
    for ending in DIMINUTIVE_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            stem = word[: -len(ending)]
            stems.append(stem)
            if ending == "y":
                stems.append(stem + "e")  # "Moly"
                if stem[-1] == stem[-2]:
                    stems.append(stem[:-1])  # "Ratty"
    return stems


SHORT_FORM_LENGTH = 4
"""The shortest end of a longer name taken as its short form ("heid" of "Adelheid" for "Heidi")."""
FULL_FORM_RARITY = 10
"""How many times as often as a full form the book must use the short name it ends in."""
FOND_ENDINGS = ("i", "ie", "y")
"""Endings of a short name's fond form ("Heidi" of "-heid")."""


def full_form_of(word: str, alone: Mapping[str, int], uses: int, clusters: Sequence[Cluster[T]]) -> list[int]:
    """The one concept named by a one-word name that `word` (folded) ends in after at least three
    letters, as is or with a fond ending ("Adelheid": "Heidi"), and that the book uses far more."""
    found = set()
    for cut in range(3, len(word) - SHORT_FORM_LENGTH + 1):
        end = word[cut:]
        for short in (end, *(end + e for e in FOND_ENDINGS)):
            index = alone.get(short)
            if index is not None and len(clusters[index].mentions) >= FULL_FORM_RARITY * uses:
                found.add(index)
    return list(found) if len(found) == 1 else []
