"""A plain text's contents list: its entries near the start (or the end) and the headings they name.

The strongest evidence of a text's chapters: entries that reappear later as heading blocks, in order.
The list itself is never a run of chapters.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass

from reader.adapters.extractors.text_heading_lines import (
    MAX_LINE,
    Block,
    Candidate,
    read_form,
    short_block,
    title_key,
    title_like,
)

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

_PAGE = r"(?:\d{1,4}|[ivxlc]{1,7})"
_LEADER = re.compile(
    rf"(?:\s*\.{{2,}}|\s{{2,}}|\s*[.…:,]\s*)\s*{_PAGE}(?:\s*[-–]\s*(?:{_PAGE}|end))?\s*$", re.IGNORECASE
)
"""A contents entry's page reference: "..... 14", "   14", ": vii-xv", ": 233-end"."""
@dataclass(frozen=True)
class ContentsEntry:
    """A contents list entry: where it is, its number (if it has one) and its title key."""

    block: int
    word: str
    number: int | None
    key: str
    title: str


def list_like(block: Block) -> bool:
    """Lines that each start an item (a capital or a figure), not prose wrapped over lines."""
    starts = sum(1 for line in block.lines if line[:1].isupper() or line[:1].isdigit())
    return len(block.lines) > 1 and starts >= LIST_SHARE * len(block.lines)


def contents_entries(blocks: Sequence[Block], span: range) -> list[ContentsEntry]:
    """Lines of blocks in `span` that could be contents entries (page numbers and dot leaders removed):
    short lines, in blocks that a short block follows (a list goes on; a heading has prose under it)."""
    out: list[ContentsEntry] = []
    for index in span:
        if index + 1 < len(blocks) and not short_block(blocks[index + 1]) and not list_like(blocks[index + 1]):
            continue  # a heading over prose, not a list entry
        for line in blocks[index].lines:
            if len(line) > MAX_LINE:
                continue
            if line[-1:].isdigit() or line[-1:] in "ivxlcd":
                line = _LEADER.sub("", line).strip()
            form = read_form(line)
            if form is not None:
                out.append(ContentsEntry(index, form.word, form.number, title_key(form.title), form.title))
            elif title_like(line):
                out.append(ContentsEntry(index, "", None, title_key(line), line))
    return out


def same_title(a: str, b: str) -> bool:
    if not a or not b:
        return False
    if a == b:
        return True
    shorter, longer = sorted((a, b), key=len)
    return len(shorter) >= 12 and longer.startswith(shorter)


class _TitleIndex:
    """Candidate headings by title key and by number, for matching contents entries quickly."""

    def __init__(self, candidates: dict[int, Candidate]) -> None:
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

    def first_after(self, entry: ContentsEntry, after: int) -> int | None:
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


def contents_headings(
    blocks: Sequence[Block], candidates: dict[int, Candidate], story: range, sizes: Sequence[int]
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
        found = _listed_headings(blocks, candidates, index, contents_entries(blocks, span), front, story, sizes)
        if found[0]:
            return found
    return {}, range(0)


def _listed_headings(
    blocks: Sequence[Block],
    candidates: dict[int, Candidate],
    index: _TitleIndex,
    entries: list[ContentsEntry],
    front: bool,
    story: range,
    sizes: Sequence[int],
) -> tuple[dict[int, str], range]:
    """The headings that `entries` name, matched in order, and the list's blocks."""

    def match(entry: ContentsEntry, after: int) -> int | None:
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
        if candidate.follow is not None and same_title(title_key(candidate.follow), entry.key):
            title = candidate.with_follow().printed  # "CHAPTER I" with its title on the line below
        elif form is not None and not form.title and not form.named and entry.title:
            title = f"{title.rstrip('.')}. {entry.title}"  # "I." with its title from the contents
        chosen[block] = title
        previous = block
    if len(chosen) < CONTENTS_ENTRIES or len(chosen) * 2 < len(best):
        return {}, range(0)
    return chosen, region

