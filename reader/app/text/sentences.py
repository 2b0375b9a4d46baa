"""Splitting prose into sentences without breaking at "Mr." or "J." or inside quoted speech."""

from __future__ import annotations

import re

TITLE_ABBREVIATIONS = frozenset(
    "mr mrs ms messrs dr st rev revd capt col gen lt sgt prof mt jr sr fr hon gov sen rep".split()
)
"""Abbreviations whose full stop does not end a sentence (compared lower-cased, without the stop)."""

OTHER_ABBREVIATIONS = frozenset("no vs etc cf viz approx esp fig vol ch pp p ed".split())

_END = re.compile(r"[.!?…]+[\"'”’)\]]*(?=\s|$)")
_LAST_WORD = re.compile(r"([A-Za-z]+)$")


def is_abbreviation(word: str) -> bool:
    """Whether a full stop after `word` belongs to an abbreviation or an initial ("Mr", "J")."""
    lowered = word.lower()
    return (
        lowered in TITLE_ABBREVIATIONS
        or lowered in OTHER_ABBREVIATIONS
        or (len(word) == 1 and word.isupper())
    )


def split_sentences(text: str) -> list[str]:
    """The sentences of `text`, each stripped and with its whitespace collapsed, in order.

    A paragraph break always ends a sentence; "?" or "!" followed by a lower-case word (as in
    '"Who?" she asked.') does not.
    """
    sentences: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text):
        paragraph = " ".join(paragraph.split())
        start = 0
        for match in _END.finditer(paragraph):
            if match.group().startswith(".") and len(match.group().rstrip("\"'”’)]")) == 1:
                word = _LAST_WORD.search(paragraph, start, match.start())
                if word and word.end() == match.start() and is_abbreviation(word.group(1)):
                    continue
            following = paragraph[match.end() :].lstrip()
            if following and following[0].islower():
                continue
            sentence = paragraph[start : match.end()].strip()
            if sentence:
                sentences.append(sentence)
            start = match.end()
        rest = paragraph[start:].strip()
        if rest:
            sentences.append(rest)
    return sentences
