"""The reader's own marks in a book: bookmarks, highlights and notes. Pure Python."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


@dataclass(frozen=True)
class Bookmark:
    """A marked page, with an optional name, and the start of its text to find it again by."""

    id: int
    book_id: str
    page: int
    name: str = ""
    created_at: str = ""
    anchor: str = ""
    """The first words of the page's text (empty for a page without text): a reindex that moves the
    text to another page moves the bookmark with it."""
    orphaned: bool = False
    """True when a reindex could not find the anchor any more; kept on its old page, never dropped."""


@dataclass(slots=True)
class Anchor:
    """Where a passage is: its page, character offsets in the page's text, the quote and some context.

    The quote and its context (`prefix` before it, `suffix` after it) find the passage again when the
    book's pages change (a re-import or `reader reindex`); the offsets are only where it was last seen.
    """

    page: int
    start: int
    end: int
    quote: str
    prefix: str = ""
    suffix: str = ""


@dataclass(slots=True)
class Annotation:
    """A highlighted passage, with the reader's note when there is one."""

    id: int
    book_id: str
    anchor: Anchor
    note: str = ""
    orphaned: bool = False
    """True when the quote could no longer be found after the book's pages changed; kept, never dropped."""
    created_at: str = ""
    updated_at: str = ""

    @property
    def page(self) -> int:
        return self.anchor.page

    @property
    def quote(self) -> str:
        return self.anchor.quote

    @property
    def kind(self) -> str:
        """ "note" when the reader wrote something about the passage, else "highlight"."""
        return "note" if self.note.strip() else "highlight"


@dataclass(slots=True, frozen=True)
class AnnotationLine:
    """What a list of highlights and notes shows of one: read without its anchor's offsets and context."""

    id: int
    page: int
    quote: str
    note: str = ""
    orphaned: bool = False


class MarkCounts(NamedTuple):
    """How many bookmarks, highlights (without a note) and notes a book has."""

    bookmarks: int = 0
    highlights: int = 0
    notes: int = 0

    def __bool__(self) -> bool:
        return bool(self.bookmarks or self.highlights or self.notes)

    @property
    def phrase(self) -> str:
        """E.g. "3 bookmarks, 12 highlights and 1 note" (kinds with none left out; "" for none)."""
        parts = [
            f"{count} {kind}{'s' * (count != 1)}"
            for count, kind in ((self.bookmarks, "bookmark"), (self.highlights, "highlight"), (self.notes, "note"))
            if count
        ]
        return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)
