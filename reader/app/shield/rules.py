"""The spoiler shield's rules at one reading position: later names, later pages and chapters, later quotes.

`ShieldIndex.check` looks at one sentence of an answer (with the words just before it, so a name or a
quote split across a sentence break is still seen) and says which rules it breaks, if any.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from reader.app.pages.chapter_lookup import CHAPTER, numbered, own_number
from reader.app.shield.book_index import QUOTE_WORDS, BookTextIndex
from reader.app.shield.words import Word, words
from reader.app.text.background_words import BACKGROUND
from reader.domain.knowledge import ConceptName
from reader.domain.models import Book, Chapter, Page
from reader.domain.numbering import number_value

LATER_NAME = "later name"
LATER_PAGE = "later page"
LATER_CHAPTER = "later chapter"
LATER_QUOTE = "later quote"

LINKS = frozenset(
    """the of de du la le von van der den and mr mrs ms miss madam madame mme dr doctor sir lady lord st
    saint captain colonel general major count countess prince princess king queen uncle aunt father
    mother brother sister reverend professor""".split()
)
"""Words inside a name that name no one by themselves ("the", "of", titles)."""
SMALL = LINKS | frozenset("a an at in on by to for with from into upon over under".split())
"""Words a title leaves in lower case ("The Inquiry at the Drowned Bell")."""
MAX_NAME_WORDS = 6

_NUMBER = r"(?:\d{1,4}|[ivxlcdm]{1,7}\b|[a-z]+(?:-[a-z]+)?)"
_PAGE = re.compile(
    r"(?:\bpages?|\bpp?\.|\bpg\.?)\s*(\d{1,5}|[ivxlcdm]{1,7}\b)(?:\s*(?:-|–|—|to|and)\s*(\d{1,5}|[ivxlcdm]{1,7}\b))?",
    re.IGNORECASE,
)
_CHAPTER = re.compile(
    rf"\b(?:(?P<chapter>(?i:chapters?|chap\.?|ch\.))|(?P<part>Book|Part|Volume|Vol\.))\s*(?P<first>(?i:{_NUMBER}))"
    rf"(?:\s*(?:-|–|—|to|and)\s*(?P<last>\d{{1,4}}\b|(?i:[ivxlcdm]{{1,7}})\b))?",
)


@dataclass(frozen=True)
class Finding:
    """Why a sentence is held back: the rule, the word or citation that fired, and its page."""

    rule: str
    word: str
    page: int

    def describe(self, label: str = "") -> str:
        """One line for verbose output, e.g. 'later name "Morvoren Quay" (first met p. 26)'."""
        where = label or str(self.page)
        detail = {LATER_NAME: "first met", LATER_QUOTE: "from"}.get(self.rule, "after your page: p.")
        if self.rule in (LATER_NAME, LATER_QUOTE):
            return f'{self.rule} "{self.word}" ({detail} p. {where})'
        return f'{self.rule} "{self.word}" ({detail} {where})'


@dataclass(frozen=True)
class NameRule:
    """A name first met after the reader's page."""

    text: str
    page: int
    ordinary: bool
    """The name is an ordinary word too ("Will", "Hope"): it holds only when written as a name."""


def _name_key(text: str) -> tuple[str, ...]:
    keys = words(text)
    while keys and keys[0] == "the":
        keys = keys[1:]
    return tuple(keys[:MAX_NAME_WORDS])


def _title_words(title: str) -> str:
    """A chapter title without its number: "Chapter 7: The Woman on the Cliff" -> "The Woman on the Cliff"."""
    if own_number(title) is None:
        return title
    return re.sub(
        r"^\W*(?:(?:chapter|chap|ch|book|part|volume|vol)\.?\s+)?\S+\s*[.:)\-–—]*\s*", "", title, flags=re.I
    )


class ShieldIndex:
    """The rules for one book at one reading position (`horizon`)."""

    def __init__(
        self,
        book: Book,
        horizon: int,
        text: BookTextIndex,
        names: Sequence[ConceptName],
        pages: Sequence[Page],
        chapters: Sequence[Chapter],
    ) -> None:
        self.book = book
        self.horizon = horizon
        self.text = text
        self.chapters = list(chapters)
        self.labels = {p.label.lower(): p.number for p in pages}
        self.label_of = {p.number: p.label for p in pages}
        self.page_count = book.page_count
        self.own_words = frozenset(words(book.title) + words(book.author))
        """The book's title and author: never a spoiler."""
        self.names = self._later_names(names)
        self.titles = self._later_titles()
        self.longest = max((len(k) for k in [*self.names, *self.titles]), default=1)

    # --- building ----------------------------------------------------------------------------------

    def _known(self, key: str) -> bool:
        """Whether the reader has met this word written as a name (or it is the title's or author's)."""
        page = self.text.first_capital(key)
        return key in self.own_words or (page is not None and page <= self.horizon)

    def _later_names(self, names: Sequence[ConceptName]) -> dict[tuple[str, ...], NameRule]:
        met = {_name_key(n.text) for n in names if n.concept_first_page <= self.horizon}
        met_words = {w for key in met for w in key}
        found: dict[tuple[str, ...], NameRule] = {}
        for name in names:
            if name.concept_first_page <= self.horizon or not any(ch.isupper() for ch in name.text):
                continue  # met already, or a common noun ("lantern") the map counts as a term
            key = _name_key(name.text)
            parts = [w for w in key if w not in LINKS and not w.isdigit()]
            new = [w for w in parts if w not in met_words and not self._known(w)]
            if not key or key in met or not new:
                continue
            ordinary = all(w in BACKGROUND or self.text.ordinary(w) for w in new)
            self._add(found, key, NameRule(name.text, name.concept_first_page, ordinary))
            if name.kind == "person" and len(parts) > 1:
                for word in new:  # "Harker" alone names "Jonathan Harker"
                    if len(word) >= 3:
                        single = NameRule(name.text, name.concept_first_page, ordinary or word in BACKGROUND)
                        self._add(found, (word,), single)
        return found

    @staticmethod
    def _add(found: dict[tuple[str, ...], NameRule], key: tuple[str, ...], rule: NameRule) -> None:
        known = found.get(key)
        if known is None or (known.ordinary and not rule.ordinary) or rule.page < known.page:
            found[key] = rule

    def _later_titles(self) -> dict[tuple[str, ...], Chapter]:
        """Titles of chapters starting after the horizon that say more than a number ("The Night Watch")
        and that no chapter the reader has reached has too."""
        found: dict[tuple[str, ...], Chapter] = {}
        reached = {_name_key(_title_words(c.title)) for c in self.chapters if c.start_page <= self.horizon}
        for chapter in self.chapters:
            if chapter.start_page <= self.horizon:
                continue
            key = _name_key(_title_words(chapter.title))
            if key in reached:
                continue  # an earlier chapter has the same title ("The Letter" in two parts)
            content = [w for w in key if w not in LINKS and number_value(w) is None]
            if len(key) < 2 or all(self._known(w) for w in content):
                continue  # a number, or words the reader has seen as names (a title quoting the text)
            found.setdefault(key, chapter)
        return found

    # --- checking ----------------------------------------------------------------------------------

    def check(
        self, text: str, context: Sequence[Word], sentence: Sequence[Word], asked: Iterable[str]
    ) -> list[Finding]:
        """What in `sentence` (its `text` and words; `context` are the words just before it) comes from
        after the horizon. Words the reader's question used (`asked`) are never held against it."""
        asked_words = frozenset(asked)
        found: list[Finding] = []
        found += self._names(context, sentence, asked_words)
        found += self._citations(text, asked_words)
        found += self._quotes(context, sentence, asked_words)
        return found

    def _names(
        self, context: Sequence[Word], sentence: Sequence[Word], asked: frozenset[str]
    ) -> list[Finding]:
        span = [*context[-(self.longest - 1) :], *sentence] if self.longest > 1 else list(sentence)
        first = len(span) - len(sentence)
        found = []
        for i in range(len(span)):
            for n in range(1, self.longest + 1):
                if i + n > len(span):
                    break
                if i + n - 1 < first:
                    continue
                key = tuple(w.key for w in span[i : i + n])
                rule = self.names.get(key)
                title = self.titles.get(key)
                if (
                    rule is not None
                    and not (set(key) & asked - LINKS)
                    and self._written_as_name(span[i : i + n], rule)
                ):
                    found.append(Finding(LATER_NAME, rule.text, rule.page))
                elif title is not None and not (set(key) <= asked) and self._capitalised(span[i : i + n]):
                    found.append(Finding(LATER_CHAPTER, title.title, title.start_page))
        return found

    @staticmethod
    def _capitalised(written: Sequence[Word]) -> bool:
        return all(w.capital for w in written if w.key not in SMALL)

    def _written_as_name(self, written: Sequence[Word], rule: NameRule) -> bool:
        """An ordinary word ("Will") names someone only when capitalised inside a sentence."""
        if not rule.ordinary:
            return True
        if not self._capitalised(written):
            return False
        return len(written) > 1 or not written[0].opens

    def _citations(self, text: str, asked: frozenset[str]) -> list[Finding]:
        found = []
        for match in _PAGE.finditer(text):
            for token in (match.group(1), match.group(2)):
                page = self._page(token)
                if page is not None and page > self.horizon and token.lower() not in asked:
                    found.append(Finding(LATER_PAGE, match.group().strip(), page))
                    break
        for match in _CHAPTER.finditer(text):
            kind = CHAPTER if match.group("chapter") else match.group("part").lower().rstrip(".")
            kind = "volume" if kind == "vol" else kind
            for token in (match.group("first"), match.group("last")):
                number = number_value(token) if token else None
                start = self._first_start(kind, number) if number is not None else None
                if start is not None and start > self.horizon and token.lower() not in asked:
                    found.append(Finding(LATER_CHAPTER, match.group().strip(), start))
                    break
        return found

    def _first_start(self, kind: str, number: int) -> int | None:
        """Where the book's first entry numbered so starts (None: it has none). Numbering may restart in
        every part: a "Chapter VII" cited is later only when every CHAPTER VII of the book is."""
        starts = [self.chapters[i].start_page for i in numbered(kind, number, self.chapters)]
        return min(starts, default=None)

    def _page(self, token: str | None) -> int | None:
        if not token:
            return None
        page = self.labels.get(token.lower())
        if page is None and token.isdigit() and 1 <= int(token) <= self.page_count:
            page = int(token)
        return page

    def _quotes(
        self, context: Sequence[Word], sentence: Sequence[Word], asked: frozenset[str]
    ) -> list[Finding]:
        span = [w.key for w in [*context[-(QUOTE_WORDS - 1) :], *sentence]]
        for i in range(len(span) - QUOTE_WORDS + 1):
            run = span[i : i + QUOTE_WORDS]
            page = self.text.quote_page(run)
            if page is not None and page > self.horizon and not set(run) <= asked:
                return [Finding(LATER_QUOTE, " ".join(run), page)]
        return []

    def label(self, page: int) -> str:
        return self.label_of.get(page, str(page))
