"""What a heading line of a plain text says, and which blocks could open a chapter.

A text arrives as blocks (runs of lines between blank lines). A block can open a chapter when its first
line reads as a division word and a number ("CHAPTER IV.", "PREMIÈRE PARTIE"), a numeral alone or with a
title, or a named heading ("PROLOGUE"), or when it is a short title-like line (a heading only where a
contents list names it; see text_contents). Which candidates are chapters is text_headings' work.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from dataclasses import dataclass

from reader.adapters.extractors.heading_cues import DIVISION_WORDS, LAST_CHAPTER, NAMED_HEADINGS
from reader.domain.book_matter import ends_story, starts_story
from reader.domain.numbering import NUMBER_WORDS, is_roman, number_value, roman_value

SYNOPSIS_CHARS = 700
"""A summary in capitals under a chapter's heading is part of its title up to this length."""
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
class HeadingForm:
    """What a heading block says: its division word's rank (None: a bare numeral or a title), number,
    title words, and whether it is a named heading."""

    rank: int | None
    word: str
    number: int | None
    title: str
    named: bool = False
    roman: bool = False
    """A numeral written in Roman figures (a run of numerals keeps to one way of writing them)."""

    def _replace_title(self, title: str) -> HeadingForm:
        return HeadingForm(self.rank, self.word, self.number, title, self.named, self.roman)

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


def title_like(text: str) -> bool:
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
    phrase ("SCENE I. A public place."; a long one runs on in the next block, see `heading_candidates`)."""
    return len(text.split()) <= MAX_TITLE_WORDS * 2


def read_form(text: str) -> HeadingForm | None:
    """What a heading line says, or None when it cannot head a chapter by its form alone."""
    if len(text) > MAX_BLOCK or not _OPENING.match(text):
        return None  # most lines: no heading starts so
    text = text.strip().strip("_*").strip()
    match = _DIVISION.match(text)
    if match and (rank := DIVISION_WORDS.get(match["word"].lower())) is not None:
        word = match["word"]
        number = heading_number(match["number"])
        if number is not None and word[0].isupper() and _division_like(text):
            return HeadingForm(rank, word.lower(), number, match["rest"].strip(" .:-—–"))
    match = _ORDINAL_DIVISION.match(text)
    if match and (rank := DIVISION_WORDS.get(match["word"].lower())) is not None:
        number = heading_number(match["number"])
        if number is not None and match["number"][0].isupper() and not match["number"].isdigit():
            return HeadingForm(rank, match["word"].lower(), number, match["rest"].strip(" .:-—–"))
    match = _NUMERAL.match(text)
    if match:
        digits = match["number"]
        number = int(digits) if digits.isdigit() else roman_value(digits)
        rest = match["rest"].strip(" .:-—–")
        if number is not None and (not rest or title_like(rest)):
            return HeadingForm(None, "", number, rest, roman=not digits.isdigit())
    words = text.split()
    first = words[1] if len(words) > 1 and words[0].lower() == "the" else words[0]
    if first.strip(".:").lower() in NAMED_HEADINGS and _division_like(text) and len(words) <= 8:
        return HeadingForm(None, "", None, text.strip(" .:"), named=True)
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


def short_block(block: Block) -> bool:
    return len(block.lines) <= 3 and len(block.text) <= MAX_BLOCK and all(len(x) <= MAX_LINE for x in block.lines)


@dataclass
class Candidate:
    block: int
    span: int
    form: HeadingForm | None  # None: a title line, a heading only where the contents list names it
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

    def with_follow(self) -> Candidate:
        """This heading with the next block as its title."""
        form = self.form
        assert form is not None and self.follow is not None
        titled = form._replace_title(self.follow)
        return Candidate(self.block, 2, titled, self.lines, self.follow)


def synopsis(text: str) -> bool:
    """A chapter's summary under its heading, in capitals ("BELFAST--TEMPERANCE--THE POOR HOUSE")."""
    letters = [c for c in text if c.isalpha()]
    return 0 < len(text) <= SYNOPSIS_CHARS and sum(c.isupper() for c in letters) >= 0.8 * len(letters)


def title_below(text: str) -> bool:
    """Whether lines under a numeral or division line can be its title (not italics: a letter's or
    diary's heading under a chapter line is not the chapter's title)."""
    return not text.startswith("_") and (title_like(text) or synopsis(text))


def heading_candidates(blocks: Sequence[Block]) -> dict[int, Candidate]:
    """Every block that could open a chapter, by block index: a heading form on its first line (with
    its title or summary on the lines under it), or a short title-like block."""
    found: dict[int, Candidate] = {}
    for index, block in enumerate(blocks):
        first = block.lines[0]
        form = read_form(first) if len(first) <= MAX_LINE else None
        if form is None:
            if short_block(block) and title_like(block.text):
                found[index] = Candidate(index, 1, None, block.lines)
            continue
        lines: tuple[str, ...] = (first,)
        if any(read_form(line) is not None for line in block.lines[1:4]) and read_form(block.text) is None:
            continue  # a list of headings in one block: a contents list
        if len(block.lines) > 1:
            rest = " ".join(block.lines[1:])
            whole = read_form(block.text) if short_block(block) else None
            if whole is not None and whole.shape == form.shape:  # a heading wrapped over two lines
                form, lines = whole, block.lines
            elif not form.title and not form.named and title_below(rest):
                form, lines = form._replace_title(rest), block.lines
            elif form.rank is None or not (first[-1] in ".:!?)]\"'”’" or len(first) <= 30 or first.isupper()):
                continue  # a numeral (or "BOOK I. (Folio), CHAPTER II.—In one respect this is") opening prose
        nxt = blocks[index + 1] if index + 1 < len(blocks) else None
        if form.word and lines[-1].endswith((",", ";")) and nxt is not None and synopsis(nxt.text):
            found[index] = Candidate(index, 2, form._replace_title(f"{form.title} {nxt.text}"), (*lines, *nxt.lines))
            continue  # a long title running on in the next block
        follow = None
        if not form.title and not form.named and index + 1 < len(blocks):
            nxt = blocks[index + 1]
            below = read_form(nxt.lines[0])
            short = len(nxt.lines) <= 3 or synopsis(nxt.text)
            if short and (below is None or below.named) and title_below(nxt.text):
                follow = nxt.text
        found[index] = Candidate(index, 1, form, lines, follow)
    return found


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

