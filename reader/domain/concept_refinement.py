"""What a chat model said about the names met in one chapter: which name one entity, and their kinds.

A refinement only ever names names the reader had already met by its `up_to_page`; the X-Ray applies
it on top of the model-free concept map and can only merge, retype or hide concepts that exist.
"""

from __future__ import annotations

from dataclasses import dataclass

REFINED_KINDS = ("person", "place", "term", "not-a-name")
"""The kinds the model may give a name; "not-a-name" hides the entry from the X-Ray."""

NOT_A_NAME = "not-a-name"


@dataclass(frozen=True)
class ChapterRefinement:
    """The model's validated answer for one chapter, read up to `up_to_page`."""

    scope: str
    """The chapter, as summaries name it ("chapter:3")."""
    first_page: int
    up_to_page: int
    groups: tuple[tuple[str, ...], ...]
    """Names (as they were sent) that are the same person, place or thing, two or more per group."""
    kinds: tuple[tuple[str, str], ...]
    """(name, kind) with a kind from REFINED_KINDS."""


def name_key(name: str) -> str:
    """A name for matching another spelling of it (the model's, a stored one): whitespace and case forgiven."""
    return " ".join(name.split()).casefold()
