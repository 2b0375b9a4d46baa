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
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from reader.adapters.extractors.heading_cues import CHAPTER
from reader.adapters.extractors.text_contents import contents_headings
from reader.adapters.extractors.text_heading_lines import (
    Block,
    Candidate,
    heading_candidates,
    story_blocks,
    title_key,
)

PROSE_CHARS = 200
"""A heading needs this much text after it, before the next heading, unless it heads another heading."""
SECTION_CHARS = 1000
"""Numerals without a division word must stand this far apart (median) to be headings, not a list."""
NUMERAL_RUN = 3
"""Numerals without a division word head chapters only in runs of at least this many."""
SEQUENCE_SHARE = 0.7
"""The share of a numeral run's steps that must count up by one (or restart at one)."""
REPEATED = 3
"""A heading text seen this many times is a speaker's name or a refrain, not a chapter."""


@dataclass(frozen=True)
class Heading:
    """A chapter found in the text: the block it opens at, how many blocks its heading spans, its title
    as printed, and its nesting level (0 outermost)."""

    block: int
    span: int
    title: str
    level: int


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


def find_headings(blocks: Sequence[Block], book_title: str = "") -> list[Heading]:
    """The chapters of a text made of `blocks`, in order (only in its story: none in a licence)."""
    sizes = [0]
    for each in blocks:
        sizes.append(sizes[-1] + len(each.text))
    story = story_blocks(blocks)
    candidates = {b: c for b, c in heading_candidates(blocks).items() if b in story}
    contents, region = contents_headings(blocks, candidates, story, sizes)
    repeats = Counter(title_key(c.printed) for c in candidates.values())
    formed = {
        b: c
        for b, c in candidates.items()
        if c.form is not None and b not in region and (repeats[title_key(c.printed)] < REPEATED or c.form.number is not None)
    }
    order = sorted(formed)
    listed = sorted(contents)
    chosen: dict[int, tuple[Candidate, str]] = {}
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


def _levelled(headings: Sequence[tuple[int, Candidate, str]]) -> list[Heading]:
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
