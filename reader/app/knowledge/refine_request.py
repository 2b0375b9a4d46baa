"""What the model is sent to refine one chapter's names: the names met there, with a few short passages.

Only the chapter's own pages up to the reader's page are read, and only names the reader has met by
then are sent, so the request itself cannot carry anything past the spoiler horizon.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from reader.app.knowledge.xray import mention_pattern, shorten_around
from reader.app.text.sentences import split_sentences
from reader.domain.concept_refinement import name_key
from reader.domain.knowledge import ConceptEntry

PROMPT_VERSION = 1
"""Bump when the prompt changes: cached refinements of the old prompt are then not used."""
MAX_NAMES = 60
"""The most mentioned names of a chapter sent in one request."""
CONTEXTS = 2
"""Passages per name, each from another page."""
CONTEXT_CHARS = 160

SYSTEM_PROMPT = (
    "You sort the names found in one chapter of a novel. For each name you get the other names an index "
    "already joined to it and a few short passages from this chapter. Reply with one JSON object only:\n"
    '{"same": [["name", "name"]], "kinds": {"name": "person"}}\n'
    '- "same": groups of two or more of the given names that the passages show are the same one person, '
    "place or thing (a nickname and a full name, a title and a name). Never group different people of one "
    "family (Mr. and Mrs. Bennet, two sisters). Leave a name out when unsure.\n"
    '- "kinds": for every given "name", one of "person" (a character, or a family), "place" (a country, '
    'town, house, street or landmark), "term" (a thing, ship, body, title or idea) or "not-a-name" (an '
    "ordinary word that names nothing in the story).\n"
    "Use the names exactly as given and add no other name. Judge only from the passages given: add nothing "
    "you may know about this book from anywhere else."
)


@dataclass(frozen=True)
class Candidate:
    """One concept as the chapter names it: the names seen there and passages mentioning it."""

    concept_id: int
    name: str
    also: tuple[str, ...]
    mentions: int
    contexts: tuple[str, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.also)


def chapter_candidates(
    entries: Sequence[ConceptEntry],
    counts: Mapping[int, int],
    page_texts: Sequence[tuple[int, str]],
    limit: int = MAX_NAMES,
) -> list[Candidate]:
    """The concepts mentioned in the chapter (`counts`, by id), most mentioned first, each with the names
    of it that occur in `page_texts` (a name used by an earlier candidate is left to that one)."""
    sentences = [(page, sentence) for page, text in page_texts for sentence in split_sentences(text)]
    chosen = sorted((e for e in entries if e.id in counts), key=lambda e: (-counts[e.id], e.first_page, e.name))
    taken: set[str] = set()
    found: list[Candidate] = []
    for entry in chosen:
        if len(found) >= limit:
            break
        seen = []
        for name in (entry.name, *entry.aliases):
            key = name_key(name)
            if key in taken:
                continue
            pattern = mention_pattern([name], entry.kind)
            if any(pattern.search(sentence) for _, sentence in sentences):
                seen.append(name)
                taken.add(key)
        if not seen:
            continue
        found.append(Candidate(entry.id, seen[0], tuple(seen[1:]), counts[entry.id], _contexts(seen, entry.kind, sentences)))
    return found


def _contexts(names: Sequence[str], kind: str, sentences: Sequence[tuple[int, str]]) -> tuple[str, ...]:
    pattern = mention_pattern(names, kind)
    found: list[str] = []
    pages: set[int] = set()
    for page, sentence in sentences:
        if page in pages:
            continue
        match = pattern.search(sentence)
        if match:
            found.append(shorten_around(sentence, match.group(), CONTEXT_CHARS))
            pages.add(page)
            if len(found) >= CONTEXTS:
                break
    return tuple(found)


def request_text(title: str, candidates: Sequence[Candidate]) -> str:
    """The user message: the chapter's title and its names as JSON."""
    names = [{"name": c.name, "also": list(c.also), "passages": list(c.contexts)} for c in candidates]
    return json.dumps({"chapter": title, "names": names}, ensure_ascii=False, indent=1)
