"""Companion knowledge about a book: its concept map (people, places, terms) and summaries.

Everything a reader sees of it is cut at a page (the spoiler horizon): a concept first met after
that page does not exist yet, and counts, pages, aliases and co-occurrences stop at it.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

KINDS = ("person", "place", "term")
"""The kinds of concept, in the order the X-Ray lists them."""


@dataclass(frozen=True)
class ConceptAlias:
    """One way the book names a concept ("Mr. Thorne") and the first page it does so."""

    text: str
    first_page: int
    preference: int = 0
    """Lower is a better display name; the concept's own name is 0."""


@dataclass(frozen=True)
class ConceptName:
    """One name of a concept with the pages it and its concept are first met on (the whole book: for
    the spoiler shield, which must know the names a reader has not met yet, never shown)."""

    concept_id: int
    kind: str
    concept_first_page: int
    text: str
    first_page: int


@dataclass(frozen=True)
class ExtractedConcept:
    """A concept found at import: its name, kind, aliases and mentions per page (ascending)."""

    name: str
    kind: str
    aliases: tuple[ConceptAlias, ...]
    mentions: tuple[tuple[int, int], ...]
    """(page, count) pairs in page order; every alias's first page is among them."""

    @property
    def first_page(self) -> int:
        return self.mentions[0][0]

    @property
    def total(self) -> int:
        return sum(count for _, count in self.mentions)


@dataclass(frozen=True)
class ConceptEntry:
    """A concept as the reader may see it at a page: the names and counts up to that page."""

    id: int
    name: str
    """The best name the book has used for it so far (never a name first used later)."""
    kind: str
    first_page: int
    mentions: int
    pages: int
    """How many pages up to the reader's page mention it."""
    last_page: int
    aliases: tuple[str, ...] = ()
    """Other names used for it so far."""


@dataclass(frozen=True)
class ConceptSnippet:
    """A short passage mentioning a concept, with the page it is on."""

    page: int
    label: str
    text: str


@dataclass(frozen=True)
class ConceptDetail:
    """Everything the X-Ray and lookup_concept show about one concept up to the reader's page."""

    entry: ConceptEntry
    mentions: tuple[tuple[int, int], ...]
    """(page, count) for each page mentioning it, up to the reader's page."""
    related: tuple[tuple[ConceptEntry, int], ...]
    """Concepts appearing on the same pages, with how many pages they share, most shared first."""
    snippets: tuple[ConceptSnippet, ...]


@dataclass(frozen=True)
class SectionSummary:
    """A summary of one chapter (or section) up to the reader's page."""

    index: int
    title: str
    start_page: int
    end_page: int
    """The last page summarised: the chapter's end, or the reader's page in a chapter in progress."""
    text: str
    model: str
    """The model that wrote it, or "extractive"."""
    partial: bool = False
    """True when the reader is in the middle of the chapter (summarised only up to their page)."""
    cached: bool = False
    parts: tuple[int, ...] = ()
    """The contents entries of the parts (books, volumes) it is in, outermost first."""


@dataclass(frozen=True)
class PartSummary:
    """A part (a book, a volume) over chapters, with a short summary of their summaries ("" offline)."""

    entry: int
    """Its contents entry (Chapter.index)."""
    title: str
    start_page: int
    end_page: int
    """The last page of it read: its end, or the reader's page in a part in progress."""
    text: str = ""
    model: str = ""
    partial: bool = False
    cached: bool = False


@dataclass(frozen=True)
class Recap:
    """The story so far: the recap text and the section summaries it was composed from.

    `text` is the whole recap as shown (the model's overview, then the parts with their chapters);
    `overview` is the model's story so far alone ("" offline)."""

    up_to_page: int
    text: str
    sections: tuple[SectionSummary, ...]
    model: str
    notes: tuple[str, ...] = ()
    """Things the reader should know, e.g. that the model failed and the recap is extractive."""
    cached: bool = False
    parts: tuple[PartSummary, ...] = ()
    """The parts the sections are in, in reading order (none in a book without parts)."""
    overview: str = ""


@dataclass(frozen=True)
class ConceptHistory:
    """A concept's whole record in a book, from which its `ConceptEntry` at any page is read (for caches
    that answer many pages; only what `at` returns may reach the reader)."""

    id: int
    name: str
    kind: str
    first_page: int
    pages: tuple[int, ...]
    """The pages that mention it, ascending."""
    running_counts: tuple[int, ...]
    """Mentions up to and including each of `pages`."""
    running_pages: tuple[int, ...]
    """Pages that mention it up to and including each of `pages`."""
    aliases: tuple[tuple[int, str], ...] = ()
    """(first page, name) of its names, best display name first."""

    def at(self, page: int) -> ConceptEntry | None:
        """The concept as the reader sees it at `page` (what `ConceptRepository.visible` gives), or None
        before it is met."""
        if self.first_page > page:
            return None
        at = bisect.bisect_right(self.pages, page) - 1
        if at < 0:
            return None
        names = [name for first, name in self.aliases if first <= page]
        shown = names[0] if names else self.name
        return ConceptEntry(
            self.id,
            shown,
            self.kind,
            self.first_page,
            self.running_counts[at],
            self.running_pages[at],
            self.pages[at],
            tuple(n for n in names if n != shown),
        )
