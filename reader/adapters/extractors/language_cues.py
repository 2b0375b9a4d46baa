"""Data for telling a text's language and the letters it writes beyond ASCII (used to choose a code page).

Each language has its commonest short words (read from the ASCII words of a text, which every Latin
code page decodes the same) and the accented letters its words use. Add a language by adding a row.
"""

from __future__ import annotations

COMMON_WORDS: dict[str, str] = {
    "en": "the and of to a in that was he it his her you with for as had is on not at but be i my me she him",
    "fr": "le la les de des et un une du que qui est dans pour pas il elle au sur se ne ce je vous son",
    "de": "der die das und ist nicht ich sie er zu den mit sich des auf ein eine dem es war ihr auch",
    "es": "el la los las de que y en un una por con no se del es su al lo como pero",
    "it": "il la di che e un una per non del della si le lo gli sono ma come mi",
    "pt": "o a os as de que e do da em um uma para com se no na mas por",
    "nl": "de het een en van in is dat op te zijn niet met hij ze er",
    "sv": "och att det som en på är av för med till den har jag inte om",
    "da": "og at det som en på er af for med til den har jeg ikke",
    "pl": "i w nie na to z się do jest co jak ale za o",
    "cs": "a je se v na to že s z do jsem ale tak jak",
}
"""Each language's commonest words, lower case, separated by spaces (only the ASCII ones count)."""

LETTERS: dict[str, str] = {
    "en": "éèêëïöüçàâñæœ",  # loanwords: café, naïve, Zoë, façade
    "fr": "àâæçéèêëîïôœùûüÿ",
    "de": "äöüßéàè",
    "es": "áéíóúñüàè",
    "it": "àèéìíîòóùú",
    "pt": "áâãàçéêíóôõúü",
    "nl": "éëïöüèáóúàçêîôû",
    "sv": "åäöéü",
    "da": "æøåéü",
    "pl": "ąćęłńóśźż",
    "cs": "áčďéěíňóřšťúůýž",
}
"""The letters beyond ASCII a language's words use (lower case; upper case counts too)."""

WORD_PUNCTUATION = "\u2019'\u2010\u2011-\u00b7"
"""Marks that may stand between two letters of a word (an apostrophe, a hyphen, a middle dot)."""
