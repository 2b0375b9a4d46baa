"""Page citations in answers ("[p. 57]", "[pp. 57-58]") turned into links the viewer can follow."""

from __future__ import annotations

import re
from urllib.parse import quote, unquote

from reader.app.text.sentences import split_sentences

CITATION = re.compile(r"\[(pp?)\.\s*([^\[\]\(\)]{1,40}?)\](?!\()")
SCHEME = "page:"
_WORD = re.compile(r"\w+(?:['’]\w+)*")


def first_label(labels: str) -> str:
    """The first printed label of "57", "57-58" or "57–58"."""
    return re.split(r"\s*[-–,]\s*", labels.strip(), maxsplit=1)[0]


def linkify_citations(markdown: str) -> str:
    """Turn each citation into a Markdown link whose target names its first page label."""

    def link(match: re.Match[str]) -> str:
        return f"[{match.group(1)}. {match.group(2)}]({SCHEME}{quote(first_label(match.group(2)))})"

    return CITATION.sub(link, markdown)


def citation_labels(markdown: str) -> list[str]:
    """The distinct first labels cited in `markdown`, in order of appearance."""
    seen: dict[str, None] = {}
    for match in CITATION.finditer(markdown):
        seen.setdefault(first_label(match.group(2)), None)
    return list(seen)


def label_from_href(href: str) -> str | None:
    """The page label a citation link points at, or None for any other link."""
    return unquote(href[len(SCHEME) :]) if href.startswith(SCHEME) else None


_BOLD = re.compile(r"\*\*(.+?)\*\*", re.DOTALL)


def _cites(text: str, label: str) -> bool:
    return any(first_label(match.group(2)) == label for match in CITATION.finditer(text))


def _words(text: str) -> list[str]:
    return _WORD.findall(CITATION.sub(" ", text))


def cited_words(markdown: str, label: str) -> str:
    """The words citing page `label` (citations and Markdown marks left out): of a quoted passage citing
    it, its bold part (the sentences that answer) or else all of it; elsewhere, of the sentences citing it,
    or the sentence before when a citation stands alone after it."""
    words: list[str] = []
    for block in re.split(r"\n\s*\n", markdown):
        if not _cites(block, label):
            continue
        if block.lstrip().startswith(">"):
            bold = _BOLD.findall(block)
            words += _words(" ".join(bold) if bold else block)
            continue
        sentences = split_sentences(block)
        for index, sentence in enumerate(sentences):
            if _cites(sentence, label):
                said = _words(sentence)
                words += said if said or index == 0 else _words(sentences[index - 1])
    return " ".join(words)
