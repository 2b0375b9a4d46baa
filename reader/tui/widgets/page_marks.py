"""The reader's marks on the page viewer: bookmarks, visual-mode selection, highlights and notes, search
hits, and undo for removals. Mixed into PageViewer (its bindings come before the page keys they shadow)."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on, work
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.widget import Widget

from reader.app.snippets import term_spans
from reader.app.undo import UndoStack
from reader.domain.annotations import Annotation, AnnotationLine, Bookmark
from reader.domain.errors import ReaderError
from reader.tui.page_selection import (
    PageLines,
    Selection,
    first_line_selection,
    line_down,
    line_up,
    word_back,
    word_forward,
)
from reader.tui.reading_session import ReadingSession, ShownPage
from reader.tui.screens.marks_screen import LazyMarks, MarksScreen, MarkWindow
from reader.tui.screens.text_screen import TextScreen
from reader.tui.widgets.page_text import PageText

if TYPE_CHECKING:
    from reader.services import Services

HIGHLIGHT_STYLE = "on $page-highlight"
NOTE_STYLE = "underline on $page-highlight"
HIT_STYLE = "bold on $page-search-hit"
CURRENT_HIT_STYLE = "bold reverse"
SELECTION_STYLE = "reverse"
QUOTE_ROOM = 90
NOTES_WINDOW = 120
"""Lines of the notes list read as it opens, around the page on screen (the rest come from a worker)."""

VISUAL_ACTIONS = frozenset(("extend", "swap_ends", "highlight", "note", "remove_highlights", "leave_visual"))
HIT_ACTIONS = frozenset(("next_hit", "previous_hit", "clear_hits"))

Job = Callable[["Services"], "Outcome"]


@dataclass(frozen=True)
class Outcome:
    """What a write did: a line for the reader, and whether it was a mistake to report as one."""

    notice: str = ""
    error: bool = False


@dataclass
class SearchHits:
    """The words of a search opened on the page, and the pages of its results (for n / N across pages)."""

    query: str
    pages: list[int]
    spans: list[tuple[int, int]]
    index: int = 0


def quote_line(text: str, room: int = QUOTE_ROOM) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= room else flat[: room - 1] + "…"


class PageMarks(Widget):
    """Bookmarks, highlights, notes, visual mode and search hits for the page viewer."""

    MARK_BINDINGS: ClassVar[list[BindingType]] = [
        Binding("m", "toggle_bookmark", "Bookmark", id="marks.bookmark", show=False),
        Binding("M", "name_bookmark", "Name the bookmark", id="marks.name_bookmark", show=False),
        Binding("apostrophe", "bookmarks", "Bookmarks", id="marks.bookmarks", show=False),
        Binding("quotation_mark", "notes", "Highlights and notes", id="marks.notes", show=False),
        Binding("v", "visual", "Select a passage (visual mode)", id="marks.visual", show=False),
        Binding("n", "next_hit", "Next search hit", id="marks.next_hit", show=False),
        Binding("N", "previous_hit", "Previous search hit", id="marks.previous_hit", show=False),
        Binding("escape", "clear_hits", "Clear search hits", id="marks.clear_hits", show=False),
        Binding("u", "undo", "Undo a removal", id="marks.undo", show=False),
    ]
    VISUAL_BINDINGS: ClassVar[list[BindingType]] = [  # left before right: the key hints keep "←→"
        Binding("j,down", "extend('line', 1)", "Extend a line", id="visual.down", show=False),
        Binding("k,up", "extend('line', -1)", "Back a line", id="visual.up", show=False),
        Binding("b,left,h", "extend('word', -1)", "Back a word", id="visual.word_back", show=False),
        Binding("w,right,l", "extend('word', 1)", "Extend a word", id="visual.word", show=False),
        Binding("o", "swap_ends", "Move the other end", id="visual.swap", show=False),
        Binding("y,enter", "highlight", "Highlight", id="visual.highlight"),
        Binding("n", "note", "Note", id="visual.note"),
        Binding("d", "remove_highlights", "Remove highlights here", id="visual.remove", show=False),
        Binding("escape,v", "leave_visual", "Leave", id="visual.leave"),
    ]
    BINDINGS: ClassVar[list[BindingType]] = [*VISUAL_BINDINGS, *MARK_BINDINGS]

    class Written(Message):
        """A write of marks finished (in a worker)."""

        def __init__(self, book_id: str, changed: Outcome) -> None:
            super().__init__()
            self.book_id = book_id
            self.changed = changed

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.selection: Selection | None = None
        self.hits: SearchHits | None = None
        self.undo_stack = UndoStack()
        self.bookmarks: dict[int, Bookmark] = {}
        self._annotations: dict[int, list[Annotation]] = {}
        self._lines: PageLines | None = None
        self._mouse_anchor: int | None = None
        self._jobs: queue.SimpleQueue[tuple[str, Job]] = queue.SimpleQueue()
        self._jobs_lock = threading.Lock()
        self._draining = False

    # --- what PageViewer asks of its marks -------------------------------------------------------

    session: ReadingSession | None

    @property
    def page_text(self) -> PageText:
        return self.query_one(PageText)

    @property
    def services(self) -> Services | None:
        return getattr(self.app, "services", None)

    def marks_opened(self, session: ReadingSession | None) -> None:
        """Load the marks of the book just opened (one indexed read)."""
        self.selection = None
        self.hits = None
        self._annotations.clear()
        services = self.services
        if session is None or services is None:
            self.bookmarks = {}
            return
        self.bookmarks = {b.page: b for b in services.bookmarks.list(session.book.id)}

    def with_marks(self, page: ShownPage) -> ShownPage:
        """`page` with its bookmark."""
        bookmark = self.bookmarks.get(page.number)
        return replace(page, bookmark=bookmark.name if bookmark else None)

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
        from reader.tui.widgets.page_viewer import page_content  # the viewer imports this module

        page = self.with_marks(session.shown())
        self.page_text.restyle(self.decorate(page, page_content(page)))

    def _scroll_to_offset(self, offset: int) -> None:
        lines = self._page_lines()
        self.page_text.scroll_to_line(lines.line_of(offset))

    def _page_lines(self) -> PageLines:
        if self._lines is None or self._lines.text != self.page_text.text:
            self._lines = self.page_text.lines()
        return self._lines

    # --- which keys work now ---------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in VISUAL_ACTIONS:
            return self.selection is not None
        if action in HIT_ACTIONS:
            return self.selection is None and self.hits is not None
        return True

    # --- writes, one at a time off the UI thread -------------------------------------------------

    def write(self, job: Job) -> None:
        """Run `job` with the services in a worker; writes run in the order they were asked for."""
        if self.session is None:
            return
        self._jobs.put((self.session.book.id, job))
        with self._jobs_lock:
            if self._draining:
                return
            self._draining = True
        self._drain()

    @work(thread=True, group="marks", exit_on_error=False)
    def _drain(self) -> None:
        services = self.services
        while True:
            with self._jobs_lock:
                if self._jobs.empty():
                    self._draining = False
                    return
                book_id, job = self._jobs.get()
            try:
                if services is None:
                    raise ReaderError("This app has no library to keep marks in.")
                changed = job(services)
            except ReaderError as error:
                changed = Outcome(str(error), error=True)
            self.post_message(self.Written(book_id, changed))

    @on(Written)
    def _marks_written(self, event: PageMarks.Written) -> None:
        session = self.session
        if session is not None and session.book.id == event.book_id:
            self.marks_opened_keep_view(session)
        if event.changed.notice:
            self.notify(
                event.changed.notice,
                severity="error" if event.changed.error else "information",
                timeout=8 if event.changed.error else 3,
            )

    def marks_opened_keep_view(self, session: ReadingSession) -> None:
        """Reload the book's marks and draw them on the page as it is scrolled now."""
        services = self.services
        self._annotations.clear()
        if services is not None:
            self.bookmarks = {b.page: b for b in services.bookmarks.list(session.book.id)}
        self._restyle()
        self.refresh_header()

    def refresh_header(self) -> None:  # PageViewer's
        raise NotImplementedError

    def jump_to(self, target: int) -> None:  # PageViewer's
        raise NotImplementedError

    def _remember_removal(self, what: str, restore: Callable[[Services], None]) -> None:
        def put_back(services: Services) -> Outcome:
            restore(services)
            return Outcome(f"Restored {what}.")

        def undo() -> None:
            self.write(put_back)

        self.undo_stack.push(what, undo)

    def action_undo(self) -> None:
        """Put back the bookmark, highlight or note removed last."""
        if self.undo_stack.undo() is None:
            self.notify("Nothing to undo.", timeout=2)

    # --- bookmarks -------------------------------------------------------------------------------

    def action_toggle_bookmark(self) -> None:
        """Bookmark the page, or remove its bookmark (u undoes)."""
        session = self.session
        if session is None:
            return
        page, label, book_id = session.number, session.label(session.number), session.book.id
        existing = self.bookmarks.get(page)
        if existing is None:
            self.bookmarks[page] = Bookmark(0, book_id, page)
            self.refresh_header()
            self.write(
                lambda services: (
                    services.bookmarks.name(book_id, page, ""),
                    Outcome(f"Bookmarked p. {label}."),
                )[1]
            )
            return
        self._remove_bookmark(existing, label)

    def _remove_bookmark(self, bookmark: Bookmark, label: str) -> None:
        self.bookmarks.pop(bookmark.page, None)
        self.refresh_header()
        self._remember_removal(f"the bookmark on p. {label}", lambda s: s.bookmarks.restore(bookmark))

        def remove(services: Services) -> Outcome:
            services.bookmarks.remove(bookmark.id)
            return Outcome(f"Removed the bookmark on p. {label} (u undoes).")

        self.write(remove)

    def action_name_bookmark(self) -> None:
        """Bookmark the page with a name (or rename its bookmark)."""
        session = self.session
        if session is None:
            return
        page, label, book_id = session.number, session.label(session.number), session.book.id
        existing = self.bookmarks.get(page)

        def named(name: str | None) -> None:
            if name is not None:
                self.write(
                    lambda s: (s.bookmarks.name(book_id, page, name), Outcome(f"Bookmarked p. {label}."))[1]
                )

        self.app.push_screen(
            TextScreen(
                f"Bookmark p. {label}",
                "A name for the bookmark (may be empty).",
                existing.name if existing else "",
            ),
            named,
        )

    def action_bookmarks(self) -> None:
        """List the book's bookmarks; Enter jumps to one."""
        session = self.session
        if session is None:
            return
        rows = sorted(self.bookmarks.values(), key=lambda b: b.page)

        def remove(bookmark: Bookmark) -> None:
            self._remove_bookmark(bookmark, session.label(bookmark.page))

        self.app.push_screen(
            MarksScreen(
                "Bookmarks",
                rows,
                prompt=self._bookmark_prompt,
                page_of=lambda bookmark: bookmark.page,
                empty="No bookmarks yet: m bookmarks the page on screen.",
                remove=remove,
                undo=self._undo_in_list,
                edit=self._rename_bookmark,
                current=session.number,
            ),
            self._jump_if_chosen,
        )

    def _bookmark_prompt(self, bookmark: Bookmark) -> Content:
        session = self.session
        assert session is not None
        from reader.app.page_lookup import page_chapter

        chapter = page_chapter(session.book, session.chapters, bookmark.page)
        prompt = Content.assemble(
            (f"p. {session.label(bookmark.page)}", "bold $accent"),
            (" orphaned" if bookmark.orphaned else "", "bold $text-error"),
            ("  ", ""),
            (bookmark.name or "", "bold"),
            ("  " if bookmark.name else "", ""),
            (chapter.title if chapter else "", "$text-muted"),
        )
        return prompt

    def _rename_bookmark(self, bookmark: Bookmark, done: Callable[[Bookmark], None]) -> None:
        session = self.session
        if session is None:
            return

        def named(name: str | None) -> None:
            if name is None:
                return
            renamed = replace(bookmark, name=name)
            self.bookmarks[bookmark.page] = renamed
            done(renamed)
            self.write(lambda s: (s.bookmarks.name(bookmark.book_id, bookmark.page, name), Outcome())[1])

        label = session.label(bookmark.page)
        self.app.push_screen(
            TextScreen(f"Bookmark p. {label}", "A name for the bookmark.", bookmark.name), named
        )

    def _undo_in_list(self) -> bool:
        return self.undo_stack.undo() is not None

    def _jump_if_chosen(self, page: int | None) -> None:
        if page is not None:
            self.jump_to(page)

    # --- highlights and notes --------------------------------------------------------------------

    def action_notes(self) -> None:
        """List the book's highlights and notes (orphaned ones too); Enter jumps to one.

        The dialog opens with the lines around the page on screen (an indexed read of a few rows) and a
        worker reads the rest (the list's lines, not the anchors)."""
        session = self.session
        services = self.services
        if session is None or services is None:
            return
        book_id, current = session.book.id, session.number

        def first() -> MarkWindow:
            notes = services.annotations
            before = notes.count(book_id, current)
            offset = max(0, before - 1 - NOTES_WINDOW // 2)
            return MarkWindow(notes.count(book_id), offset, notes.lines(book_id, offset, NOTES_WINDOW))

        def remove(line: AnnotationLine) -> None:
            self._remove_annotations([line])

        self.app.push_screen(
            MarksScreen(
                "Highlights and notes",
                LazyMarks(first, lambda: services.annotations.lines(book_id)),
                prompt=self.note_prompt,
                page_of=lambda line: line.page,
                empty="No highlights yet: v selects a passage, y highlights it, n adds a note.",
                remove=remove,
                undo=self._undo_in_list,
                edit=self._edit_note,
                current=current,
            ),
            self._jump_if_chosen,
        )

    def note_prompt(self, line: AnnotationLine) -> Content:
        """The list line of one highlight or note: page (or orphaned), quote, note."""
        session = self.session
        assert session is not None
        where = (
            ("orphaned", "bold $text-error")
            if line.orphaned
            else (f"p. {session.label(line.page)}", "bold $accent")
        )
        parts: list[tuple[str, str] | str] = [
            where,
            ("  ", ""),
            (f"“{quote_line(line.quote)}”", "italic"),
        ]
        if line.note:
            parts += [("  — ", "$text-muted"), quote_line(line.note)]
        return Content.assemble(*parts)

    def _edit_note(self, line: AnnotationLine, done: Callable[[AnnotationLine], None]) -> None:
        def noted(note: str | None) -> None:
            if note is None:
                return
            done(replace(line, note=note.strip()))
            self.write(lambda s: (s.annotations.set_note(line.id, note), Outcome())[1])

        self.app.push_screen(TextScreen("Note", f"“{quote_line(line.quote, 60)}”", line.note), noted)

    def _remove_annotations(self, annotations: Sequence[Annotation | AnnotationLine]) -> None:
        """Remove highlights and notes (by id); what the write removed is kept to put back on undo."""
        if not annotations:
            return
        what = "the highlight" if len(annotations) == 1 else f"{len(annotations)} highlights"
        for annotation in annotations:
            cached = self._annotations.get(annotation.page)
            if cached is not None:
                self._annotations[annotation.page] = [a for a in cached if a.id != annotation.id]
        ids = [annotation.id for annotation in annotations]
        removed: list[Annotation] = []

        def restore(services: Services) -> None:
            for annotation in removed:
                services.annotations.restore(annotation)

        self._remember_removal(what, restore)

        def remove(services: Services) -> Outcome:
            for annotation_id in ids:
                found = services.annotations.remove(annotation_id)
                if found is not None:
                    removed.append(found)
            return Outcome(f"Removed {what} (u undoes).")

        self.write(remove)

    # --- visual mode -----------------------------------------------------------------------------

    def action_visual(self) -> None:
        """Select a passage, starting with the first line on screen."""
        if self.session is None:
            return
        lines = self._page_lines()
        selection = first_line_selection(lines, self.page_text.scroll_offset.y)
        if selection is None:
            self.notify("This page has no text to select.", timeout=2)
            return
        self._select(selection)
        self.notify(
            "j/k/w/b extend, o moves the other end, y highlights, n adds a note, Esc leaves.", timeout=4
        )

    def _select(self, selection: Selection | None) -> None:
        entering = (self.selection is None) != (selection is None)
        self.selection = selection
        self._restyle()
        if selection is not None:
            self._scroll_to_offset(selection.cursor)
        if entering:
            self.refresh_bindings()

    def action_extend(self, unit: str, direction: int) -> None:
        """Move the selection's moving end a line or a word."""
        selection = self.selection
        if selection is None:
            return
        text = self.page_text.text
        if unit == "line":
            lines = self._page_lines()
            moved = line_down(selection, lines) if direction > 0 else line_up(selection, lines)
        else:
            moved = word_forward(selection, text) if direction > 0 else word_back(selection, text)
        self._select(moved)

    def action_swap_ends(self) -> None:
        """Move the other end of the selection from now on."""
        if self.selection is not None:
            self.selection = self.selection.swapped()

    def action_leave_visual(self) -> None:
        """Leave visual mode without highlighting."""
        self._select(None)

    def action_highlight(self, note: str = "") -> None:
        """Highlight the selection (with `note`)."""
        session, selection = self.session, self.selection
        if session is None or selection is None:
            return
        if selection.start >= selection.end:
            self.notify("Select some words first (w or j extend the selection).", timeout=3)
            return
        book_id, page, text = session.book.id, session.number, self.page_text.text
        start, end = selection.start, selection.end
        self._select(None)
        what = "Note added" if note else "Highlighted"

        def highlight(services: Services) -> Outcome:
            services.annotations.highlight(book_id, page, text, start, end, note)
            return Outcome(f"{what} on p. {session.label(page)}.")

        self.write(highlight)

    def action_note(self) -> None:
        """Highlight the selection with a note."""
        selection = self.selection
        if selection is None:
            return
        quote = quote_line(self.page_text.text[selection.start : selection.end], 60)

        def noted(note: str | None) -> None:
            if note is not None and self.selection == selection:
                self.action_highlight(note)

        self.app.push_screen(TextScreen("Note", f"On “{quote}”", placeholder="your note"), noted)

    def action_remove_highlights(self) -> None:
        """Remove the highlights the selection touches (u undoes)."""
        session, selection = self.session, self.selection
        if session is None or selection is None:
            return
        touched = [
            a
            for a in self.page_annotations(session.number)
            if a.anchor.start < max(selection.end, selection.start + 1) and a.anchor.end > selection.start
        ]
        if not touched:
            self.notify("No highlight here.", timeout=2)
            return
        self._remove_annotations(touched)
        self._select(None)

    @on(PageText.MouseSelect)
    def _mouse_select(self, event: PageText.MouseSelect) -> None:
        event.stop()
        if self.session is None:
            return
        if event.phase == "down":
            self._mouse_anchor = event.offset
            if self.selection is not None:
                self._select(None)
            return
        anchor = self._mouse_anchor
        if anchor is None or event.offset < 0 or event.offset == anchor:
            if event.phase == "up":
                self._mouse_anchor = None
            return
        self._select(Selection(anchor, event.offset))
        if event.phase == "up":
            self._mouse_anchor = None

    # --- search hits -----------------------------------------------------------------------------

    def show_search_hits(self, page: int, query: str, result_pages: list[int]) -> None:
        """Open `page` with the words of `query` highlighted; n / N go through them and the other results."""
        self.hits = SearchHits(query, sorted(set(result_pages) | {page}), [])
        self.refresh_bindings()
        session = self.session
        if session is not None and session.number == page:
            self.page_changed(session.shown())
            self._restyle()
            self.page_drawn()
        else:
            self.jump_to(page)

    def show_cited(self, page: int, words: str, searched: str = "") -> bool:
        """Open a cited page with the citing sentence's `words` found on it highlighted (else the words of
        the search that found it); n / N go through them. Returns whether any words are highlighted."""
        session = self.session
        if session is None:
            return False
        page = session.clamp(page)
        text = session.text(page)
        query = next((q for q in (words, searched) if q and term_spans(text, q)), "")
        if query:
            self.show_search_hits(page, query, [page])
        else:
            self.jump_to(page)
        return bool(query)

    def action_next_hit(self) -> None:
        """Go to the next search hit (on the next result's page after the last one here)."""
        self._step_hit(1)

    def action_previous_hit(self) -> None:
        """Go to the previous search hit."""
        self._step_hit(-1)

    def _step_hit(self, step: int) -> None:
        hits, session = self.hits, self.session
        if hits is None or session is None:
            return
        target = hits.index + step
        if 0 <= target < len(hits.spans):
            hits.index = target
            self._restyle()
            self._scroll_to_offset(hits.spans[target][0])
            return
        pages = [p for p in hits.pages if (p > session.number if step > 0 else p < session.number)]
        if not pages:
            self.notify("No more hits." if step > 0 else "No earlier hits.", timeout=2)
            return
        self.go_to_hit_page(pages[0] if step > 0 else pages[-1], backwards=step < 0)

    def go_to_hit_page(self, page: int, *, backwards: bool) -> None:  # PageViewer's
        raise NotImplementedError

    def action_clear_hits(self) -> None:
        """Stop highlighting the search's words."""
        self.hits = None
        self.refresh_bindings()
        self._restyle()
