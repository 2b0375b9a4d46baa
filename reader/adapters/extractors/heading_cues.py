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

LAST_CHAPTER: dict[str, int] = {"last": 0}
"""Words that stand for a number in "Chapter the Last" (numbers themselves: reader.domain.numbering)."""
