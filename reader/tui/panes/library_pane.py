"""The library pane: filter, list, import (in the background) and remove books."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from textual import on, work
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, OptionList
from textual.widgets.option_list import OptionDoesNotExist
from textual.worker import Worker

from reader.app.library.book_lookup import describe
from reader.domain.models import Book
from reader.services import Services
from reader.tui.images.cover_view import CoverView
from reader.tui.library_filter import filter_books
from reader.tui.panes.deferred_pane import DeferredPane
from reader.tui.widgets.book_list import BookList, book_prompt
from reader.tui.widgets.import_progress import ImportProgress
from reader.tui.worker_failures import forward_failure

if TYPE_CHECKING:
    from reader.domain.enrichment import EnrichmentStatus

PROGRESS_INTERVAL = 0.05
"""Seconds between progress messages from the import worker."""


class LibraryPane(DeferredPane):
    """Books sorted by last read, filtered fuzzily as you type."""

    BINDINGS = [
        Binding("i", "import_books", "Import", id="library.import"),
        Binding("d,delete", "remove_book", "Remove", id="library.remove"),
    ]

    class BookChosen(Message):
        """The reader picked a book to open."""

        def __init__(self, book_id: str) -> None:
            super().__init__()
            self.book_id = book_id

    class ImportStep(Message):
        """Progress of the background import: what, and done of total (0 = unknown)."""

        def __init__(self, label: str, done: int, total: int, embedding: str | None = None) -> None:
            super().__init__()
            self.label = label
            self.done = done
            self.total = total
            self.embedding = embedding
            """The id of the book being embedded, during that step."""

    class BookImported(Message):
        """One file was handled by the import worker."""

        def __init__(self, ok: bool, message: str, book_id: str | None) -> None:
            super().__init__()
            self.ok = ok
            self.message = message
            self.book_id = book_id

    class ImportFinished(Message):
        """The background import is over."""

        def __init__(self, summary: str, book_ids: list[str]) -> None:
            super().__init__()
            self.summary = summary
            self.book_ids = book_ids

    class BookRemoved(Message):
        """A book was removed from the library."""

        def __init__(self, book_id: str, title: str) -> None:
            super().__init__()
            self.book_id = book_id
            self.title = title

    def __init__(self, services: Services, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.services = services
        self.books: list[Book] = []
        self.embedded: dict[str, list[str]] = {}
        self.enrichment: dict[str, EnrichmentStatus] = {}
        """How far `reader enrich` got, for the books it ran on."""
        self.busy: dict[str, str] = {}
        self.open_book: str | None = None

    def contents(self) -> list[Widget]:
        """The filter, and the list already holding the books: they are laid out and drawn in one frame."""
        self._read_books()
        book_list = BookList(id="book-list")
        self._show_list(book_list, "")
        return [
            Input(placeholder="Filter books  /", id="library-filter"),
            book_list,
            CoverView(self.services, id="book-cover"),
            ImportProgress(id="import-progress"),
        ]

    def on_mount(self) -> None:
        self.border_title = "Library"

    # --- the list ----------------------------------------------------------------------------------

    def reload(self) -> None:
        """Read the books again (most recently read first) and show them through the filter."""
        self._read_books()
        self.refresh_list()

    def _read_books(self) -> None:
        overview = self.services.library.overview()
        self.books, self.embedded, self.enrichment = overview.books, overview.embedded, overview.enrichment

    def refresh_list(self, *, best_first: bool = False) -> None:
        """Show the loaded books through the current filter (`best_first`: highlight the best match, not
        the book highlighted before)."""
        if not self.filled:
            return  # the list is made with the books when the pane fills
        query = self.query_one("#library-filter", Input).value
        self._show_list(self.query_one(BookList), query, best_first=best_first and bool(query.strip()))

    def _show_list(self, book_list: BookList, query: str, *, best_first: bool = False) -> None:
        """Every book matching `query`, best first (its rows are drawn as they come on screen)."""
        matches = filter_books(self.books, query)
        book_list.show_books(
            matches, self.embedded, self.busy, self.open_book, self.enrichment, keep_highlight=not best_first
        )
        count = len(self.books)
        self.border_subtitle = (
            f"{len(matches)} of {count}" if query.strip() else f"{count} book{'s' * (count != 1)}"
        )

    def set_open_book(self, book_id: str | None) -> None:
        """Mark the open book in the list."""
        self.open_book = book_id
        self.refresh_list()

    def show_progress(self, book_id: str, current_page: int) -> None:
        """Show a new reading position for one book without reloading the library."""
        self.books = [replace(b, current_page=current_page) if b.id == book_id else b for b in self.books]
        book = next((b for b in self.books if b.id == book_id), None)
        if book is None or not self.filled:
            return
        prompt = book_prompt(
            book,
            self.embedded.get(book_id, ()),
            self.busy.get(book_id),
            book_id == self.open_book,
            self.enrichment.get(book_id),
        )
        try:
            self.query_one(BookList).replace_option_prompt(book_id, prompt)
        except OptionDoesNotExist:
            pass

    @on(Input.Changed, "#library-filter")
    def _filter_changed(self) -> None:
        self.refresh_list(best_first=True)  # Enter opens the best match of what is typed now

    @on(Input.Submitted, "#library-filter")
    def _filter_submitted(self) -> None:
        book_list = self.query_one(BookList)
        option = book_list.highlighted_option
        if option is not None and option.id:
            self.post_message(self.BookChosen(option.id))

    def key_down(self) -> None:
        """Down in the filter moves into the list."""
        if self.query_one("#library-filter", Input).has_focus:
            self.query_one(BookList).focus()

    def clear_filter(self) -> bool:
        """Empty the filter; False when it was already empty."""
        field = self.query_one("#library-filter", Input)
        if not field.value:
            return False
        field.value = ""
        return True

    @on(OptionList.OptionSelected, "#book-list")
    def _book_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.post_message(self.BookChosen(event.option.id))

    @on(OptionList.OptionHighlighted, "#book-list")
    def _book_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.query_one(CoverView).show_book(self.highlighted_book())

    def highlighted_book(self) -> Book | None:
        option = self.query_one(BookList).highlighted_option
        return next((b for b in self.books if option and b.id == option.id), None)

    # --- removing ----------------------------------------------------------------------------------

    def action_remove_book(self) -> None:
        """Remove the highlighted book after confirmation."""
        book = self.highlighted_book()
        if book is None:
            return
        marks = self.services.annotations.counts(book.id)  # indexed counts, well under a millisecond
        going = f"its conversations and its {marks.phrase}" if marks else "its conversations"
        question = (
            f"Remove {describe(book)} with {going}? Importing the file again brings the book back, "
            "not those."
        )

        def answered(yes: bool | None) -> None:
            if yes:
                self._remove(book.id, book.title)

        from reader.tui.screens.confirm_screen import ConfirmScreen

        self.app.push_screen(ConfirmScreen(question, yes="Remove", no="Keep", title="Remove book"), answered)

    @work(thread=True, group="library", exit_on_error=False)
    def _remove(self, book_id: str, title: str) -> None:
        self.services.books.remove(book_id)
        self.post_message(self.BookRemoved(book_id, title))

    # --- importing ---------------------------------------------------------------------------------

    def action_import_books(self) -> None:
        """Ask for a file or folder and import it in the background."""

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.import_paths([path])

        from reader.tui.screens.import_screen import ImportScreen  # a file browser, loaded when first asked

        self.app.push_screen(ImportScreen(), chosen)

    def import_paths(self, paths: list[Path]) -> None:
        """Start importing `paths` (files or folders) in a worker thread."""

        def start() -> None:
            self.query_one(ImportProgress).step(f"Looking for books in {', '.join(map(str, paths))}…", 0, 0)
            self._import(paths)

        self.when_filled(start)

    @work(thread=True, group="import", exit_on_error=False)
    def _import(self, paths: list[Path]) -> None:
        importer = self.services.importer
        files = importer.expand(paths)
        if not files:
            self.post_message(self.ImportFinished(f"No books found in {', '.join(map(str, paths))}.", []))
            return
        imported: list[str] = []
        failed = 0
        for number, path in enumerate(files, start=1):
            prefix = f"[{number}/{len(files)}] " if len(files) > 1 else ""
            on_page = self._throttled(f"{prefix}Importing {path.name}")
            on_page(0, 0)
            outcome = importer.import_file(path, progress=on_page)
            book_id = outcome.book.id if outcome.book else None
            failed += not outcome.ok
            self.post_message(self.BookImported(outcome.ok, outcome.message, book_id))
            if outcome.ok and book_id:
                imported.append(book_id)
                self._embed(book_id, f"{prefix}Embedding {path.name}")
        done = len(files) - failed
        # one file: its own notice ("Imported Persuasion (250 pages).") says it all
        summary = "" if len(files) == 1 else f"Imported {done} of {len(files)} files" + (
            f"; {failed} failed." if failed else "."
        )
        self.post_message(self.ImportFinished(summary, imported))

    def _throttled(self, label: str, embedding: str | None = None) -> Callable[[int, int], None]:
        last = [0.0]

        def progress(done: int, total: int) -> None:
            now = time.monotonic()
            if now - last[0] >= PROGRESS_INTERVAL or done == total:
                last[0] = now
                self.post_message(self.ImportStep(label, done, total, embedding))

        return progress

    def _embed(self, book_id: str, label: str) -> None:
        """Embed a freshly imported book when an embedding model is configured (runs in the worker)."""
        if not self.services.config.embeddings.model:
            return
        use_case = getattr(self.services, "embed_use_case", None)
        embed = getattr(use_case, "embed_book", None)
        if embed is None:
            return
        self.post_message(self.ImportStep(label, 0, 0, book_id))
        try:
            embed(book_id, progress=self._throttled(label, book_id))
        except Exception as error:  # noqa: BLE001 - embedding is optional; search stays lexical
            self.post_message(
                self.BookImported(False, f"Embedding failed ({error}); search stays lexical.", None)
            )

    @on(ImportStep)
    def _import_step(self, event: ImportStep) -> None:
        self.query_one(ImportProgress).step(event.label, event.done, event.total)
        if event.embedding and event.embedding not in self.busy:
            self.busy = {event.embedding: "embedding…"}
            self.refresh_list()

    @on(Worker.StateChanged)
    def _forward_failure(self, event: Worker.StateChanged) -> None:
        forward_failure(self, event)

    def work_failed(self) -> None:
        """An import or removal worker failed: clear its progress and show the library as it is."""
        self.busy = {}
        self.query_one(ImportProgress).finish()
        self.reload()

    @on(ImportFinished)
    def _import_finished(self, event: ImportFinished) -> None:
        self.busy = {}
        self.query_one(ImportProgress).finish()
