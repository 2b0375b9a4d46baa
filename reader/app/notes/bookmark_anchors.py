"""Bookmarks found again by the start of their page's text after the book's pages changed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from reader.app.notes.anchoring import BookText, expected_page, find_anchor, quote_pattern
from reader.domain.annotations import Anchor, Bookmark

ANCHOR_CHARS = 80
"""How much of a bookmarked page's text (whitespace collapsed) is kept to find the page again."""

NAME_JOIN = " · "
"""Between the names of bookmarks a reindex brought onto one page."""


def page_anchor(text: str) -> str:
    """The start of a page's text, its whitespace collapsed ("" for a page without text)."""
    return " ".join(text.split())[:ANCHOR_CHARS].rstrip()


@dataclass(frozen=True)
class BookmarkReport:
    """What re-anchoring a book's bookmarks did."""

    moved: int = 0
    orphaned: int = 0
    found_again: int = 0
    merged: int = 0
    """Bookmarks that landed on a page already bookmarked: their names joined into its bookmark."""

    @property
    def changed(self) -> bool:
        return bool(self.moved or self.orphaned or self.found_again or self.merged)

    @property
    def message(self) -> str:
        parts = []
        if self.moved:
            parts.append(f"{self.moved} bookmark{'s' * (self.moved != 1)} moved with their text")
        if self.found_again:
            parts.append(f"{self.found_again} orphaned bookmark{'s' * (self.found_again != 1)} found again")
        if self.merged:
            parts.append(f"{self.merged} merged into a bookmark on the same page")
        if self.orphaned:
            parts.append(
                f"{self.orphaned} bookmark{'s' * (self.orphaned != 1)} no longer found "
                "(kept on the old page number as orphaned)"
            )
        return "; ".join(parts) + "." if parts else ""


def _holds(text: str, anchor: str) -> bool:
    pattern = quote_pattern(anchor)
    return pattern is not None and pattern.search(text) is not None


def _found_page(bookmark: Bookmark, book: BookText, old_page_count: int) -> int | None:
    """The page holding the bookmark's anchor now (its own page when still there), None when gone."""
    texts = book.pages
    if 1 <= bookmark.page <= len(texts) and _holds(texts[bookmark.page - 1], bookmark.anchor):
        return bookmark.page
    expected = Anchor(bookmark.page, 0, len(bookmark.anchor), bookmark.anchor)
    found = find_anchor(expected, book, expected_page(expected, old_page_count, len(texts)))
    return found.page if found is not None else None


def reanchor_bookmarks(
    bookmarks: Sequence[Bookmark], book: BookText, old_page_count: int
) -> tuple[list[Bookmark], BookmarkReport]:
    """The bookmarks on the pages holding their anchors in `book` (orphaned where gone, on their old
    page number within the book); bookmarks meeting on one page become one, their names joined."""
    page_count = max(1, len(book.pages))
    moved = orphaned = found_again = 0
    placed: list[Bookmark] = []
    for bookmark in bookmarks:
        page = (
            _found_page(bookmark, book, old_page_count or page_count)
            if bookmark.anchor
            else min(bookmark.page, page_count)
        )
        if page is None:
            orphaned += not bookmark.orphaned
            placed.append(replace(bookmark, page=min(bookmark.page, page_count), orphaned=True))
            continue
        if bookmark.orphaned:
            found_again += 1
        elif page != bookmark.page and bookmark.anchor:
            moved += 1
        placed.append(replace(bookmark, page=page, orphaned=False))
    by_page: dict[int, list[Bookmark]] = {}
    for bookmark in placed:
        by_page.setdefault(bookmark.page, []).append(bookmark)
    kept: list[Bookmark] = []
    merged = 0
    for page in sorted(by_page):
        group = sorted(by_page[page], key=lambda b: (b.orphaned, b.id))
        first = group[0]
        if len(group) > 1:
            merged += len(group) - 1
            names = list(dict.fromkeys(b.name for b in group if b.name))
            first = replace(first, name=NAME_JOIN.join(names))
        kept.append(first)
    return kept, BookmarkReport(moved, orphaned, found_again, merged)
