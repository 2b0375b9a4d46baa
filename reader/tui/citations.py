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


def cited_words(markdown: str, label: str) -> str:
    """The words of the answer's sentences that cite page `label` (citations and Markdown marks left out)."""
    cited = [
        sentence
        for sentence in split_sentences(markdown)
        if any(first_label(match.group(2)) == label for match in CITATION.finditer(sentence))
    ]
    return " ".join(_WORD.findall(" ".join(CITATION.sub(" ", sentence) for sentence in cited)))
