"""Finding a plain text's chapters from the evidence the book gives about itself.

A text arrives as blocks (runs of lines between blank lines). A heading is a short block of its own:
a division word and a number ("CHAPTER IV.", "STAVE ONE: MARLEY'S GHOST", "PREMIÈRE PARTIE"), a numeral
alone or with a title ("XII.", "II. THE RED-HEADED LEAGUE"; a numeral line and a title line), a named
heading ("PROLOGUE"), or any title line that the book's contents list names.

The evidence, strongest first:
- a contents list near the start whose entries reappear later as heading blocks, in order: those
  blocks are chapters, and the list itself is never a run of chapters;
- a division word with prose after it (or directly over a heading of an inner division);
- numerals counting up (1, 2, 3 ..., restarting under an outer division) with chapter-long prose
  between them: a numbered list of items or a line in capitals inside dialogue is not such a run.
Levels come from the division's rank (volume > part > chapter > section) and, for numerals, from the
headings their numbering restarts under.
"""

from __future__ import annotations

import bisect
import re
import string
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from reader.adapters.extractors.heading_cues import CHAPTER, DIVISION_WORDS, LAST_CHAPTER, NAMED_HEADINGS
from reader.domain.book_matter import ends_story, starts_story
from reader.domain.numbering import NUMBER_WORDS, is_roman, number_value, roman_value

PROSE_CHARS = 200
"""A heading needs this much text after it, before the next heading, unless it heads another heading."""
SECTION_CHARS = 1000
"""Numerals without a division word must stand this far apart (median) to be headings, not a list."""
NUMERAL_RUN = 3
"""Numerals without a division word head chapters only in runs of at least this many."""
SEQUENCE_SHARE = 0.7
"""The share of a numeral run's steps that must count up by one (or restart at one)."""
CONTENTS_SHARE = 0.1
"""A contents list is looked for in this first share of the text's blocks."""
CONTENTS_BLOCKS = 60
"""... or in at least this many blocks (a short book's contents list is a large share of it)."""
LIST_SHARE = 0.8
"""The share of a block's lines that start with a capital or a figure in a list (prose wraps lower case)."""
CONTENTS_ENTRIES = 3
"""A contents list names at least this many headings found later in the text."""
CONTENTS_GAP = 12
CONTENTS_GAP_CHARS = 250
"""Entries of one contents list stand at most this many blocks, and this many characters, apart."""
SYNOPSIS_CHARS = 700
"""A summary in capitals under a chapter's heading is part of its title up to this length."""
REPEATED = 3
"""A heading text seen this many times is a speaker's name or a refrain, not a chapter."""
MAX_LINE = 80
MAX_BLOCK = 160
MAX_TITLE_WORDS = 14

_NUMBER = r"[IVXLCDM]+|\d{1,4}|[^\W\d_]+(?:-[^\W\d_]+)?"
_DIVISION = re.compile(
    rf"^(?P<word>[^\W\d_]+)\.?\s+(?:the\s+)?(?P<number>{_NUMBER})(?![\w'’])[.:,]?(?:\s*[-—–:.]+)?\s*(?P<rest>.*)$",
    re.IGNORECASE,
)
_ORDINAL_DIVISION = re.compile(r"^(?P<number>[^\W\d_]+)\s+(?P<word>[^\W\d_]+)\.?(?:\s*[-—–:.]+)?\s*(?P<rest>.*)$")
_NUMERAL = re.compile(r"^(?P<number>[IVXLCDM]+|\d{1,3})(?:\.|\s*$|\.?\s+(?=\S))\s*(?P<rest>.*)$")
_PAGE = r"(?:\d{1,4}|[ivxlc]{1,7})"
_LEADER = re.compile(
    rf"(?:\s*\.{{2,}}|\s{{2,}}|\s*[.…:,]\s*)\s*{_PAGE}(?:\s*[-–]\s*(?:{_PAGE}|end))?\s*$", re.IGNORECASE
)
"""A contents entry's page reference: "..... 14", "   14", ": vii-xv", ": 233-end"."""
_OPENING = re.compile(
    r"[\s_*]*(?:[IVXLCDM]+\b|\d|(?:"
    + "|".join(sorted(map(re.escape, {*DIVISION_WORDS, *NUMBER_WORDS, *NAMED_HEADINGS, "the"}), key=len, reverse=True))
    + r")(?!\w))",
    re.IGNORECASE,
)
"""How every heading form starts (a numeral, a division, number or heading word): most lines do not."""
_PUNCTUATION = str.maketrans(
    {**dict.fromkeys(map(ord, string.punctuation + "“”—–…«»¡¿·•‹›„"), " "), **dict.fromkeys(map(ord, "'’‘`"), None)}
)
_SENTENCE_END = re.compile(r"[a-z][.!?][\"'”’]?$")


class Block:
    """A run of non-blank lines of the text (stripped), in order, and their text joined by spaces."""

    __slots__ = ("lines", "text")

    def __init__(self, lines: tuple[str, ...]) -> None:
        self.lines = lines
        self.text = " ".join(lines)


@dataclass(frozen=True)
class Heading:
    """A chapter found in the text: the block it opens at, how many blocks its heading spans, its title
    as printed, and its nesting level (0 outermost)."""

    block: int
    span: int
    title: str
    level: int


@dataclass(frozen=True)
class _Form:
    """What a heading block says: its division word's rank (None: a bare numeral or a title), number,
    title words, and whether it is a named heading."""

    rank: int | None
    word: str
    number: int | None
    title: str
    named: bool = False
    roman: bool = False
    """A numeral written in Roman figures (a run of numerals keeps to one way of writing them)."""

    def _replace_title(self, title: str) -> _Form:
        return _Form(self.rank, self.word, self.number, title, self.named, self.roman)

    @property
    def shape(self) -> tuple[object, ...]:
        """Headings of one kind: the same division word, or numerals with or without titles."""
        if self.named:
            return ("named",)
        if self.word:
            return ("word", self.word)
        return ("numeral", self.roman, bool(self.title))


def heading_number(text: str) -> int | None:
    """A heading's number: arabic, Roman (upper case, or short lower case: "iv", not "mix") or a
    number word ("twenty-one", "Première"); "the Last" of "Chapter the Last" is 0."""
    if text.isupper() or len(text) <= 4:
        roman = roman_value(text)
        if roman is not None:
            return roman
    value = number_value(text) if not is_roman(text) else None
    return LAST_CHAPTER.get(text.lower(), value)


def title_key(text: str) -> str:
    """A title compared without case, punctuation or spacing."""
    return " ".join(text.translate(_PUNCTUATION).casefold().split())


def _title_like(text: str) -> bool:
    """A short line that can be a title: starts with a capital or a quote, is not a sentence of prose
    (a title may end with a full stop: "Loomings.", "The Carpet-Bag."; prose is long or lower case)."""
    if not text or len(text) > MAX_LINE * 2 or text[-1] in ",;":
        return False
    first = text.lstrip("\"'“‘(«_*")
    if not first or not (first[0].isupper() or first[0].isdigit()):
        return False  # "[Illustration: ...]" and other bracketed notes are not titles either
    if first is not text and text[-1] in "\"”'’" and not text.isupper():
        return False  # a line of dialogue
    words = text.split()
    if len(words) > MAX_TITLE_WORDS:
        return False
    if text[-1] in ".!?\"'”’" and _SENTENCE_END.search(text):
        long_words = [w for w in words if len(w.strip("\"'“”‘’().,;:!?_*")) > 3]
        capitals = sum(1 for w in long_words if w.lstrip("\"'“‘(_*")[:1].isupper())
        return len(words) <= 8 and capitals * 2 >= len(long_words)
    return True


def _division_like(text: str) -> bool:
    """A heading that opens with a division word or a named heading: its title may be any short
    phrase ("SCENE I. A public place."; a long one runs on in the next block, see `_candidates`)."""
    return len(text.split()) <= MAX_TITLE_WORDS * 2


def read_form(text: str) -> _Form | None:
    """What a heading line says, or None when it cannot head a chapter by its form alone."""
    if len(text) > MAX_BLOCK or not _OPENING.match(text):
        return None  # most lines: no heading starts so
    text = text.strip().strip("_*").strip()
    match = _DIVISION.match(text)
    if match and (rank := DIVISION_WORDS.get(match["word"].lower())) is not None:
        word = match["word"]
        number = heading_number(match["number"])
        if number is not None and word[0].isupper() and _division_like(text):
            return _Form(rank, word.lower(), number, match["rest"].strip(" .:-—–"))
    match = _ORDINAL_DIVISION.match(text)
    if match and (rank := DIVISION_WORDS.get(match["word"].lower())) is not None:
        number = heading_number(match["number"])
        if number is not None and match["number"][0].isupper() and not match["number"].isdigit():
            return _Form(rank, match["word"].lower(), number, match["rest"].strip(" .:-—–"))
    match = _NUMERAL.match(text)
    if match:
        digits = match["number"]
        number = int(digits) if digits.isdigit() else roman_value(digits)
        rest = match["rest"].strip(" .:-—–")
        if number is not None and (not rest or _title_like(rest)):
            return _Form(None, "", number, rest, roman=not digits.isdigit())
    words = text.split()
    first = words[1] if len(words) > 1 and words[0].lower() == "the" else words[0]
    if first.strip(".:").lower() in NAMED_HEADINGS and _division_like(text) and len(words) <= 8:
        return _Form(None, "", None, text.strip(" .:"), named=True)
    return None


def split_blocks(text: str) -> list[Block]:
    """The text's blocks: runs of non-blank lines, each line stripped (a text without blank lines: one
    block per line)."""
    lines = text.split("\n")
    if len(lines) > 1 and all(line.strip() for line in lines[:-1]):
        return [Block((line.strip(),)) for line in lines if line.strip()]
    blocks: list[Block] = []
    current: list[str] = []
    for line in lines:
        if line.strip():
            current.append(line.strip())
        elif current:
            blocks.append(Block(tuple(current)))
            current = []
    if current:
        blocks.append(Block(tuple(current)))
    return blocks


def _short(block: Block) -> bool:
    return len(block.lines) <= 3 and len(block.text) <= MAX_BLOCK and all(len(x) <= MAX_LINE for x in block.lines)


@dataclass
class _Candidate:
    block: int
    span: int
    form: _Form | None  # None: a title line, a heading only where the contents list names it
    lines: tuple[str, ...]
    follow: str | None = None
    """The next block, when it could be this untitled heading's title ("I" then "An Irate Neighbor")."""

    @property
    def printed(self) -> str:
        """The heading as printed, its lines joined ("I." + "STORY OF THE DOOR" -> "I. STORY OF THE DOOR")."""
        parts = list(self.lines)
        if self.span > 1 and self.follow:
            parts.append(self.follow)
        if len(parts) > 1 and parts[0][-1:].isalnum() and self.form is not None and self.form.number is not None:
            if not read_form(parts[0]) or not read_form(parts[0]).title:  # type: ignore[union-attr]
                parts[0] += "."
        return " ".join(parts)

    def with_follow(self) -> _Candidate:
        """This heading with the next block as its title."""
        form = self.form
        assert form is not None and self.follow is not None
        titled = form._replace_title(self.follow)
        return _Candidate(self.block, 2, titled, self.lines, self.follow)


def _synopsis(text: str) -> bool:
    """A chapter's summary under its heading, in capitals ("BELFAST--TEMPERANCE--THE POOR HOUSE")."""
    letters = [c for c in text if c.isalpha()]
    return 0 < len(text) <= SYNOPSIS_CHARS and sum(c.isupper() for c in letters) >= 0.8 * len(letters)


def _title_below(text: str) -> bool:
    """Whether lines under a numeral or division line can be its title (not italics: a letter's or
    diary's heading under a chapter line is not the chapter's title)."""
    return not text.startswith("_") and (_title_like(text) or _synopsis(text))


def _candidates(blocks: Sequence[Block]) -> dict[int, _Candidate]:
    """Every block that could open a chapter, by block index: a heading form on its first line (with
    its title or summary on the lines under it), or a short title-like block."""
    found: dict[int, _Candidate] = {}
    for index, block in enumerate(blocks):
        first = block.lines[0]
        form = read_form(first) if len(first) <= MAX_LINE else None
        if form is None:
            if _short(block) and _title_like(block.text):
                found[index] = _Candidate(index, 1, None, block.lines)
            continue
        lines: tuple[str, ...] = (first,)
        if any(read_form(line) is not None for line in block.lines[1:4]) and read_form(block.text) is None:
            continue  # a list of headings in one block: a contents list
        if len(block.lines) > 1:
            rest = " ".join(block.lines[1:])
            whole = read_form(block.text) if _short(block) else None
            if whole is not None and whole.shape == form.shape:  # a heading wrapped over two lines
                form, lines = whole, block.lines
            elif not form.title and not form.named and _title_below(rest):
                form, lines = form._replace_title(rest), block.lines
            elif form.rank is None or not (first[-1] in ".:!?)]\"'”’" or len(first) <= 30 or first.isupper()):
                continue  # a numeral (or "BOOK I. (Folio), CHAPTER II.—In one respect this is") opening prose
        nxt = blocks[index + 1] if index + 1 < len(blocks) else None
        if form.word and lines[-1].endswith((",", ";")) and nxt is not None and _synopsis(nxt.text):
            found[index] = _Candidate(index, 2, form._replace_title(f"{form.title} {nxt.text}"), (*lines, *nxt.lines))
            continue  # a long title running on in the next block
        follow = None
        if not form.title and not form.named and index + 1 < len(blocks):
            nxt = blocks[index + 1]
            below = read_form(nxt.lines[0])
            short = len(nxt.lines) <= 3 or _synopsis(nxt.text)
            if short and (below is None or below.named) and _title_below(nxt.text):
                follow = nxt.text
        found[index] = _Candidate(index, 1, form, lines, follow)
    return found


@dataclass(frozen=True)
class _Entry:
    """A contents list entry: where it is, its number (if it has one) and its title key."""

    block: int
    word: str
    number: int | None
    key: str
    title: str


def _list_like(block: Block) -> bool:
    """Lines that each start an item (a capital or a figure), not prose wrapped over lines."""
    starts = sum(1 for line in block.lines if line[:1].isupper() or line[:1].isdigit())
    return len(block.lines) > 1 and starts >= LIST_SHARE * len(block.lines)


def _entries(blocks: Sequence[Block], span: range) -> list[_Entry]:
    """Lines of blocks in `span` that could be contents entries (page numbers and dot leaders removed):
    short lines, in blocks that a short block follows (a list goes on; a heading has prose under it)."""
    out: list[_Entry] = []
    for index in span:
        if index + 1 < len(blocks) and not _short(blocks[index + 1]) and not _list_like(blocks[index + 1]):
            continue  # a heading over prose, not a list entry
        for line in blocks[index].lines:
            if len(line) > MAX_LINE:
                continue
            if line[-1:].isdigit() or line[-1:] in "ivxlcd":
                line = _LEADER.sub("", line).strip()
            form = read_form(line)
            if form is not None:
                out.append(_Entry(index, form.word, form.number, title_key(form.title), form.title))
            elif _title_like(line):
                out.append(_Entry(index, "", None, title_key(line), line))
    return out


def _same_title(a: str, b: str) -> bool:
    if not a or not b:
        return False
    if a == b:
        return True
    shorter, longer = sorted((a, b), key=len)
    return len(shorter) >= 12 and longer.startswith(shorter)


class _TitleIndex:
    """Candidate headings by title key and by number, for matching contents entries quickly."""

    def __init__(self, candidates: dict[int, _Candidate]) -> None:
        self.by_key: dict[str, list[int]] = {}
        self.by_number: dict[tuple[str, int], list[int]] = {}
        for block in sorted(candidates):
            candidate = candidates[block]
            form = candidate.form
            above = candidates.get(block - 1)
            if above is not None and above.follow == candidate.printed:
                continue  # the title line under a numbered heading: the heading is what a list names
            key = title_key(form.title if form is not None and not form.named else candidate.printed)
            if key:
                self.by_key.setdefault(key, []).append(block)
            if candidate.follow:
                self.by_key.setdefault(title_key(candidate.follow), []).append(block)
            if form is not None and not form.title and form.number is not None:
                self.by_number.setdefault((form.word, form.number), []).append(block)
        self.keys = sorted(self.by_key)

    def first_after(self, entry: _Entry, after: int) -> int | None:
        """The first candidate after block `after` with the entry's title (or, when no heading bears
        that title, an untitled one with its number: "I" under a contents entry "I Introduction")."""
        if not entry.key:
            return None
        found = _after(self.by_key.get(entry.key, []), after)
        if len(entry.key) >= 12:  # a title cut short on one side
            at = bisect.bisect_left(self.keys, entry.key)
            while at < len(self.keys) and self.keys[at].startswith(entry.key):
                found += _after(self.by_key[self.keys[at]], after)
                at += 1
            words = entry.key.split()
            for n in range(1, len(words)):
                prefix = " ".join(words[:n])
                if len(prefix) >= 12:
                    found += _after(self.by_key.get(prefix, []), after)
        if not found and entry.number is not None:  # its title never heads a page: its number may
            found += _after(self.by_number.get((entry.word, entry.number), []), after)
        return min(found, default=None)


def _after(blocks: list[int], block: int) -> list[int]:
    at = bisect.bisect_right(blocks, block)
    return blocks[at : at + 1]


def _contents_headings(
    blocks: Sequence[Block], candidates: dict[int, _Candidate], story: range, sizes: Sequence[int]
) -> tuple[dict[int, str], range]:
    """Headings a contents list names: {block: title to show} and the blocks the list occupies. The
    list stands near the start with the headings after it, or (as in many French books) at the end
    with the headings before it."""
    index = _TitleIndex(candidates)
    share = max(int(len(story) * CONTENTS_SHARE) + 1, CONTENTS_BLOCKS)
    for front in (True, False):
        span = range(story.start, min(story.stop, story.start + share)) if front else range(
            max(story.start, story.stop - share), story.stop
        )
        found = _listed_headings(blocks, candidates, index, _entries(blocks, span), front, story, sizes)
        if found[0]:
            return found
    return {}, range(0)


def _listed_headings(
    blocks: Sequence[Block],
    candidates: dict[int, _Candidate],
    index: _TitleIndex,
    entries: list[_Entry],
    front: bool,
    story: range,
    sizes: Sequence[int],
) -> tuple[dict[int, str], range]:
    """The headings that `entries` name, matched in order, and the list's blocks."""

    def match(entry: _Entry, after: int) -> int | None:
        """The first heading after block `after` that the entry names, with the entry's number if both
        have one ("CHAPTER II. Harker's Journal" names the second of several "Harker's Journal")."""
        while (block := index.first_after(entry, after)) is not None:
            if (front and block <= entry.block) or (not front and block >= entry.block):
                return None
            form = candidates[block].form
            if entry.number is None or form is None or form.number in (None, entry.number):
                return block
            after = block
        return None

    start = story.start - 1
    matched = [
        (e, entry.block) for e, entry in enumerate(entries) if match(entry, entry.block if front else start) is not None
    ]
    if len(matched) < CONTENTS_ENTRIES:
        return {}, range(0)
    clusters: list[list[tuple[int, int]]] = [[matched[0]]]  # the list: the densest run of matched entries
    for pair in matched[1:]:
        last = clusters[-1][-1][1]
        if pair[1] - last > CONTENTS_GAP or sizes[pair[1]] - sizes[last + 1] > CONTENTS_GAP_CHARS:
            clusters.append([])
        clusters[-1].append(pair)
    best = max(clusters, key=len)
    while len(best) > 1 and front:  # an entry repeated right after the list is its first heading
        tail = best[-1][1]
        listed = {(entries[e].key, entries[e].number) for e, block in best if block < tail}
        if not all((entries[e].key, entries[e].number) in listed for e, block in best if block == tail):
            break
        best = [pair for pair in best if pair[1] != tail]
    if len(best) < CONTENTS_ENTRIES:
        return {}, range(0)
    region = range(best[0][1], best[-1][1] + 1)
    chosen: dict[int, str] = {}
    previous = region.stop - 1 if front else start
    for e, _ in best:
        entry = entries[e]
        block = match(entry, previous)
        if block is None or block in region:
            continue
        candidate = candidates[block]
        form = candidate.form
        title = candidate.printed
        if candidate.follow is not None and _same_title(title_key(candidate.follow), entry.key):
            title = candidate.with_follow().printed  # "CHAPTER I" with its title on the line below
        elif form is not None and not form.title and not form.named and entry.title:
            title = f"{title.rstrip('.')}. {entry.title}"  # "I." with its title from the contents
        chosen[block] = title
        previous = block
    if len(chosen) < CONTENTS_ENTRIES or len(chosen) * 2 < len(best):
        return {}, range(0)
    return chosen, region


def _prose_after(blocks: Sequence[Block], sizes: Sequence[int], start: int, end: int) -> int:
    """Characters of text in blocks start..end-1."""
    return sizes[end] - sizes[start] if end > start else 0


def _counts_up(numbers: Sequence[int]) -> bool:
    """Whether numbers count up by one from 1 (restarts at 1 allowed) in most steps, at least
    NUMERAL_RUN of them in a row somewhere (1, 1, 2 is two stray list items)."""
    if len(numbers) < 2 or numbers[0] not in (0, 1):
        return False
    good = longest = run = 0
    for a, b in zip(numbers, numbers[1:], strict=False):
        up = b == a + 1
        good += up or b == 1
        run = run + 1 if up else 0
        longest = max(longest, run + 1)
    return good >= SEQUENCE_SHARE * (len(numbers) - 1) and longest >= NUMERAL_RUN


def story_blocks(blocks: Sequence[Block]) -> range:
    """The blocks between Project Gutenberg's START and END markers (all of them without markers)."""
    first, last = 0, len(blocks)
    marked = [i for i, block in enumerate(blocks) if "utenberg" in block.text or "UTENBERG" in block.text]
    for index in marked:
        if index < len(blocks) // 2 and starts_story(blocks[index].text):
            first = index + 1
    for index in marked:
        if index >= first and ends_story(blocks[index].text):
            last = index
            break
    return range(first, last)


def find_headings(blocks: Sequence[Block], book_title: str = "") -> list[Heading]:
    """The chapters of a text made of `blocks`, in order (only in its story: none in a licence)."""
    sizes = [0]
    for each in blocks:
        sizes.append(sizes[-1] + len(each.text))
    story = story_blocks(blocks)
    candidates = {b: c for b, c in _candidates(blocks).items() if b in story}
    contents, region = _contents_headings(blocks, candidates, story, sizes)
    repeats = Counter(title_key(c.printed) for c in candidates.values())
    formed = {
        b: c
        for b, c in candidates.items()
        if c.form is not None and b not in region and (repeats[title_key(c.printed)] < REPEATED or c.form.number is not None)
    }
    order = sorted(formed)
    listed = sorted(contents)
    chosen: dict[int, tuple[_Candidate, str]] = {}
    for block, title in contents.items():  # a listed title with no text under it (the book's title)
        candidate = candidates[block]
        at = bisect.bisect_right(listed, block)
        end = listed[at] if at < len(listed) else len(blocks)
        if candidate.form is not None and candidate.form.rank is not None or sizes[end] > sizes[block + 1]:
            chosen[block] = (candidate, title)

    def prose_after(block: int, stops: Sequence[int]) -> int:
        """Characters from the end of the heading at `block` to the next of `stops` (sorted)."""
        at = bisect.bisect_right(stops, block)
        end = stops[at] if at < len(stops) else len(blocks)
        return _prose_after(blocks, sizes, block + formed.get(block, candidates[block]).span, end)

    # runs of one shape: division words, numerals (with or without titles), named headings
    shapes: dict[tuple[object, ...], list[int]] = {}
    for block in order:
        form = formed[block].form
        assert form is not None
        shapes.setdefault(form.shape, []).append(block)
    for members in shapes.values():  # titles on the next line: when most headings of the run have one
        following = [b for b in members if formed[b].follow is not None]
        same = Counter(title_key(formed[b].follow or "") for b in following).most_common(1)
        if following and len(following) * 2 >= len(members) and not (len(following) > 2 and same[0][1] * 2 > len(following)):
            for block in following:
                formed[block] = formed[block].with_follow()
    for block in [b for b, c in formed.items() if c.span > 1]:  # "CONCLUSION." under "XXIV." is its title
        for inner in range(block + 1, block + formed[block].span):
            formed.pop(inner, None)
            chosen.pop(inner, None)
    order = sorted(formed)
    shapes = {shape: [b for b in members if b in formed] for shape, members in shapes.items()}
    for shape, members in shapes.items():
        prose = {b: prose_after(b, order) for b in members}
        kept = [b for b in members if prose[b] >= PROSE_CHARS]
        if len(kept) * 2 > len(members):  # most have prose after them: a short scene is a scene too
            kept = [b for b in members if prose[b] > 0]
        if shape[0] == "numeral":
            numbers = [n for b in members if (n := formed[b].form.number) is not None]  # type: ignore[union-attr]
            gaps = sorted(prose_after(b, members) for b in members)
            if len(members) < NUMERAL_RUN or not _counts_up(numbers) or gaps[len(gaps) // 2] < SECTION_CHARS:
                continue
            kept = members  # the run is the evidence; a story's numeral may stand right over its first section
        elif shape[0] == "named":
            pass
        elif len(members) > 1 and not kept and len(members) == len(set(members)):
            continue
        for block in kept:
            chosen.setdefault(block, (formed[block], formed[block].printed))
    # a division heading directly over another ("BOOK ONE" over "CHAPTER I") heads an outer division
    for block in order:
        candidate = formed[block]
        form = candidate.form
        assert form is not None
        if block in chosen or form.rank is None:
            continue
        nxt = block + candidate.span
        below = chosen.get(nxt)
        if below is not None and below[0].form is not None and (below[0].form.rank or CHAPTER) > form.rank:
            chosen[block] = (candidate, candidate.printed)
    book_key = title_key(book_title)
    headings = [
        (block, candidate, title)
        for block, (candidate, title) in sorted(chosen.items())
        if not (book_key and title_key(title) == book_key)
    ]
    return _levelled(headings)


def _levelled(headings: Sequence[tuple[int, _Candidate, str]]) -> list[Heading]:
    """Headings with levels: division words by rank, numerals under the heading their run opens right
    under or their numbering restarts under, named headings and contents titles at the outermost level
    (or over a numbered heading they head)."""
    if not headings:
        return []
    ranks: dict[int, float] = {}
    divisions: dict[str, list[int]] = {}
    for block, candidate, _ in headings:
        form = candidate.form
        if form is not None and form.rank is not None:
            ranks[block] = form.rank
            divisions.setdefault(form.word, []).append(block)
    for members in divisions.values():  # "BOOK I. (Folio)" inside one chapter heads no chapters
        outer = ranks[members[0]]
        for other in divisions.values():
            inner = ranks[other[0]]
            if inner > outer and len(other) >= NUMERAL_RUN:
                gaps = {bisect.bisect_left(other, m) for m in members}
                if len(gaps) == 1 and 0 < next(iter(gaps)) < len(other):
                    for block in members:
                        ranks[block] = inner + 1
    numeral_shapes: dict[tuple[object, ...], list[int]] = {}
    for block, candidate, _ in headings:
        form = candidate.form
        if form is not None and form.rank is None and not form.named:
            numeral_shapes.setdefault(form.shape, []).append(block)
    by_block = {block: candidate for block, candidate, _ in headings}
    order = [block for block, _, _ in headings]
    for members in sorted(numeral_shapes.values()):
        rank: float = CHAPTER
        at = order.index(members[0])
        if at and order[at - 1] + by_block[order[at - 1]].span == members[0]:
            rank = ranks.get(order[at - 1], CHAPTER) + 1  # the run opens right under another heading
        for a, b in zip(members, members[1:], strict=False):
            form = by_block[b].form
            if form is not None and form.number in (0, 1):  # a restart: under a heading between a and b
                between = [ranks.get(x, CHAPTER) for x in by_block if a < x < b and x not in members]
                if between:
                    rank = max(rank, min(between) + 1)
        for block in members:
            ranks[block] = rank
    top = min(ranks.values(), default=CHAPTER)
    blocks = [block for block, _, _ in headings]
    for i in range(len(blocks) - 1, -1, -1):
        block = blocks[i]
        if block in ranks:
            continue
        candidate = by_block[block]
        below = by_block[blocks[i + 1]].form if i + 1 < len(blocks) else None
        directly_over = below is not None and blocks[i + 1] == block + candidate.span
        if directly_over and below is not None and below.number is not None and blocks[i + 1] in ranks:
            ranks[block] = ranks[blocks[i + 1]] - 0.5  # a title over a numbered heading: its part
        else:
            ranks[block] = top  # a preface, an epilogue, a story the contents names: the outermost level
    distinct = sorted(set(ranks.values()))
    level = {rank: i for i, rank in enumerate(distinct)}
    return [Heading(block, by_block[block].span, title, level[ranks[block]]) for block, _, title in headings]
