"""Writing the reader's marks off the UI thread, one at a time in order, and undoing removals."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from textual import on, work
from textual.message import Message

from reader.app.notes.undo import UndoStack
from reader.domain.annotations import Annotation, AnnotationLine
from reader.domain.errors import ReaderError
from reader.tui.reading_session import ReadingSession
from reader.tui.widgets.marked_page import MarkedPage

if TYPE_CHECKING:
    from reader.services import Services

Job = Callable[["Services"], "Outcome"]


class Outcome(NamedTuple):
    """What a write did: a line for the reader, and whether it was a mistake to report as one."""

    notice: str = ""
    error: bool = False


class MarkWrites(MarkedPage):
    """Runs writes of marks in a worker, in the order they were asked for; keeps removals to undo."""

    class Written(Message):
        """A write of marks finished (in a worker)."""

        def __init__(self, book_id: str, changed: Outcome) -> None:
            super().__init__()
            self.book_id = book_id
            self.changed = changed

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.undo_stack = UndoStack()
        self._jobs: queue.SimpleQueue[tuple[str, Job]] = queue.SimpleQueue()
        self._jobs_lock = threading.Lock()
        self._draining = False

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
    def _marks_written(self, event: MarkWrites.Written) -> None:
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

    def _undo_in_list(self) -> bool:
        return self.undo_stack.undo() is not None

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
