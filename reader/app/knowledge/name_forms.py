"""What a person's name says: its titles (sex, rank, standing), its words compared by spelling, and
the forms and clusters the alias grouping works on."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Generic, TypeVar

T = TypeVar("T")

MALE_TITLES = frozenset(
    """Mr. Mister Sir Lord Count Prince Duke Baron King Master Father Uncle Monsieur Herr Signor Señor
    Don Emperor Tsar Archduke Marquis Viscount Earl Squire Abbé""".split()
)
FEMALE_TITLES = frozenset(
    """Mrs. Ms. Miss Madam Madame Mademoiselle Lady Countess Princess Duchess Queen Dame Aunt Frau
    Fräulein Mistress Signora Señora Doña Empress Tsarina Archduchess Marchioness Viscountess Sister Baroness""".split()
)
"""Canonical titles (see `name_finder.PERSON_TITLES`) that say a man or a woman; the others (Doctor,
Captain, Colonel, ...) say a rank only."""
FAMILY_TITLES = frozenset(
    """Mrs. Madame Frau Signora Señora Count Countess Prince Princess Duke Duchess Lord Lady Baron
    Baroness Marquis Marchioness Viscount Viscountess Earl""".split()
)
"""Titles that with a surname alone ("Countess Rostóva", "Mrs. Bennet") name the head of a family or
his wife: such a name joins a full name only when the full name is written with that title too."""


def gender_of(titles: Iterable[str]) -> str | None:
    """ "m" or "f" when the titles agree on one, else None."""
    genders = {"m" if t in MALE_TITLES else "f" for t in titles if t in MALE_TITLES or t in FEMALE_TITLES}
    return genders.pop() if len(genders) == 1 else None


def compatible(a: str | None, b: str | None) -> bool:
    return a is None or b is None or a == b


@lru_cache(maxsize=65536)
def fold(word: str) -> str:
    """A name word for comparison: case, accents and a possessive ("Rostóv's" -> "rostov") forgiven."""
    word = word.casefold()
    for suffix in ("'s", "’s", "'", "’"):
        if word.endswith(suffix) and len(word) > len(suffix) + 1:
            word = word[: -len(suffix)]
            break
    if word.isascii():
        return word
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def same_word(a: str, b: str) -> bool:
    """Two name words are the same word: equal but for accents, case and a possessive."""
    return fold(a) == fold(b)


SHORT_FORMS = {
    short: full
    for full, shorts in (
        ("henry", "harry hal hank"),
        ("john", "jack johnny"),
        ("william", "bill billy will willie"),
        ("robert", "bob bobby rob robin bert"),
        ("richard", "dick dicky rick"),
        ("edward", "ned ted teddy ed"),
        ("margaret", "peggy meg maggie madge"),
        ("mary", "molly polly mamie"),
        ("sarah", "sally sal"),
        ("ann", "nan nancy annie"),
        ("anne", "nan nancy annie"),
        ("catherine", "kate kitty cathy"),
        ("elizabeth", "bess bessie betsy betty beth lizzie lizzy eliza"),
        ("james", "jim jimmy jem"),
        ("thomas", "tom tommy"),
        ("charles", "charlie chuck"),
        ("frederick", "fred freddy"),
        ("theodore", "ted teddy"),
        ("susan", "sue sukey"),
        ("martha", "patty matty"),
        ("isabella", "bella"),
        ("ellen", "nelly nell"),
    )
    for short in shorts.split()
}
"""English first names and their short forms that do not begin alike ("Harry" of "Henry"): general
naming usage, not any book's characters."""


@lru_cache(maxsize=65536)
def nickname(a: str, b: str) -> bool:
    """A first name and its short form ("Toby" and "Tobias", "Harry" and "Henry"): only ever used
    between two full names that share a surname, where the surname already says they are one family."""
    a, b = fold(a), fold(b)
    return (
        a == b
        or (min(len(a), len(b)) >= 3 and a[:3] == b[:3])
        or SHORT_FORMS.get(a) == b
        or SHORT_FORMS.get(b) == a
    )


@dataclass(frozen=True)
class NameForm:
    """What a name says of whom it names: its name words (no titles) and the titles written with it."""

    core: tuple[str, ...]
    titles: frozenset[str] = frozenset()
    place: bool = False
    """Its last word names a kind of place or body ("Raevski Redoubt", "Kiev Grenadiers"): its
    words never make it a candidate for a person's shorter names."""
    hint: str | None = None
    """"m" or "f" when the book's pronouns after the name say so (for a name with no such title)."""

    @property
    def gender(self) -> str | None:
        return gender_of(self.titles) or self.hint


@dataclass
class Cluster(Generic[T]):
    """The names of one concept: its canonical name words and every mention under any alias."""

    core: tuple[str, ...]
    mentions: list[T] = field(default_factory=list)
    words: set[str] = field(default_factory=set)
    """Every name word of its full names and titled names, folded."""
    keys: list[str] = field(default_factory=list)
    """The aliases whose mentions it holds, in the order they joined (their mentions in that order)."""
    counts: dict[str, int] = field(default_factory=dict)
    """Mentions per alias."""
    titles: set[str] = field(default_factory=set)
    family: bool = False
    """A family the book names in the plural ("the Bennets"), with the surname when ambiguous."""
    hint: str | None = None
    """The gender its full names' pronouns say, when no title says one."""
    married: bool = False
    """A woman the book names by her maiden name, then by her married one ("Mina Murray", "Mina
    Harker"): "Mrs." with the married surname is hers."""

    @property
    def gender(self) -> str | None:
        return gender_of(self.titles) or self.hint

    def add(self, key: str, mentions: Sequence[T], form: NameForm) -> None:
        self.mentions.extend(mentions)
        self.keys.append(key)
        self.counts[key] = self.counts.get(key, 0) + len(mentions)
        self.titles.update(form.titles)
        if len(form.core) > 1 and self.hint is None:
            self.hint = form.hint

    def absorb(self, moved: Cluster[T]) -> None:
        """Take every name and mention of `moved`, leaving it empty."""
        self.mentions.extend(moved.mentions)
        self.keys.extend(moved.keys)
        for name, count in moved.counts.items():
            self.counts[name] = self.counts.get(name, 0) + count
        self.titles.update(moved.titles)
        moved.mentions, moved.keys, moved.counts, moved.titles = [], [], {}, set()


ADDRESS_TITLES = {"Mister": "Mr."}
"""Titles that address the same kind of person (the key's form is used)."""


ADDRESSED = frozenset(ADDRESS_TITLES.get(t, t) for t in MALE_TITLES | FEMALE_TITLES)
SOVEREIGNS = frozenset("King Queen Emperor Empress Tsar Tsarina".split())
"""Titles of a sex that no one bears beside a lesser rank: "King Ahab" and "Captain Ahab" are two
men unless the book joins them (a full name written with both); "General Bennigsen" may be
"Count Bennigsen"."""


def address(titles: Iterable[str]) -> frozenset[str]:
    """The titles of a name that say a sex ("Mr.", "Miss", "Lady"), one spelling per kind."""
    return frozenset(ADDRESS_TITLES.get(t, t) for t in titles if t in MALE_TITLES or t in FEMALE_TITLES)


WOMEN_BY_STANDING = frozenset("Miss Mrs. Ms. Lady Mademoiselle".split())
"""Titles that say which woman of a family: Miss X, Mrs. X and Lady X are three women unless the
book joins them."""


def same_standing(a: Iterable[str], b: Iterable[str]) -> bool:
    """Whether two sets of titles may be one woman's: they share a title of standing, or one has none."""
    ours, theirs = WOMEN_BY_STANDING.intersection(a), WOMEN_BY_STANDING.intersection(b)
    return not ours or not theirs or bool(ours & theirs)
