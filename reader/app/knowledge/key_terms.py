"""The words of a book's pages and its key terms: the most distinctive lower-case words by TF-IDF.

Part of the concept map (see `concept_map`): general English (the built-in background) and words
that belong to names are left out; plurals are folded into their singular.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, compress, repeat
from operator import contains

from reader.app.knowledge.name_finder import NOT_NAMES
from reader.app.text.background_words import BACKGROUND
from reader.domain.knowledge import ConceptAlias, ExtractedConcept

_TOKEN = re.compile(r"[\w'’\-]+")
_LOWER = "a-zß-öø-ÿœ"
"""Lower-case letters: English and the Latin-1 accented ones ("c'était", "café")."""
_LOWER_PREFIX = re.compile(rf"[{_LOWER}][{_LOWER}'’\-]*[{_LOWER}]")
_LOWER_LINE = re.compile(rf"(?m)^(?:([{_LOWER}][{_LOWER}'’\-]*[{_LOWER}]).*|.*)$")
"""`_LOWER_PREFIX` at the start of each line, or "" for a line without one."""
_ASCII_SPACES = str.maketrans({c: " " for c in map(chr, range(128)) if not (c.isalnum() or c in "_'-\x01")})
"""Every ASCII character that is not part of a word to a space; \\x01 (a stand-in for ’) is kept."""
_ASCII_SPACES_BUT_ESCAPES = str.maketrans(
    {c: " " for c in map(chr, range(128)) if not (c.isalnum() or c in "_'-\x01\\")}
)
"""`_ASCII_SPACES` keeping backslashes (see `_escaped_words`)."""
_TYPOGRAPHIC_SPACES = "“”‘—–…"
"""Punctuation common in typeset books that is not part of a word."""


def term_count(page_count: int) -> int:
    """How many key terms a book gets."""
    return min(40, 6 + page_count // 5)


def page_words(text: str) -> list[str]:
    """The words of a page in order: its runs of letters, digits, apostrophes and hyphens.

    A ’ inside a word may come back as \\x01 (see `_restore`), and a capitalised word with letters
    beyond ASCII escaped ("Nat\\xe1sha", see `_escaped_words`)."""
    if "\x01" in text:
        return _TOKEN.findall(text)
    if not text.isascii():
        # curly quotes and dashes are most of what makes a page non-ASCII: with ’ as \x01 and the
        # others as spaces the page usually is ASCII, and splits as fast
        simpler = text.replace("’", "\x01")
        for mark in _TYPOGRAPHIC_SPACES:
            simpler = simpler.replace(mark, " ")
        if not simpler.isascii():
            return _escaped_words(simpler) if "\\" not in simpler else _TOKEN.findall(text)
        text = simpler
    return text.translate(_ASCII_SPACES).split()  # C loops: several times faster than a regex


def _escaped_words(text: str) -> list[str]:
    """The words of a page with letters beyond ASCII ("Natásha"): split as ASCII with those letters
    written as backslash escapes, then the words holding one put back. Where every such word starts
    with a capital (the usual case: accents are in names), they are left escaped (a name is no key
    term): a C split, several times faster than a regex."""
    spaced = text.encode("ascii", "backslashreplace").decode("ascii").translate(_ASCII_SPACES_BUT_ESCAPES)
    words = spaced.split()
    if all(spaced[start].isupper() for start in _escaped_word_starts(spaced)):
        return words
    for index in reversed(list(compress(range(len(words)), map(contains, words, repeat("\\"))))):
        original = words[index].encode("ascii").decode("unicode_escape").replace("\x01", "’")
        words[index : index + 1] = _TOKEN.findall(original)
    return words


def _escaped_word_starts(spaced: str) -> Iterator[int]:
    """Where each word holding a backslash escape starts, in a text whose words are apart by spaces
    (`_ASCII_SPACES_BUT_ESCAPES` made every other separator one)."""
    at = spaced.find("\\")
    while at != -1:
        yield spaced.rfind(" ", 0, at) + 1
        end = spaced.find(" ", at)
        if end == -1:
            return
        at = spaced.find("\\", end)


def _restore(word: str) -> str:
    return word.replace("\x01", "’")


@dataclass
class BookWords:
    """The words of every page, and how often each lower-case word occurs in the book.

    A lower-case word is the lower-case start of a word ("rock's", "well-known"); a word starting
    with a capital has none.
    """

    pages: list[list[str]]
    lower: Counter[str]
    lower_of: dict[str, str]
    """Each word that has a lower-case word, to that word."""

    @classmethod
    def of(cls, pages: Sequence[str]) -> BookWords:
        words = [page_words(text) for text in pages]
        counts = Counter(chain.from_iterable(words))
        vocabulary = list(counts)
        # one regex pass over the vocabulary, one word a line: each word's lower-case start, or ""
        forms = _LOWER_LINE.findall(_restore("\n".join(vocabulary))) if vocabulary else []
        lower_of = dict(compress(zip(vocabulary, forms, strict=True), forms))
        lower: Counter[str] = Counter()
        get = lower.get  # not `lower[form] +=`: Counter's __missing__ is a Python call per new form
        for word, form in lower_of.items():
            lower[form] = get(form, 0) + counts[word]
        return cls(words, lower, lower_of)


NOT_NOUN_ENDINGS = ("ly", "ing", "ed", "ous", "ful", "less", "ible", "able", "ish", "ive", "est")
"""Endings of adverbs, adjectives and verb forms: a key term is a thing, a being or an idea."""
DETERMINERS = frozenset(
    "the a an his her their my your our its this that these those some any every each whose another".split()
)
NOUN_SHARE = 0.25
"""The share of a term's uses a determiner must come before (right before, or one word earlier):
"the pirates", "a little house" - while "are", "till" or "replied" almost never follow one."""
CANDIDATES = 3
"""How many times `limit` candidates are checked for being nouns."""


_DETERMINER_FORMS = frozenset(
    form for word in DETERMINERS for form in (word, word.capitalize(), word.upper())
)


def _noun_like(candidates: set[str], stem_of_word: dict[str, str], pages: list[list[str]]) -> set[str]:
    """The candidate stems a determiner comes before in at least NOUN_SHARE of their uses."""
    stems = {word: stem for word, stem in stem_of_word.items() if stem in candidates}
    uses: Counter[str] = Counter()
    after_determiner: Counter[str] = Counter()
    is_candidate, is_determiner = stems.__contains__, _DETERMINER_FORMS.__contains__
    for page in pages:
        # C loops find the candidates' places on the page; only those are looked at
        for index in compress(range(len(page)), map(is_candidate, page)):
            stem = stems[page[index]]
            uses[stem] += 1
            if (index and is_determiner(page[index - 1])) or (index > 1 and is_determiner(page[index - 2])):
                after_determiner[stem] += 1
    return {stem for stem in candidates if after_determiner[stem] >= NOUN_SHARE * max(1, uses[stem])}


ENGLISH_SHARE = 0.3
"""The share of a book's lower-case words that must be general English ones for it to get key terms:
they are told from grammar words by English background words and determiners (measured: 74-83% in
the English novels of the benchmarks, 2% in Madame Bovary in French)."""


def is_english(lower: Counter[str]) -> bool:
    """Whether a book's lower-case words (with their counts) are mostly English ones."""
    background = sum(lower[word] for word in BACKGROUND if word in lower)
    return background >= ENGLISH_SHARE * sum(lower.values())


def key_terms(words: BookWords, taken: set[str], limit: int) -> list[ExtractedConcept]:
    """The book's most distinctive lower-case nouns (TF-IDF over pages), plurals folded in; none for a
    book not in English (`is_english`), whose distinctive words would be its grammar words."""
    lower = words.lower
    if not is_english(lower):
        return []
    pages = len(words.pages)
    groups: dict[str, list[str]] = {}
    excluded = BACKGROUND | NOT_NAMES | taken
    for word in lower:
        if len(word) < 3 or word in excluded or "'" in word or "’" in word or word.endswith(NOT_NOUN_ENDINGS):
            continue
        stem = word
        if word[-1] == "s":  # a plural: "es" first ("churches"), then "s"
            if word[-2] == "e" and word[:-2] in lower:
                stem = word[:-2]
            elif word[:-1] in lower:
                stem = word[:-1]
            if stem in BACKGROUND:
                continue
        group = groups.get(stem)
        if group is None:
            groups[stem] = [word]
        else:
            group.append(word)
    minimum = 3 if pages < 100 else 5
    totals = {stem: lower[forms[0]] if len(forms) == 1 else sum(map(lower.__getitem__, forms)) for stem, forms in groups.items()}
    stem_of = {form: stem for stem, forms in groups.items() if totals[stem] >= minimum for form in forms}
    lower_of = words.lower_of
    stem_of_word = {
        word: stem_of[form]
        for word, form in compress(lower_of.items(), map(stem_of.__contains__, lower_of.values()))
    }
    # per page, how often each stem occurs: C loops over the page's words
    on_page = [Counter(filter(None, map(stem_of_word.get, page))) for page in words.pages]
    document_frequency: Counter[str] = Counter(chain.from_iterable(on_page))
    scored: list[tuple[float, str]] = []
    for stem in groups:
        total = totals[stem]
        spread = document_frequency[stem]
        if total < minimum or spread < 2:
            continue
        scored.append((total * math.log(1 + pages / spread), stem))
    scored.sort(reverse=True)
    candidates = scored[: limit * CANDIDATES]
    nouns = _noun_like({stem for _, stem in candidates}, stem_of_word, words.pages)
    chosen = [(score, stem) for score, stem in candidates if stem in nouns][:limit]
    forms_chosen = {form for _, stem in chosen for form in groups[stem]}
    words_of: dict[str, set[str]] = {}
    for word, form in compress(lower_of.items(), map(forms_chosen.__contains__, lower_of.values())):
        words_of.setdefault(form, set()).add(word)
    chosen_stems = {stem for _, stem in chosen}
    pages_of: dict[str, list[tuple[int, int]]] = {stem: [] for stem in chosen_stems}
    for number, counts in enumerate(on_page, start=1):
        for stem in chosen_stems.intersection(counts):
            pages_of[stem].append((number, counts[stem]))
    concepts = []
    for _, stem in chosen:
        forms = sorted(groups[stem], key=lambda form: -lower[form])
        per_page = pages_of[stem]
        first_seen: dict[str, int] = {}
        for number, _ in per_page:
            for form in forms:
                if form not in first_seen and not words_of[form].isdisjoint(words.pages[number - 1]):
                    first_seen[form] = number
            if len(first_seen) == len(forms):
                break
        aliases = tuple(ConceptAlias(form, first_seen[form], rank) for rank, form in enumerate(forms))
        concepts.append(ExtractedConcept(forms[0], "term", aliases, tuple(per_page)))
    return concepts
