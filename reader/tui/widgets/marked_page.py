"""Drawing the reader's marks on the page: highlights and notes, search hits and the selection.

The base of the page viewer's marks (MarkWrites, VisualMode, PageSearchHits and PageMarks build on it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.content import Content
from textual.widget import Widget

from reader.app.search.snippets import term_spans
from reader.domain.annotations import Annotation, Bookmark
from reader.tui.page_selection import PageLines, Selection
from reader.tui.reading_session import ReadingSession, ShownPage
from reader.tui.widgets.page_content import page_content
from reader.tui.widgets.page_text import PageText

if TYPE_CHECKING:
    from reader.services import Services

HIGHLIGHT_STYLE = "on $page-highlight"
NOTE_STYLE = "underline on $page-highlight"
HIT_STYLE = "bold on $page-search-hit"
CURRENT_HIT_STYLE = "bold reverse"
SELECTION_STYLE = "reverse"
QUOTE_ROOM = 90


class SearchHits:
    """The words of a search opened on the page, and the pages of its results (for n / N across pages)."""

    def __init__(self, query: str, pages: list[int], spans: list[tuple[int, int]], index: int = 0) -> None:
        self.query = query
        self.pages = pages
        self.spans = spans
        self.index = index


def quote_line(text: str, room: int = QUOTE_ROOM) -> str:
    """`text` on one line, cut to `room` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= room else flat[: room - 1] + "…"


class MarkedPage(Widget):
    """The page's marks and how they are drawn: the bookmarks, each page's highlights (cached), the
    search hits and the selection."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.selection: Selection | None = None
        self.hits: SearchHits | None = None
        self.bookmarks: dict[int, Bookmark] = {}
        self._annotations: dict[int, list[Annotation]] = {}
        self._lines: PageLines | None = None

    session: ReadingSession | None

    @property
    def page_text(self) -> PageText:
        return self.query_one(PageText)

    @property
    def services(self) -> Services | None:
        return getattr(self.app, "services", None)

    def with_marks(self, page: ShownPage) -> ShownPage:
        """`page` with its bookmark."""
        bookmark = self.bookmarks.get(page.number)
        return page._replace(bookmark=bookmark.name if bookmark else None)

    def page_annotations(self, number: int) -> list[Annotation]:
        """The highlights and notes of page `number` of the open book (cached per page)."""
        found = self._annotations.get(number)
        if found is None:
            services = self.services
            session = self.session
            found = services.annotations.on_page(session.book.id, number) if services and session else []
            self._annotations[number] = found
        return found

    def decorate(self, page: ShownPage, content: Content) -> Content:
        """`content` with the page's highlights, the search hits and the selection drawn on it."""
        if not page.text.strip():
            return content
        length = len(content.plain)
        for annotation in self.page_annotations(page.number):
            start, end = min(annotation.anchor.start, length), min(annotation.anchor.end, length)
            if start < end:
                content = content.stylize(NOTE_STYLE if annotation.note else HIGHLIGHT_STYLE, start, end)
        hits = self.hits
        if hits is not None:
            for index, (start, end) in enumerate(hits.spans):
                content = content.stylize(CURRENT_HIT_STYLE if index == hits.index else HIT_STYLE, start, end)
        if self.selection is not None and self.selection.start < self.selection.end:
            content = content.stylize(SELECTION_STYLE, self.selection.start, self.selection.end)
        return content

    def page_changed(self, page: ShownPage, *, backwards: bool = False) -> None:
        """A new page is about to be drawn: leave visual mode, find the search hits on it."""
        if self.selection is not None:
            self.selection = None
            self.refresh_bindings()
        if self.hits is not None:
            self.hits.spans = term_spans(page.text, self.hits.query)
            self.hits.index = len(self.hits.spans) - 1 if backwards and self.hits.spans else 0

    def page_drawn(self) -> None:
        """The page is on screen: scroll the current search hit into view."""
        self._lines = None
        if self.hits is not None and self.hits.spans:
            self.page_text.call_after_refresh(self._scroll_to_offset, self.hits.spans[self.hits.index][0])

    def _restyle(self) -> None:
        """Draw the page again where it is scrolled to (highlights, hits or the selection changed)."""
        session = self.session
        if session is None:
            return
        page = self.with_marks(session.shown())
        self.page_text.restyle(self.decorate(page, page_content(page)))

    def _scroll_to_offset(self, offset: int) -> None:
        lines = self._page_lines()
        self.page_text.scroll_to_line(lines.line_of(offset))

    def _page_lines(self) -> PageLines:
        if self._lines is None or self._lines.text != self.page_text.text:
            self._lines = self.page_text.lines()
        return self._lines

    # --- what the viewer does for its marks ------------------------------------------------------

    def refresh_header(self) -> None:  # PageViewer's
        raise NotImplementedError

    def jump_to(self, target: int) -> None:  # PageViewer's
        raise NotImplementedError

    def go_to_hit_page(self, page: int, *, backwards: bool) -> None:  # PageViewer's
        raise NotImplementedError
