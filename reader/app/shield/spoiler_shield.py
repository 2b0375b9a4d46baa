"""The spoiler shield on answers: text streams through a sentence at a time, and stops at the first
sentence that names, cites or quotes something from after the reader's page.

A sentence is released once it is complete and checked (`ShieldIndex.check`), so an honest answer
streams as it comes with at most one sentence in hand. `verdict` decides over the whole answer
(the same sentences, the same rules) what was shown and what is held back, and from which page on
the held part is no spoiler any more.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from reader.app.shield.rules import Finding, ShieldIndex
from reader.app.shield.words import Word, answer_words, words
from reader.app.text.sentences import is_abbreviation

log = logging.getLogger("reader.shield")

HELD_NOTICE = (
    "The rest of this answer mentioned something from later in the book than your page, so it is held back."
)
"""The one line the reader sees (never naming what was held back)."""
HELD_SUMMARY = "The rest of this summary mentioned something from later in the book than your page."
"""The line closing a model-written summary or recap cut short by the shield."""
CONTEXT_WORDS = 8
"""Words before a sentence checked with it (a name or quote split across a sentence break)."""

_BOUNDARY = re.compile(r"[.!?…]+[\"'”’)\]*_]*(?=\s)|\n")
_LAST_WORD = re.compile(r"([A-Za-z]+)$")

IndexSource = Callable[[], ShieldIndex | None]
"""Gives the index when it is needed (it may wait for it to be built); None lets everything through."""


def sentence_ends(text: str, start: int = 0) -> Iterator[int]:
    """Where each complete sentence of text[start:] ends: after its stop (once a space follows) or a line break."""
    for match in _BOUNDARY.finditer(text, start):
        stop = match.group()
        if stop.startswith(".") and len(stop.rstrip("\"'”’)]*_")) == 1:
            word = _LAST_WORD.search(text, max(start, match.start() - 12), match.start())
            if word and is_abbreviation(word.group(1)):
                continue
        yield match.end()


@dataclass(frozen=True)
class ShieldVerdict:
    """The whole answer, where the held-back part starts (None: nothing held) and why."""

    text: str
    held_at: int | None = None
    findings: tuple[Finding, ...] = ()

    @property
    def held(self) -> bool:
        return self.held_at is not None

    @property
    def shown(self) -> str:
        """What the reader sees (the notice line aside)."""
        return self.text if self.held_at is None else self.text[: self.held_at].rstrip()

    @property
    def spoiler_page(self) -> int | None:
        """The reading position from which the held part spoils nothing any more."""
        return max((f.page for f in self.findings), default=None) if self.held else None


class SentenceChecker:
    """Checks an answer's sentences in order, keeping the words just before each for context."""

    def __init__(self, index: ShieldIndex, question: str) -> None:
        self.index = index
        self.asked = frozenset(words(question))
        self.context: list[Word] = []

    def check(self, text: str, start: int, end: int) -> list[Finding]:
        sentence = answer_words(text[start:end], start)
        found = self.index.check(text[start:end], self.context, sentence, self.asked)
        self.context = [*self.context, *sentence][-CONTEXT_WORDS:]
        return found


def verdict(index: ShieldIndex | None, question: str, text: str) -> ShieldVerdict:
    """What of `text` may be shown at the index's horizon: everything before the first sentence that
    breaks a rule; the findings are those of every sentence from there on."""
    if index is None:
        return ShieldVerdict(text)
    checker = SentenceChecker(index, question)
    start, held_at, findings = 0, None, []
    ends = [*sentence_ends(text), len(text)]
    for end in ends:
        if end <= start:
            continue
        found = checker.check(text, start, end)
        if found and held_at is None:
            held_at = start
        if held_at is not None:
            findings.extend(found)
        start = end
    if held_at is not None and not text[:held_at].strip():
        held_at = 0
    result = ShieldVerdict(text, held_at, tuple(findings))
    if result.held:
        log.debug("held back from character %d: %s", held_at, "; ".join(describe(index, result.findings)))
    return result


def describe(index: ShieldIndex, findings: tuple[Finding, ...]) -> list[str]:
    """One line per distinct finding, with page labels."""
    return list(dict.fromkeys(f.describe(index.label(f.page)) for f in findings))


class StreamShield:
    """Releases streamed text sentence by sentence until a sentence breaks a rule, then holds the rest."""

    def __init__(self, source: IndexSource, question: str, *, reveal: bool = False) -> None:
        self.source = source
        self.question = question
        self.reveal = reveal
        self.text = ""
        self.done = 0
        """Characters of `text` released so far."""
        self.held = False
        self._checker: SentenceChecker | None = None
        self._index: ShieldIndex | None = None
        self._loaded = False

    @property
    def index(self) -> ShieldIndex | None:
        if not self._loaded:
            self._index = self.source()
            self._loaded = True
        return self._index

    def use(self, index: ShieldIndex | None) -> None:
        """Check what comes from now on against another horizon (the reader moved mid-turn)."""
        self._index, self._loaded = index, True
        if self._checker is not None and index is not None:
            self._checker.index = index

    def feed(self, delta: str) -> str:
        """Take a streamed piece; return the text now safe to show (often "" until a sentence ends)."""
        self.text += delta
        if self.reveal:
            self.done = len(self.text)
            return delta
        if self.held:
            return ""
        released = self.done
        for end in sentence_ends(self.text, self.done):
            if end <= self.done:
                continue
            if self._breaks(self.done, end):
                self.held = True
                break
            self.done = end
        return self.text[released : self.done]

    def _breaks(self, start: int, end: int) -> bool:
        index = self.index
        if index is None:
            return False
        if self._checker is None:
            self._checker = SentenceChecker(index, self.question)
        return bool(self._checker.check(self.text, start, end))

    def rest(self, judged: ShieldVerdict) -> str:
        """What of the judged answer is still to stream after what was released ("" when the
        streamed text is not the start of it, or nothing more may be shown)."""
        if self.reveal:
            return ""
        released = self.text[: self.done]
        shown = judged.shown
        if not shown.startswith(released):
            return ""
        self.done = len(self.text)
        return shown[len(released) :]

    def verdict(self, answer: str) -> ShieldVerdict:
        """The decision over the whole answer (the same sentences and rules as while it streamed)."""
        return verdict(self.index, self.question, answer)
