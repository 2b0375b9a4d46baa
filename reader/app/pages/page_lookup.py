"""Pages as users type them (labels, indexes, percentages, chapter names) and page text."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from reader.domain.errors import PageNotFoundError, ReaderError
from reader.domain.models import Book, Chapter, Page, join_chunks

if TYPE_CHECKING:
    from reader.app.pages.chapter_lookup import ChapterChoice
    from reader.domain.ports import BookRepository, ChunkRepository

_PERCENT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*%\s*$")
_INDEX = re.compile(r"^\s*#\s*(\d+)\s*$")


class PageText(NamedTuple):
    """One page of a book as the viewer shows it."""

    number: int
    label: str
    page_count: int
    text: str
    chapter: Chapter | None
    matter: str | None = None
    """Whether the page is "front" or "back" matter; None on a page of the story."""


class Place(NamedTuple):
    """Where what the user typed leads: a page, and the chapter when a chapter was named."""

    number: int
    choice: ChapterChoice | None = None


def page_label(pages: Sequence[Page], number: int) -> str:
    """The printed label of page `number` (1-based), or the number itself."""
    if 1 <= number <= len(pages) and pages[number - 1].number == number:
        return pages[number - 1].label
    for page in pages:
        if page.number == number:
            return page.label
    return str(number)


def story_percent(book: Book, number: int) -> int:
    """How much of the story (0-100) is read at page `number`: front matter 0, back matter 100."""
    return round(100 * book.story_progress(number))


def resolve_page(
    text: str,
    pages: Sequence[Page],
    chapters: Sequence[Chapter] = (),
    *,
    allow_chapters: bool = False,
    story: range | None = None,
    current_page: int = 0,
) -> int:
    """Turn what the user typed into a 1-based page number (`resolve_place`, its page only).

    Raises:
        PageNotFoundError: with a one-line message saying what the book has.
    """
    return resolve_place(
        text, pages, chapters, allow_chapters=allow_chapters, story=story, current_page=current_page
    ).number


def resolve_place(
    text: str,
    pages: Sequence[Page],
    chapters: Sequence[Chapter] = (),
    *,
    allow_chapters: bool = False,
    story: range | None = None,
    current_page: int = 0,
) -> Place:
    """Turn what the user typed into a page, and the chapter when it named one.

    Accepts a printed label ("iv", "57"), an index ("#57", or a plain number in a book whose labels
    are not numbers), a percentage of the story's pages `story` (default: all pages; "45%", the page
    `story_percent` shows as 45%) and, with allow_chapters, a chapter (`find_chapter`: "Chapter 3",
    "Chapter the Third", "III" or a title; a bare chapter number prefers the part holding
    `current_page`). A page label comes first: "3" is the page labelled 3, "Chapter 3" the chapter.

    Raises:
        PageNotFoundError: with a one-line message saying what the book has ("No chapter 99 in this
        book" for a chapter it does not have).
    """
    query = str(text).strip()
    count = len(pages)
    if not query:
        raise PageNotFoundError("No page given; type a page label, a number, a percentage or a chapter.")
    if match := _PERCENT.match(query):
        percent = float(match.group(1))
        if not 0 <= percent <= 100:
            raise PageNotFoundError(f"{query}: a percentage must be between 0% and 100%.")
        span = story if story is not None and len(story) else range(1, count + 1)
        return Place(max(span.start, min(span[-1], span.start - 1 + round(len(span) * percent / 100))))
    if match := _INDEX.match(query):
        return Place(_check_index(int(match.group(1)), pages))
    lowered = query.lower()
    for page in pages:
        if page.label.lower() == lowered:
            return Place(page.number)
    if query.isdigit():
        labelled = [page for page in pages if page.label != str(page.number)]
        if not any(page.label.isdigit() for page in labelled):
            return Place(_check_index(int(query), pages))  # no numbers printed apart from indexes
        first, last = pages[0].label, pages[-1].label
        raise PageNotFoundError(
            f"No page labelled {query}; the printed pages run from {first} to {last}"
            f" (type #{query} to count pages from the first)."
        )
    from reader.app.pages import chapter_lookup  # its patterns compile when first asked

    if allow_chapters and chapters:
        if (choice := chapter_lookup.find_chapter(query, chapters, current_page)) is not None:
            return Place(choice.chapter.start_page, choice)
        if chapter_lookup.names_chapter(query):
            raise PageNotFoundError(chapter_lookup.no_chapter(query, chapters, entries=False))
    first, last = (pages[0].label, pages[-1].label) if pages else ("1", "1")
    raise PageNotFoundError(
        f"No page '{query}' in this book; its pages run from {first} to {last} ({count} pages)."
    )


def _check_index(number: int, pages: Sequence[Page]) -> int:
    if 1 <= number <= len(pages):
        return number
    raise PageNotFoundError(f"Page {number} is out of range; this book has pages 1 to {len(pages)}.")


def chapter_at(chapters: Sequence[Chapter], number: int) -> Chapter | None:
    """The innermost chapter containing page `number`."""
    found = None
    for chapter in chapters:
        if chapter.start_page <= number <= chapter.end_page and (
            found is None or chapter.level >= found.level
        ):
            found = chapter
    return found


def page_chapter(book: Book, chapters: Sequence[Chapter], number: int) -> Chapter | None:
    """The chapter page `number` is in; on front or back matter only an entry that starts there
    (a licence page is not in the story's last chapter, though that chapter's range reaches it)."""
    chapter = chapter_at(chapters, number)
    if chapter is not None and book.matter_at(number) and not book.matter_at(chapter.start_page):
        return None
    return chapter


class PageLookup:
    """Page text for the viewer, `search-page` and read_pages, built on get_by_page_range."""

    def __init__(self, books: BookRepository, chunks: ChunkRepository) -> None:
        self.books = books
        self.chunks = chunks

    def page_text(self, book: Book, number: int) -> PageText:
        pages = self.books.pages(book.id)
        chapters = self.books.chapters(book.id)
        if not 1 <= number <= book.page_count:
            raise PageNotFoundError(
                f"Page {number} is out of range; this book has pages 1 to {book.page_count}."
            )
        text = join_chunks(self.chunks.get_by_page_range(book.id, number, number))
        return PageText(
            number,
            page_label(pages, number),
            book.page_count,
            text,
            page_chapter(book, chapters, number),
            book.matter_at(number),
        )

    def range_text(self, book_id: str, start_page: int, end_page: int) -> str:
        """The text of pages start..end joined with blank lines."""
        return join_chunks(self.chunks.get_by_page_range(book_id, start_page, end_page))


def parse_page_range(
    text: str, pages: Sequence[Page], resolve: Callable[[str, Sequence[Page]], int]
) -> tuple[int, int]:
    """ "A-B", "A-" or "A" (printed labels or #N) as an inclusive range of page numbers."""
    first, dash, last = text.partition("-")
    if not first.strip():
        raise ReaderError(f"--pages {text}: give a first page, e.g. 5-12, 5- or 5.")
    start = resolve(first.strip(), pages)
    end = resolve(last.strip(), pages) if dash and last.strip() else (len(pages) if dash else start)
    if end < start:
        raise ReaderError(f"--pages {text}: the last page comes before the first.")
    return start, end
