"""How readers frame questions about a story, as data: the words that ask rather than tell.

"How did Anna feel when her brother left?" is about Anna, her brother and leaving; "feel" only says
what kind of answer is wanted, and the page that answers may say "she wept" instead. Frame words
still count a little (a page that says "felt" is a little more likely), the other words fully.
"""

from __future__ import annotations

FRAME_WEIGHT = 0.35
"""What a frame word counts against a content word (1.0)."""

FRAME_WORDS = frozenset(
    """
    happen happens happened happening
    feel feels felt feeling feelings
    think thinks thought thinking
    do does did done doing
    make makes made making
    get gets got getting
    go goes went gone going
    come comes came coming
    say says said tell tells told
    know knows knew known
    want wants wanted
    try tries tried trying
    use used uses
    like likes liked
    look looks looked
    find finds found
    give gives gave given
    take takes took taken
    decide decides decided
    describe describes described description
    kind type way ways
    reason reasons result results cause caused
    name named called
    first last next end finally later afterwards
    story tale character characters
    will would could might
    """.split()
)
"""Words that shape the question (what, how, after) rather than name its subject. Stopwords (who,
when, after, ...) are dropped before these are weighed."""
