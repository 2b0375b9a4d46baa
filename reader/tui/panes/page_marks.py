"""The reader's marks on the page viewer: bookmarks and the lists of bookmarks and of highlights and notes,
on top of visual mode (visual_mode.py), search hits (search_hits.py), writes and undo (mark_writes.py)
and drawing (marked_page.py). Mixed into PageViewer (its bindings come before the page keys they shadow)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding, BindingType
from textual.content import Content

from reader.domain.annotations import AnnotationLine, Bookmark
from reader.tui.panes.visual_mode import VISUAL_ACTIONS, VisualMode
from reader.tui.reading_session import ReadingSession
from reader.tui.widgets.mark_writes import Outcome
from reader.tui.widgets.marked_page import quote_line
from reader.tui.widgets.search_hits import HIT_ACTIONS, PageSearchHits

if TYPE_CHECKING:
    from reader.services import Services
    from reader.tui.screens.marks_screen import MarkWindow

NOTES_WINDOW = 120
"""Lines of the notes list read as it opens, around the page on screen (the rest come from a worker)."""


class PageMarks(VisualMode, PageSearchHits):
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
    BINDINGS: ClassVar[list[BindingType]] = [*VisualMode.VISUAL_BINDINGS, *MARK_BINDINGS]

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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Visual mode's keys while selecting; the hit keys while hits are shown (and not selecting)."""
        if action in VISUAL_ACTIONS:
            return self.selection is not None
        if action in HIT_ACTIONS:
            return self.selection is None and self.hits is not None
        return True

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
        from reader.tui.screens.text_screen import TextScreen  # lazy: not at start-up

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
        from reader.tui.screens.marks_screen import MarksScreen  # lazy: not at start-up

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
        from reader.app.pages.page_lookup import page_chapter

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
        from reader.tui.screens.text_screen import TextScreen  # lazy: not at start-up

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

    def _jump_if_chosen(self, page: int | None) -> None:
        if page is not None:
            self.jump_to(page)

    # --- the list of highlights and notes --------------------------------------------------------

    def action_notes(self) -> None:
        """List the book's highlights and notes (orphaned ones too); Enter jumps to one.

        The dialog opens with the lines around the page on screen (an indexed read of a few rows) and a
        worker reads the rest (the list's lines, not the anchors)."""
        from reader.tui.screens.marks_screen import (  # lazy: not at start-up
            LazyMarks,
            MarksScreen,
            MarkWindow,
        )

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
                row_height=2,
            ),
            self._jump_if_chosen,
        )

    def note_prompt(self, line: AnnotationLine) -> Content:
        """The list lines of one highlight or note: page (or orphaned) and quote, then the note under it."""
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
        quote = Content.assemble(*parts)
        indent = " " * (len(where[0]) + 2)
        note = Content.assemble(indent, ("✎ ", "$text-muted"), quote_line(line.note)) if line.note else Content("")
        return Content("\n").join([quote, note])

    def _edit_note(self, line: AnnotationLine, done: Callable[[AnnotationLine], None]) -> None:
        from reader.tui.screens.text_screen import TextScreen  # lazy: not at start-up

        def noted(note: str | None) -> None:
            if note is None:
                return
            done(replace(line, note=note.strip()))
            self.write(lambda s: (s.annotations.set_note(line.id, note), Outcome())[1])

        self.app.push_screen(TextScreen("Note", f"“{quote_line(line.quote, 60)}”", line.note), noted)
