"""Every name mention in a book's text, found in one pass: runs of capitalised words split into
names, judged against the whole book (a capital at the start of a sentence proves nothing), grouped by
name with where each stands, and the names the book sets side by side."""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import compress, starmap
from operator import add, itemgetter, sub

from reader.app.knowledge.name_finder import (
    ADDRESS_WORDS,
    NOT_NAMES,
    PLACE_PREFIXES,
    bare,
    context_of,
    is_title,
    run_spans,
    sentence_start_by_prefix,
    split_run,
    starts_sentence,
    strip_possessive,
)
from reader.app.knowledge.name_kinds import ADDRESS_TITLES, PLACE_OR_BODY_WORDS
from reader.app.knowledge.noun_capitals import BookNouns, book_nouns

NUMBER_WORDS = frozenset(
    """one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
    sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred
    thousand million""".split()
)
NAMED_NUMBER_USES = 3
"""How often a number word must be capitalised mid-sentence, and more than twice as often as it is
written in lower case, to be a name ("Five", "Seven": the gardeners in Alice)."""


@lru_cache(maxsize=65536)
def core_tokens(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """The name words of a run: no titles before them, no initials ("Rev. J. Ashby" -> ("Ashby",));
    a title's word after a name word is a name ("Mary King"); "St. Clair" after a title or a first
    name is one word."""
    lead = leading_titles(tokens)
    core = [
        bare(t) if bare(t).lower() not in PLACE_PREFIXES else t
        for t in tokens[lead:]
        if len(bare(t)) > 1 and not t.islower()  # "de" of "Miss de Bourgh"
    ]
    for i in range(len(core) - 2, -1, -1):
        if (i or lead) and bare(core[i]).lower() in SURNAME_PREFIXES:
            core[i : i + 2] = [f"{core[i]} {core[i + 1]}"]  # "Mrs. St. Clair": one surname
    return tuple(core)


SURNAME_PREFIXES = frozenset(("st", "saint"))
"""Words that after a title or a first name begin a surname of two words ("Neville St. Clair",
"Lord St. Simon"); first in a name they make a place ("St. Petersburg")."""


def leading_titles(tokens: tuple[str, ...]) -> int:
    """How many of a run's first words are titles ("General Field Marshal Kutúzov": 1)."""
    count = 0
    while count < len(tokens) and (is_title(tokens[count]) or len(bare(tokens[count])) == 1):
        count += 1
    return count if count < len(tokens) else len(tokens)


_PAGE_BREAK = "\n\n\n"
"""Between pages in the book's text: no name runs across it, no sentence context either."""
_UNSEEN = object()


class Name:
    """Every mention of one name (one alias) in the book: where it is and what precedes it."""

    __slots__ = ("key", "tokens", "mentions", "the", "possessive")

    def __init__(self, key: str, tokens: tuple[str, ...]) -> None:
        self.key = key
        self.tokens = tokens
        self.mentions: list[tuple[int, int, bool]] = []
        """(start, end, preceded by a stripped "the") in the book's text, in reading order."""
        self.the = 0
        """How many mentions follow a "the" stripped from the run ("The Teeth" -> "Teeth")."""
        self.possessive = 0


@dataclass
class BookNames:
    """The book's text as one string (pages apart) and the name runs found in it."""

    text: str
    starts: list[int]
    """Where each page's text begins in `text` (page 1 first)."""
    names: dict[str, Name]
    titles: list[tuple[int, int, bool, tuple[str, ...]]]
    """Runs that are titles alone ("the Reverend"): (start, end, the, tokens) in reading order."""
    apart: set[frozenset[str]]
    """Names the book sets side by side ("Mr. Darcy and Colonel Fitzwilliam"): two people."""
    nouns: BookNouns | None = None
    """For a book in a language that capitalises nouns (German), its common nouns."""

    @cached_property
    def surnames(self) -> frozenset[str]:
        """Words the book writes right after "Mr.", "Miss" and the like ("Miss Vale"): a person's."""
        return frozenset(
            bare(name.tokens[1])
            for name in self.names.values()
            if len(name.tokens) == 2 and bare(name.tokens[0]).lower() in ADDRESS_TITLES
        )

    def page(self, position: int) -> int:
        return bisect_right(self.starts, position)

    def context(self, start: int, end: int) -> tuple[tuple[str, ...], str]:
        return context_of(self.text, start, end, self.starts[self.page(start) - 1])


def _scan(texts: Sequence[str]) -> tuple[str, list[int], list[int], list[str]]:
    """The book's text (pages apart), where its pages start, and where each run of capitalised
    words starts and what it is."""
    text = _PAGE_BREAK + _PAGE_BREAK.join(texts)
    starts, at = [], 0
    for page in texts:
        at += len(_PAGE_BREAK)
        starts.append(at)
        at += len(page)
    spans = run_spans(text)  # one regex pass over the book, then C loops (map) over its matches
    return text, starts, list(map(itemgetter(0), spans)), list(map(text.__getitem__, starmap(slice, spans)))


def find_book_names(texts: Sequence[str], lower: Counter[str]) -> BookNames:
    """Every name mention in the book, grouped by name; sentence-initial grammar words dropped,
    common words rejected (what `find_names` finds page by page, judged as a whole)."""
    text, starts, run_starts, runs = _scan(texts)
    nouns = book_nouns(text, lower)
    pieces: dict[str, tuple[tuple[tuple[str, ...], int, int, bool, bool | None], ...]] = {}
    for run in set(runs):
        found = split_run(run)
        if nouns is not None:
            found = _cut_at_nouns(run, found, nouns)
        pieces[run] = (
            ()
            if run.lower() in NOT_NAMES and run.lower() not in NUMBER_WORDS  # "said Five": judged below
            else tuple(
                (tokens, start, end - start, possessive, starts_sentence(run, start) if start else None)
                for tokens, start, end, possessive in found
            )
        )
    # one pass over the runs: their start positions grouped by (tokens, initial, possessive, length)
    groups: dict[tuple[tuple[str, ...], bool, bool, int], list[int]] = {}
    by_prefix: dict[str, bool | None] = {}
    named = {run for run, found in pieces.items() if found}
    for run, at in compress(zip(runs, run_starts, strict=True), map(named.__contains__, runs)):
        for tokens, offset, length, possessive, initial in pieces[run]:
            begin = at + offset
            if initial is None:
                prefix = text[begin - 2 : begin]
                decided = by_prefix.get(prefix, _UNSEEN)
                if decided is _UNSEEN:
                    decided = by_prefix[prefix] = sentence_start_by_prefix(prefix)
                initial = starts_sentence(text, begin) if decided is None else bool(decided)
            seen = (tokens, initial, possessive, length)
            group = groups.get(seen)
            if group is None:
                groups[seen] = [begin]
            else:
                group.append(begin)
    judge = _judge(groups, lower)
    names: dict[str, Name] = {}
    titles: list[tuple[int, int, bool, tuple[str, ...]]] = []
    for (tokens, initial, possessive, length), begins in groups.items():
        verdict = judge(tokens, initial)
        if verdict is None:
            continue
        tokens, the = verdict
        if all(is_title(t) for t in tokens):
            titles.extend((begin, begin + length, the, tokens) for begin in begins)
            continue
        key = " ".join(tokens)
        name = names.get(key)
        if name is None:
            name = names[key] = Name(key, tokens)
        name.mentions.extend((begin, begin + length, the) for begin in begins)
        name.the += the * len(begins)
        name.possessive += possessive * len(begins)
    for name in names.values():
        name.mentions.sort()  # reading order (each group is in order already: a merge)
    titles.sort()
    return BookNames(text, starts, names, titles, _side_by_side(text, run_starts, runs, pieces, judge), nouns)


def _cut_at_nouns(
    run: str, found: Sequence[tuple[tuple[str, ...], int, int, bool]], nouns: BookNouns
) -> tuple[tuple[tuple[str, ...], int, int, bool], ...]:
    """A run's names without the book's common nouns ("Anblick von Gregors Zimmer" -> "Gregors"),
    each genitive as its name ("Gregors" -> "Gregor", possessive)."""
    out: list[tuple[tuple[str, ...], int, int, bool]] = []
    for tokens, start, end, possessive in found:
        bares = set(map(bare, tokens))
        if nouns.nouns.isdisjoint(bares) and nouns.genitives.keys().isdisjoint(bares):
            out.append((tokens, start, end, possessive))
            continue
        at = start
        piece: list[tuple[str, int]] = []
        for index, token in enumerate((*tokens, "")):
            if token:
                at = run.find(token, at)
                if at < 0:  # a cleaned token not written as such (never expected): leave the run whole
                    return tuple(found)
            if token and not (bare(token) in nouns.nouns and not is_title(token)):
                piece.append((token, at))
                at += len(token)
                continue
            while piece and piece[-1][0].islower():  # "von", "der" between names stay out of either
                piece.pop()
            while piece and piece[0][0].islower():
                piece.pop(0)
            if piece:
                words = tuple(t for t, _ in piece)
                last_end = piece[-1][1] + len(piece[-1][0])
                owned = possessive if index == len(tokens) else False
                stem = nouns.genitives.get(bare(words[-1]))
                if stem is not None:
                    words, owned = (*words[:-1], stem), True
                out.append((words, piece[0][1], last_end, owned))
            piece = []
            if token:
                at += len(token)
    return tuple(out)


SIDE_BY_SIDE = frozenset((" and ", " or ", " nor ", " with ", ", and ", " & ", " and his ", " and her "))
"""What stands between two names the book sets side by side as two people ("Mr. Darcy and Colonel
Fitzwilliam", "Lady Catherine and her daughter Anne")."""
_GAPS = frozenset(map(len, SIDE_BY_SIDE))


def _side_by_side(
    text: str,
    run_starts: Sequence[int],
    runs: Sequence[str],
    pieces: Mapping[str, Sequence[tuple[tuple[str, ...], int, int, bool, bool | None]]],
    judge: Callable[[tuple[str, ...], bool], tuple[tuple[str, ...], bool] | None],
) -> set[frozenset[str]]:
    """Pairs of names (keys) the book writes side by side, which are two people (or places)."""
    ends = list(map(add, run_starts, map(len, runs)))
    gaps = map(sub, run_starts[1:], ends)
    apart: set[frozenset[str]] = set()
    for i in compress(range(len(runs) - 1), map(_GAPS.__contains__, gaps)):
        if text[ends[i] : run_starts[i + 1]] not in SIDE_BY_SIDE:
            continue
        left, right = pieces.get(runs[i]), pieces.get(runs[i + 1])
        if not left or not right:
            continue
        tokens, offset, _, _, initial = left[-1]
        first = judge(tokens, starts_sentence(text, run_starts[i] + offset) if initial is None else initial)
        second = judge(right[0][0], False)
        if first and second and first[0] != second[0]:
            apart.add(frozenset((" ".join(first[0]), " ".join(second[0]))))
    return apart


def _judge(
    groups: Mapping[tuple[tuple[str, ...], bool, bool, int], Sequence[int]], lower: Counter[str]
) -> Callable[[tuple[str, ...], bool], tuple[tuple[str, ...], bool] | None]:
    """Whether a run is a name, given every run of the book: (name tokens, preceded by "the"), or None."""
    mid_runs = set()
    mid_tokens: Counter[str] = Counter()
    for (tokens, initial, _, _), begins in groups.items():
        if not initial:
            mid_runs.add(tokens)
            for token in tokens:
                mid_tokens[token] += len(begins)

    def not_name(word: str) -> bool:
        """A grammar word or a number, unless a number the book writes as a name ("said Five")."""
        folded = word.lower()
        if folded in NUMBER_WORDS:
            return mid_tokens[word] < NAMED_NUMBER_USES or mid_tokens[word] <= 2 * lower[folded]
        head, _, tail = folded.partition("-")  # "Christmas-time": no name, then a common word
        return folded in NOT_NAMES or (tail.isalpha() and head in NOT_NAMES and word.endswith(tail))

    def common(token: str) -> bool:
        word = bare(token)
        if is_title(token):
            return False
        return not_name(word) or lower[word.lower()] >= max(1, mid_tokens[token])

    def judge(tokens: tuple[str, ...], initial: bool) -> tuple[tuple[str, ...], bool] | None:
        the = False
        if initial:
            while len(tokens) > 1 and tokens not in mid_runs and common(tokens[0]):
                the = bare(tokens[0]).lower() == "the"
                tokens = tokens[1:]
        while len(tokens) > 1 and bare(tokens[0]).lower() in ("the", "a", "an"):
            the, tokens = True, tokens[1:]
        while len(tokens) > 1 and len(bare(tokens[0])) == 1:  # "T. Tobias": an initial, not a name
            tokens = tokens[1:]
        while (
            len(tokens) > 1
            and tokens[-2].endswith(("'s", "’s"))
            and bare(tokens[-1]).lower() not in PLACE_OR_BODY_WORDS
            and not is_title(strip_possessive(tokens[-2]))
            and (common(tokens[-1]) or lower[bare(tokens[-1]).lower()] >= 2)
        ):
            # "Seward's Diary", "Harker's Journal" (a word the book also writes in lower case): the
            # owner is the name, even where headings capitalise the word more often than the text
            tokens = (*tokens[:-2], strip_possessive(tokens[-2]))
        if all(is_title(t) for t in tokens):
            return tokens, the
        core = core_tokens(tokens)
        if not core or all(not_name(bare(t)) for t in core):
            return None
        if len(core) > 1 and all(bare(t).lower() in NUMBER_WORDS for t in core):
            return None  # "Eight Hundred and Two Thousand": a number or a date, even where "Five" is a name
        if any(bare(t).lower() in ADDRESS_WORDS for t in tokens):
            return None
        if len(core) == 1 and not any(is_title(t) for t in tokens):
            word = core[0]
            if not_name(bare(word)) or lower[word.lower()] >= max(1, mid_tokens[word]):
                return None
            if not mid_tokens[word]:
                return None
        elif len(core) > 1 and tokens not in mid_runs and all(common(t) for t in core):
            return None
        return tokens, the

    verdicts: dict[tuple[tuple[str, ...], bool], tuple[tuple[str, ...], bool] | None] = {}

    def cached(tokens: tuple[str, ...], initial: bool) -> tuple[tuple[str, ...], bool] | None:
        key = (tokens, initial)
        if key not in verdicts:
            verdicts[key] = judge(tokens, initial)
        return verdicts[key]

    return cached
