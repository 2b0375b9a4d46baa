"""Common nouns of a book in a language that capitalises every noun (German), from the book's own usage.

In German "Tür", "Zimmer" and "Schwester" are capitalised mid-sentence as often as "Gregor". What
tells them apart is how the book uses them: a common noun mostly follows an article or another
determiner ("die Tür", "seinem Zimmer", "der alten Bedienerin"), or the book also writes it
inflected or as the end of a compound ("Türe", "Zimmers", "Nebenzimmer"); a name stands alone
("Gregor", "Grete") and inflects only in the genitive ("Gregors"). The words per language are data
(`LANGUAGES`); a book is in one of those languages when its lower-case words are mostly that
language's grammar words.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import chain, compress
from operator import itemgetter


@dataclass(frozen=True)
class NounLanguage:
    """What the book's evidence is read with, for one language that capitalises its nouns."""

    markers: frozenset[str]
    """Frequent grammar words of the language that other languages do not write."""
    determiners: frozenset[str]
    """Words (articles, possessives, demonstratives, fused prepositions) that come before a noun."""
    inflections: tuple[str, ...]
    """Endings a noun takes (not a name, apart from the genitive)."""
    genitive: str
    """The ending a name takes in the genitive ("Gregors")."""
    noun_endings: tuple[str, ...]
    """Endings only common nouns have ("Ordnung", "Zerstreutheit")."""
    lower: str
    upper: str


LANGUAGES = {
    "de": NounLanguage(
        markers=frozenset("und der nicht sich ist ich auch dem des nur noch wie auf mit".split()),
        determiners=frozenset(
            """der die das den dem des ein eine einen einem einer eines kein keine keinen keinem keiner
            keines mein meine meinen meinem meiner meines dein deine deinen deinem deiner deines sein
            seine seinen seinem seiner seines ihr ihre ihren ihrem ihrer ihres unser unsere unseren
            unserem unserer unseres euer eure euren eurem eurer eures dieser diese dieses diesen
            diesem jener jene jenes jenen jenem jeder jede jedes jeden jedem welcher welche welches
            welchen welchem solche solchen manche manchen alle allen im am zum zur vom beim ins ans
            aufs durchs fürs ums""".split()
        ),
        inflections=("e", "en", "es", "er", "n", "ern", "ns"),
        genitive="s",
        noun_endings=("ung", "heit", "keit", "schaft", "tion", "tät", "nis", "tum", "chen", "lein"),
        lower="a-zäöüß",
        upper="A-ZÄÖÜ",
    )
}

MARKER_SHARE = 0.08
"""The share of a book's lower-case words that must be one language's markers for the book to be in
it (German prose: about 20%; English and French books: under 1%)."""
DETERMINER_SHARE = 0.3
"""The share of a capitalised word's mid-sentence uses after a determiner from which it is a common
noun (measured on Die Verwandlung: nouns 0.4-1.0, "Gregor" 0.06, "Grete" 0.15)."""
ADJECTIVES_BETWEEN = 3
ADJECTIVE_ENDINGS = ("e", "en", "em", "er", "es")
"""Endings of a German adjective between a determiner and its noun ("der alten Bedienerin")."""
COMPOUND_HEAD = 4
"""The shortest word taken as the end of a longer compound ("Zimmer" of "Nebenzimmer")."""


@dataclass(frozen=True)
class BookNouns:
    """The capitalised words of a book that are common nouns, and the genitives of its other words."""

    nouns: frozenset[str]
    genitives: dict[str, str]
    """A name's genitive -> the name ("Gregors" -> "Gregor")."""


def language_of(lower: Counter[str]) -> NounLanguage | None:
    """The noun-capitalising language a book is in, from its lower-case words, if any."""
    total = sum(lower.values())
    for language in LANGUAGES.values():
        if total and sum(map(lower.__getitem__, language.markers)) >= MARKER_SHARE * total:
            return language
    return None


def book_nouns(text: str, lower: Counter[str]) -> BookNouns | None:
    """The common nouns among the capitalised words of a book in a noun-capitalising language (None
    for a book in any other language)."""
    language = language_of(lower)
    if language is None:
        return None
    mid, after = _uses(text, language)
    capitalised = set(mid) | set(after)
    compound_ends = {c.lower()[i:] for c in capitalised for i in range(3, len(c) - COMPOUND_HEAD + 1)}

    def family(w: str) -> bool:
        """The book writes the word inflected, or it is an inflected form, or ends a compound."""
        for ending in language.inflections:  # loops, not any(): this runs for every capitalised word
            if w + ending in capitalised:
                return True
        for ending in language.inflections:
            if w.endswith(ending) and len(w) - len(ending) >= 3 and w[: -len(ending)] in capitalised:
                return True
        return len(w) >= COMPOUND_HEAD and w.lower() in compound_ends

    nouns = {
        w
        for w in capitalised
        if after[w] >= DETERMINER_SHARE * max(1, mid[w]) or w.endswith(language.noun_endings) or family(w)
    }
    genitives = {
        w: w[: -len(language.genitive)]
        for w in capitalised - nouns
        if w.endswith(language.genitive)
        and w[: -len(language.genitive)] in capitalised
        and w[: -len(language.genitive)] not in nouns
        and mid[w[: -len(language.genitive)]] >= mid[w]
    }
    return BookNouns(frozenset(nouns), genitives)


_PUNCTUATION = "»«\"“”„‘’'()[]:;.!?-–—_*"
_PUNCTUATION_OR_COMMA = _PUNCTUATION + ","


def _uses(text: str, language: NounLanguage) -> tuple[Counter[str], Counter[str]]:
    """How often each capitalised word is used mid-sentence (after a lower-case word or a comma), and
    how often right after a determiner, or after a determiner and up to three adjectives ("der
    alten Bedienerin"), or after the genitive of another capitalised word ("Gregors Aussehen")."""
    tokens = text.split()
    mids: list[str] = []
    afters: list[str] = []
    owned: Counter[tuple[str, str]] = Counter()
    determiners = language.determiners
    # C loops find the capitalised tokens (or quoted ones: "»Gregor"); only those are looked at
    firsts = list(map(itemgetter(0), tokens))
    quoted = compress(range(len(tokens)), map(_PUNCTUATION.__contains__, firsts))
    capitals = chain(
        compress(range(len(tokens)), map(str.isupper, firsts)),
        (index for index in quoted if tokens[index][1:2].isupper()),
    )
    for index in sorted(capitals):  # reading order, as counted before
        if not index:
            continue
        token = tokens[index]
        previous = tokens[index - 1]
        if not (previous[-1].islower() or previous[-1] == ","):
            continue
        word = token.strip(_PUNCTUATION_OR_COMMA)
        if not word or not word[0].isupper():
            continue
        mids.append(word)
        if previous[0].isupper() and previous.endswith(language.genitive):
            owned[(previous.rstrip(_PUNCTUATION)[: -len(language.genitive)], word)] += 1
        back = index - 1
        while True:
            before = tokens[back].rstrip(",")
            if before in determiners:
                afters.append(word)
                break
            if index - back > ADJECTIVES_BETWEEN or not before.endswith(ADJECTIVE_ENDINGS) or not back:
                break
            back -= 1
    mid, after = Counter(mids), Counter(afters)  # counted in C, each word first where it first comes
    for (owner, word), count in owned.items():
        if mid[owner]:  # "Gregors Aussehen": a name's genitive stands for a determiner ("sein Aussehen")
            after[word] += count
    return mid, after
