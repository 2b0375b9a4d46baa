"""Finding proper names in page text: runs of capitalised words, with their context.

A run is one or more capitalised words ("Gideon Thorne", "Mr. Thorne", "St. Elwyn's"). Each
occurrence records whether it starts a sentence (where capitals prove nothing) and the words
around it, which later decide whether it names a person, a place or a term.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from reader.app.text.sentences import is_abbreviation

PERSON_TITLES = {
    "mr": "Mr.",
    "mrs": "Mrs.",
    "ms": "Ms.",
    "miss": "Miss",
    "mister": "Mister",
    "madam": "Madam",
    "dr": "Doctor",
    "doctor": "Doctor",
    "rev": "Reverend",
    "revd": "Reverend",
    "reverend": "Reverend",
    "capt": "Captain",
    "captain": "Captain",
    "sir": "Sir",
    "lady": "Lady",
    "lord": "Lord",
    "prof": "Professor",
    "professor": "Professor",
    "col": "Colonel",
    "colonel": "Colonel",
    "major": "Major",
    "gen": "General",
    "general": "General",
    "lt": "Lieutenant",
    "lieutenant": "Lieutenant",
    "sgt": "Sergeant",
    "sergeant": "Sergeant",
    "inspector": "Inspector",
    "superintendent": "Superintendent",
    "constable": "Constable",
    "chief": "Chief",
    "admiral": "Admiral",
    "father": "Father",
    "uncle": "Uncle",
    "aunt": "Aunt",
    "king": "King",
    "queen": "Queen",
    "prince": "Prince",
    "princess": "Princess",
    "duke": "Duke",
    "duchess": "Duchess",
    "count": "Count",
    "countess": "Countess",
    "baron": "Baron",
    "dame": "Dame",
    "master": "Master",
    "mistress": "Mistress",
    "monsieur": "Monsieur",
    "madame": "Madame",
    "mme": "Madame",
    "mademoiselle": "Mademoiselle",
    "mlle": "Mademoiselle",
    "herr": "Herr",
    "frau": "Frau",
    "signor": "Signor",
    "signora": "Signora",
    "señor": "Señor",
    "señora": "Señora",
    "don": "Don",
    "doña": "Doña",
    "emperor": "Emperor",
    "empress": "Empress",
    "tsar": "Tsar",
    "czar": "Tsar",
    "tsarina": "Tsarina",
    "czarina": "Tsarina",
    "archduke": "Archduke",
    "archduchess": "Archduchess",
    "marquis": "Marquis",
    "marquess": "Marquis",
    "marchioness": "Marchioness",
    "viscount": "Viscount",
    "viscountess": "Viscountess",
    "earl": "Earl",
    "sister": "Sister",
    "squire": "Squire",
    "abbé": "Abbé",
    "comte": "Count",
    "comtesse": "Countess",
    "vicomte": "Viscount",
    "vicomtesse": "Viscountess",
    "baronne": "Baroness",
    "baroness": "Baroness",
    "graf": "Count",
    "gräfin": "Countess",
    "fürst": "Prince",
    "prinz": "Prince",
    "prinzessin": "Princess",
}
"""Words before a name that make it a person, by lower-cased form (without a full stop)."""

PLACE_PREFIXES = frozenset("st saint mount mt mont monte lake port fort cape isle glen loch castle".split())
"""First words that make a place of the name they begin ("Castle Dracula", "Lake Como")."""

_CAP = r"[A-Z\u00C0-\u00DE][\w'’\-]*"
_PARTICLE = r"(?:(?:de|van|von|der|da|di|du|la|le)[ \t]+)?"
_ELIDED = r"(?<=[^\w'’\-][dlDL]['’].)"
"""A capital right after an elided French article or preposition ("d'Yvetot", "l'Abbaye"): a name's."""
_RUN = re.compile(
    rf"[A-Z\u00C0-\u00DE](?:(?<![\w'’\-].)|{_ELIDED})[\w'’\-]*(?:\.?[ \t]*\n?[ \t]*{_PARTICLE}{_CAP})*"
)
"""A run of capitalised words not inside a word. The capital comes first (the character before it
is checked after), so the regex engine can skip ahead to capitals: about 1.5 times as fast as a
pattern starting with the look-behind."""
_MASK_CAPITALS = str.maketrans({chr(c): "\x01" for c in range(ord("A"), ord("Z") + 1)})
_MASKED_WORD = r"[\w\x01'\-]"
_MASKED_RUN = re.compile(
    rf"\x01(?:(?<!{_MASKED_WORD}.)|(?<=[^\w\x01'\-][dl\x01]'.)){_MASKED_WORD}*"
    rf"(?:\.?[ \t]*\n?[ \t]*{_PARTICLE}\x01{_MASKED_WORD}*)*"
)
"""`_RUN` for ASCII text whose capitals are masked as \\x01: one character to search for is faster
still, and the spans are the same."""
_TOKEN = re.compile(r"[\w'’\-]+\.?")
_WORD_CAPITAL = re.compile(r"(?<![\w'’\-])[A-Z\u00C0-\u00DE]")
_WORDS = re.compile(r"[\w'’\-]+")
_PRONOUN_I = re.compile(r"^I(?:['’]\w*)?\.?$")
_WORD_BEFORE_STOP = re.compile(r"(\w+)\.$")
_NEXT_WORD = re.compile(r"([^\w\n]{0,3})([\w'’\-]+)")
"""The word after a run (used with `match`, so anchored where it starts)."""
_OPENERS = "\"“‘'([«"
_CLOSERS = "\"”’')]»"


NOT_NAMES = frozenset(
    """the a an and but or if so as at by in of on to for from with he she it they we you his her its
    their our my your this that these those there here then when where what who whom whose why how
    not no yes oh ah well now all some any each every both either neither one two three four five six
    seven eight nine ten first last next only just even still yet also too very much more most such
    god gods heaven lord christ christmas easter sunday monday tuesday wednesday thursday friday
    saturday january february march april may june july august september october november december
    english french german dutch spanish italian irish scottish scots welsh cornish british american
    russian chinese japanese indian european african christian catholic protestant latin greek
    chapter part book volume section contents preface prologue epilogue appendix index bible
    thy thee thou majesty highness excellency lordship ladyship eminence holiness mamma mama papa
    sirs messrs co sons bros ltd esq dear yours sincerely faithfully
    polish turkish swedish danish norwegian finnish swiss portuguese austrian prussian hungarian
    bohemian slovak czech serbian roumanian romanian bulgarian croatian albanian moldavian ukrainian
    lithuanian estonian latvian egyptian persian arab arabian syrian tartar mongol siberian bavarian saxon
    flemish belgian canadian australian mexican brazilian peruvian chilean argentine cuban
    venetian florentine roman neapolitan sicilian parisian londoner muscovite""".split()
)
CALENDAR_WORDS = frozenset(
    """sunday monday tuesday wednesday thursday friday saturday january february march april june july
    august september october november december""".split()
)
"""Days and months: their plurals ("Sundays") are no names either."""
NOT_NAMES = NOT_NAMES | {word + "s" for word in CALENDAR_WORDS}
ADDRESS_WORDS = frozenset("majesty majesties highness highnesses excellency lordship ladyship eminence holiness".split())
"""Words of a form of address ("Your Imperial Majesty", "His Serene Highness"): never part of a name."""
"""Capitalised words that are never a person, place or term of their own (compared lower-cased)."""


class NameOccurrence(NamedTuple):
    """One run of capitalised words on a page."""

    page: int
    tokens: tuple[str, ...]
    """The words as written, without a final possessive ("Thorne" for "Thorne's")."""
    initial: bool
    """The run starts a sentence (or a quotation), so its first capital may be grammar."""
    start: int
    end: int
    """Where the run is in the page text (for its context, see `context_of`)."""
    possessive: bool = False
    """The run ended in "'s" (stripped from `tokens`)."""

    @property
    def text(self) -> str:
        return surface(self.tokens)


def surface(tokens: tuple[str, ...]) -> str:
    return " ".join(tokens)


@lru_cache(maxsize=65536)
def bare(token: str) -> str:
    """A token without its full stop, e.g. "Mr" for "Mr."."""
    return token[:-1] if token.endswith(".") else token


@lru_cache(maxsize=65536)
def is_title(token: str) -> bool:
    return bare(token).lower() in PERSON_TITLES


def strip_possessive(token: str) -> str:
    """A name word without a possessive or a contraction ("Dinah's", "Dinah’ll" -> "Dinah")."""
    for suffix in ("'s", "’s", "'ll", "’ll", "'ve", "’ve", "'re", "’re", "'d", "’d"):
        if token.endswith(suffix) and len(token) > 2:
            return token[: -len(suffix)]
    return token.rstrip("'’-")


def starts_sentence(text: str, start: int) -> bool:
    """Whether the word at `start` begins a sentence (or a paragraph, a quotation, a list after ":")."""
    i = start - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    if i < 0:
        return True
    c = text[i]
    if c == "\n":
        i -= 1
        while i >= 0 and text[i] in " \t":
            i -= 1
        if i < 0 or text[i] == "\n":
            return True
        c = text[i]
    if c == "-" and i > 0 and text[i - 1] == "-":
        return True  # a typed dash ("-- C'était"), as "—"
    if c.isalnum() or c in "'’-,;":
        # an opening single quote; after a letter an elision ("l'Empereur", "d'Yvetot")
        return c in "'’" and i == start - 1 and not (i > 0 and text[i - 1].isalpha())
    if c in _OPENERS and (i == start - 1 or c in "(["):
        return True
    if c in _CLOSERS:
        while i >= 0 and text[i] in _CLOSERS:
            i -= 1
        return i >= 0 and text[i] in ".!?…"
    if c == ".":
        j = i - 1
        while j >= 0 and text[j].isalpha():
            j -= 1
        return not (j < i - 1 and is_abbreviation(text[j + 1 : i]))
    return c in "!?…:—–"


def sentence_start_by_prefix(before: str) -> bool | None:
    """`starts_sentence` for a word preceded by `before` (its last few characters, with more text
    further back), or None when those characters are not enough to tell."""
    start = len(before)
    i = start - 1
    while i >= 0 and before[i] in " \t":
        i -= 1
    if i < 0:
        return None
    c = before[i]
    if c == "\n":
        i -= 1
        while i >= 0 and before[i] in " \t":
            i -= 1
        if i < 0:
            return None
        if before[i] == "\n":
            return True
        c = before[i]
    if c == "-" and i > 0 and before[i - 1] == "-":
        return True  # a typed dash ("-- C'était"), as "—"
    if c == "-" and i == 0:
        return None
    if c.isalnum() or c in "'’-,;":
        if c in "'’" and i == start - 1 and i == 0:
            return None  # a quote, or an elision: the letter before tells
        return c in "'’" and i == start - 1 and not before[i - 1].isalpha()
    if c in _OPENERS and (i == start - 1 or c in "(["):
        return True
    if c in _CLOSERS:
        while i >= 0 and before[i] in _CLOSERS:
            i -= 1
        return None if i < 0 else before[i] in ".!?…"
    if c == ".":
        j = i - 1
        while j >= 0 and before[j].isalpha():
            j -= 1
        return None if j < 0 else not (j < i - 1 and is_abbreviation(before[j + 1 : i]))
    return c in "!?…:—–"


def context_of(text: str, start: int, end: int, floor: int = 0) -> tuple[tuple[str, ...], str]:
    """Up to three lower-cased words right before a run (nearest last) and the word after it.

    `floor` is where the run's page begins when `text` holds more than one page.
    """
    before = text[max(floor, start - 40) : start].rstrip()
    previous: tuple[str, ...] = ()
    last = before[-1:]
    if last and (last.isalnum() or last in "'’-"):
        previous = tuple(map(str.lower, _WORDS.findall(before)[-3:]))
    elif last == ".":
        word = _WORD_BEFORE_STOP.search(before)
        if word and is_abbreviation(word.group(1)):
            previous = (word.group(1).lower(),)
    after = _NEXT_WORD.match(text, end, end + 30)
    if not after:
        return previous, ""
    following = after.group(2).lower()
    # a word after a stop, comma or quote belongs to the next clause (“... the Danube,” answered X):
    # it comes with that mark first (",who", "!who")
    stop = after.group(1).strip(" \t'’")
    return previous, stop[0] + following if stop else following


def run_spans(text: str) -> list[tuple[int, int]]:
    """Where each run of capitalised words is in `text`, in order (before splitting into names)."""
    if text.isascii() and "\x01" not in text:
        spans = list(map(re.Match.span, _MASKED_RUN.finditer(text.translate(_MASK_CAPITALS))))
    else:
        spans = list(map(re.Match.span, _RUN.finditer(text)))
    return _cut_at_dashes(text, spans) if "--" in text else spans


def _cut_at_dashes(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Runs cut where a typed dash ("--") joins words ("Mina Harker's Journal--continued"); what
    follows goes on from its next capitalised word."""
    out: list[tuple[int, int]] = []
    for start, end in spans:
        while (dash := text.find("--", start, end)) != -1:
            if dash > start:
                out.append((start, dash))
            start = dash
            while start < end and text[start] == "-":
                start += 1
            if start < end and not text[start].isupper():  # "--continued. Mr. Morris": on at "Mr."
                capital = _WORD_CAPITAL.search(text, start, end)
                start = capital.start() if capital else end
        if start < end:
            out.append((start, end))
    return out


@lru_cache(maxsize=65536)
def split_run(run: str) -> tuple[tuple[tuple[str, ...], int, int, bool], ...]:
    """A run's names: (tokens, start, end, possessive) split at sentence stops and the pronoun I."""
    found: list[tuple[tuple[str, ...], int, int, bool]] = []
    tokens: list[str] = []
    start = end = previous_end = 0

    def emit(last: int) -> None:
        if any(len(bare(t)) > 1 and bare(t).isupper() for t in tokens):
            return  # ALL-CAPS words are emphasis or headings, not names
        cleaned = tuple(t.strip("_") for t in (*tokens[:-1], strip_possessive(tokens[-1])))  # _italics_
        if not cleaned[-1] or (len(cleaned) == 1 and len(bare(cleaned[0])) < 2):
            return
        found.append((cleaned, start, last, cleaned[-1] != tokens[-1]))

    pieces = list(_TOKEN.finditer(run))
    for index, piece in enumerate(pieces):
        token = piece.group()
        if not tokens:
            start = piece.start()
        previous_end, end = end, piece.end()
        if _PRONOUN_I.match(token):  # "I", "I'm": never part of a name
            if tokens:
                emit(previous_end)
            tokens = []
            continue
        if token.endswith(".") and not is_abbreviation(token[:-1]):
            tokens.append(token[:-1])
            emit(end)
            tokens = []
        elif (
            tokens
            and strip_possessive(tokens[-1]) != tokens[-1]
            and (is_title(token) or len(pieces) - index >= 2)
        ):
            # "Bilibin's Prince Andrew", "Ulloa's South America": a possessive, then another name
            # (one word after it is what the owner has: "Lover's Lane", "Seward's Diary")
            emit(previous_end)
            start = piece.start()
            tokens = [token]
        else:
            tokens.append(token)
    if tokens:
        emit(end)
    return tuple(found)


def find_names(text: str, page: int) -> list[NameOccurrence]:
    """Every run of capitalised words on one page, split at sentence ends; grammar words skipped."""
    found: list[NameOccurrence] = []
    for offset, run_end in run_spans(text):
        run = text[offset:run_end]
        if run.lower() in NOT_NAMES:
            continue
        for tokens, start, end, possessive in split_run(run):
            begin = offset + start
            found.append(
                NameOccurrence(page, tokens, starts_sentence(text, begin), begin, offset + end, possessive)
            )
    return found
