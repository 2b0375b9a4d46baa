"""One open book: cached pages and chapters, page text, the reading position and jump history."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from reader.app.notes.reading_pace import TimeLeft
from reader.app.pages.page_lookup import page_chapter, page_label, resolve_place, story_percent
from reader.domain.models import FIGURE_IMPORTANCE, Book, Chapter, Page

if TYPE_CHECKING:
    from reader.app.pages.chapter_lookup import ChapterChoice

FAR_AHEAD = 5
"""A jump more than this many pages past the reading position asks before unlocking spoilers."""

PAGE_CACHE_SIZE = 32


class ShownPage(NamedTuple):
    """What the page viewer renders: the page, its place in the book and the reading position."""

    book: Book
    number: int
    label: str
    text: str
    chapter: Chapter | None
    horizon: int
    horizon_label: str
    visual_importance: int = 1
    """1 (prose) to 5 (mostly figures): measured at import, or given by `reader enrich`."""
    bookmark: str | None = None
    """The page's bookmark name ("" for an unnamed bookmark); None when the page has no bookmark."""
    time_left: TimeLeft | None = None
    """Time left in the chapter and the book at the reader's pace (None until it is known)."""
    text_source: str = ""
    """"ocr" or "model" when the page's text was read from its picture, not its text layer."""
    chapter_name: str = ""
    """The chapter as the header names it: its title, after its part's where every part numbers its
    chapters anew ("BOOK TEN: 1812 › CHAPTER III")."""

    @property
    def has_figures(self) -> bool:
        return self.visual_importance >= FIGURE_IMPORTANCE

    @property
    def page_count(self) -> int:
        return self.book.page_count

    @property
    def percent(self) -> int:
        """How much of the story is read at this page: front matter 0, back matter 100."""
        return story_percent(self.book, self.number)

    @property
    def matter(self) -> str | None:
        """Whether the page is "front" or "back" matter; None on a page of the story."""
        return self.book.matter_at(self.number)


class ReadingSession:
    """The state of reading one book; page text comes from `load_text(book_id, start, end)`."""

    def __init__(
        self,
        book: Book,
        pages: list[Page],
        chapters: list[Chapter],
        load_text: Callable[[str, int, int], str],
    ) -> None:
        self.book = book
        self.pages = pages
        self.chapters = chapters
        self._load_text = load_text
        self._texts: OrderedDict[int, str] = OrderedDict()
        self.horizon = max(1, min(book.current_page, book.page_count))
        """The reading position: the spoiler horizon stored as the book's current page."""
        self.number = self.horizon
        """The page on screen (may be behind the horizon when re-reading)."""
        self.history: list[int] = []
        self._chapter_starts = sorted({c.start_page for c in chapters})
        self._chapter_names: dict[int, str] | None = None
        self.last_choice: ChapterChoice | None = None
        """The chapter the last `resolve` took by number or title (None: it was a page)."""

    @property
    def page_count(self) -> int:
        return self.book.page_count

    def clamp(self, number: int) -> int:
        return max(1, min(number, self.page_count))

    def label(self, number: int) -> str:
        return page_label(self.pages, number)

    def text(self, number: int) -> str:
        """The exact text of one page, from a small LRU cache."""
        if number in self._texts:
            self._texts.move_to_end(number)
            return self._texts[number]
        text = self._load_text(self.book.id, number, number)
        self._texts[number] = text
        if len(self._texts) > PAGE_CACHE_SIZE:
            self._texts.popitem(last=False)
        return text

    def shown(self) -> ShownPage:
        """The page on screen, ready to render."""
        number = self.number
        chapter = page_chapter(self.book, self.chapters, number)
        return ShownPage(
            self.book,
            number,
            self.label(number),
            self.text(number),
            chapter,
            self.horizon,
            self.label(self.horizon),
            self.visual_importance(number),
            text_source=self.text_source(number),
            chapter_name=self.chapter_name(chapter) if chapter is not None else "",
        )

    def chapter_name(self, chapter: Chapter) -> str:
        """`chapter` as the header names it (`chapter_names`, worked out for the whole book once)."""
        if self._chapter_names is None:
            from reader.app.pages.chapter_lookup import chapter_names  # with the first chapter shown

            self._chapter_names = chapter_names(self.chapters)
        return self._chapter_names.get(chapter.index, chapter.title)

    def text_source(self, number: int) -> str:
        if 1 <= number <= len(self.pages) and self.pages[number - 1].number == number:
            return self.pages[number - 1].text_source
        return ""

    def visual_importance(self, number: int) -> int:
        if 1 <= number <= len(self.pages) and self.pages[number - 1].number == number:
            return self.pages[number - 1].visual_importance
        return 1

    def resolve(self, typed: str) -> int:
        """A page from a label, "#N", "45%" (of the story) or a chapter (a bare chapter number prefers
        the part of the page on screen; `last_choice` keeps the chapter taken); PageNotFoundError otherwise."""
        place = resolve_place(
            typed,
            self.pages,
            self.chapters,
            allow_chapters=True,
            story=self.book.story_pages,
            current_page=self.number,
        )
        self.last_choice = place.choice
        return place.number

    def took(self) -> str:
        """What the last `resolve` took when it had to choose among parts' chapters of the same number
        ("" when it named a page or the only such chapter)."""
        choice = self.last_choice
        return choice.note if choice is not None else ""

    def next_chapter_start(self, number: int) -> int | None:
        """The first page of the next chapter after page `number`."""
        return next((start for start in self._chapter_starts if start > number), None)

    def previous_chapter_start(self, number: int) -> int | None:
        """The start of the chapter holding `number`, or of the one before when already at its start."""
        earlier = [start for start in self._chapter_starts if start < number]
        return earlier[-1] if earlier else None

    def needs_confirmation(self, target: int) -> bool:
        """Whether going to `target` jumps far past the reading position (and so unlocks spoilers)."""
        return target > self.horizon + FAR_AHEAD

    def go(self, target: int, *, jump: bool) -> bool:
        """Show page `target`, moving the reading position forward; True if the horizon moved."""
        target = self.clamp(target)
        if jump and target != self.number:
            self.history.append(self.number)
            del self.history[:-50]
        self.number = target
        if target > self.horizon:
            self.horizon = target
            return True
        return False

    def set_horizon(self, number: int) -> None:
        """Move the reading position anywhere (backwards too), as the reader asks."""
        self.horizon = self.clamp(number)

    def back(self) -> int | None:
        """The page before the last jump, or None when there was no jump."""
        return self.history.pop() if self.history else None
