"""What the book says of a name before names are merged into concepts: the sex of the pronouns of its
own actions ("Caroline Bingley tossed her head"), and whether a one-word name names a thing ("the
George", an inn) rather than the person whose first name it is."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence

from reader.app.knowledge.book_mentions import BookNames
from reader.app.knowledge.name_finder import is_title
from reader.app.knowledge.name_forms import NameForm

_OWN_PRONOUN = re.compile(r"[ \t]+(?:[a-z]+[ \t]+){1,3}(his|her|himself|herself)\b(?:[ \t]+([a-z]+))?")
"""A verb or two and a pronoun right after a name: whose head, whose hands ("Anne shook her head",
"Mr. Wickham bowed himself out")."""
NOT_OWNED = frozenset(
    """that to a an the and in on at for with so as if how what it up out down away back off from again
    all by of not nothing something anything when then than or but""".split()
)
"""Words after "her" that make it an object ("told her that"), someone else than the name."""
HINT_SAMPLE = 40
HINT_AGREEMENT = 0.8


def gender_hints(book: BookNames, threshold: int) -> dict[str, str]:
    """ "m" or "f" for each frequent name without a title, from the pronouns of its own actions after
    a sample of its mentions ("Caroline Bingley tossed her head"), when four in five agree."""
    hints: dict[str, str] = {}
    text = book.text
    for key, name in book.names.items():
        if len(name.mentions) < threshold or any(is_title(t) for t in name.tokens):
            continue
        votes: Counter[str] = Counter()
        for i in sample_indexes(len(name.mentions), HINT_SAMPLE):
            found = _OWN_PRONOUN.match(text, name.mentions[i][1])
            if found:
                pronoun, after = found.groups()
                if pronoun == "her" and (not after or after in NOT_OWNED):
                    continue
                votes["m" if pronoun in ("his", "himself") else "f"] += 1
        if votes:
            gender, count = votes.most_common(1)[0]
            if count >= 2 and count >= HINT_AGREEMENT * sum(votes.values()):
                hints[key] = gender
    return hints


THING_SHARE = 0.6
"""The share of a one-word name's mentions after "the" from which it names a thing ("the George")."""


def named_things(book: BookNames, forms: Mapping[str, NameForm], threshold: int) -> set[str]:
    """One-word names used mostly after "the" that are also a full name's first word: an inn, a ship
    or a house named after someone ("the George"), never that person's alias."""
    firsts = {form.core[0] for form in forms.values() if len(form.core) > 1 and not form.place}
    things = set()
    text = book.text
    for key, name in book.names.items():
        if len(name.tokens) != 1 or key not in firsts or len(name.mentions) < threshold:
            continue
        sample = sample_indexes(len(name.mentions), CONTEXT_SAMPLE)
        the = sum(
            1
            for i in sample
            if name.mentions[i][2] or text[name.mentions[i][0] - 4 : name.mentions[i][0]] in ("the ", "The ")
        )
        if the >= THING_SHARE * len(sample):
            things.add(key)
    return things


CONTEXT_SAMPLE = 30
"""Mentions per concept (and per alias) whose surrounding words are read to judge its kind and article."""


def sample_indexes(total: int, limit: int) -> Sequence[int]:
    """At most `limit` indexes spread evenly over `total` items."""
    if total <= limit:
        return range(total)
    step = total / limit
    return [int(i * step) for i in range(limit)]
