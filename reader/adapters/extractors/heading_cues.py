"""Data for finding a plain text's headings: the words that name a division and the numbers they take.

The mechanism (text_headings) reads these; a new language or division is a new row here.
"""

from __future__ import annotations

VOLUME, PART, CHAPTER, SECTION = 0, 1, 2, 3
"""Ranks of divisions, outermost first; a book's headings get levels in this order."""

DIVISION_WORDS: dict[str, int] = {
    # English
    "volume": VOLUME,
    "vol": VOLUME,
    "book": PART,
    "part": PART,
    "chapter": CHAPTER,
    "chap": CHAPTER,
    "letter": CHAPTER,
    "stave": CHAPTER,
    "canto": CHAPTER,
    "adventure": CHAPTER,
    "story": CHAPTER,
    "act": CHAPTER,
    "scene": SECTION,
    "section": SECTION,
    # French
    "tome": VOLUME,
    "livre": PART,
    "partie": PART,
    "chapitre": CHAPTER,
    "lettre": CHAPTER,
    "acte": CHAPTER,
    "scène": SECTION,
    # German
    "band": VOLUME,
    "buch": PART,
    "teil": PART,
    "kapitel": CHAPTER,
    "brief": CHAPTER,
    "akt": CHAPTER,
    "aufzug": CHAPTER,
    "szene": SECTION,
    "auftritt": SECTION,
    # Spanish, Italian
    "libro": PART,
    "parte": PART,
    "capítulo": CHAPTER,
    "capitulo": CHAPTER,
    "capitolo": CHAPTER,
    "acto": CHAPTER,
    "atto": CHAPTER,
    "escena": SECTION,
    "scena": SECTION,
}
"""A word that opens a heading with a number ("CHAPTER IV", "Stave One", "PARTIE 2"), and its rank."""

NAMED_HEADINGS: frozenset[str] = frozenset(
    """prologue epilogue preface introduction foreword afterword prelude interlude postscript conclusion
    appendix etymology extracts envoi proem induction dramatis
    prologue préface avant-propos introduction épilogue conclusion appendice
    vorwort einleitung nachwort prolog epilog vorrede nachschrift
    prólogo epílogo prefacio prologo epilogo prefazione""".split()
)
"""Headings that stand without a number ("PROLOGUE", "Epilogue.", "PREFACE TO THE SECOND EDITION")."""

NUMBER_WORDS: dict[str, int] = {
    **{
        word: value
        for value, word in enumerate(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
            "sixteen seventeen eighteen nineteen twenty".split()
        )
    },
    **{
        word: value
        for value, word in enumerate(
            "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
            "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split()
        )
    },
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "last": 0,
    # French, German ordinals that stand before the division word ("PREMIÈRE PARTIE", "Erster Teil")
    "premier": 1,
    "première": 1,
    "deuxième": 2,
    "second": 2,
    "seconde": 2,
    "troisième": 3,
    "quatrième": 4,
    "cinquième": 5,
    "sixième": 6,
    "septième": 7,
    "huitième": 8,
    "neuvième": 9,
    "dixième": 10,
    "erster": 1,
    "erstes": 1,
    "erste": 1,
    "zweiter": 2,
    "zweites": 2,
    "zweite": 2,
    "dritter": 3,
    "drittes": 3,
    "dritte": 3,
    "vierter": 4,
    "viertes": 4,
    "vierte": 4,
    "fünfter": 5,
    "fünftes": 5,
    "fünfte": 5,
}
"""Numbers written as words or ordinals (with "-" joining tens and units: "twenty-one")."""
