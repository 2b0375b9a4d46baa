"""The list of books: title, author, reading progress and indexing state per book."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from reader.app.pages.page_lookup import story_percent
from reader.domain.models import Book

if TYPE_CHECKING:
    from reader.domain.enrichment import EnrichmentStatus

BAR_CELLS = 8


def progress_bar(current: int, total: int) -> str:
    """Reading progress as a small bar of `BAR_CELLS` cells."""
    filled = round(BAR_CELLS * current / total) if total else 0
    return "▰" * filled + "▱" * (BAR_CELLS - filled)


def index_state(models: Sequence[str], busy: str | None) -> str:
    """How a book can be searched, when there is more to say than by its words (the default): by meaning
    with an embedding model, or being embedded ("" otherwise)."""
    if busy:
        return busy
    return f"search by meaning ({models[0]})" if models else ""


def enrich_state(status: EnrichmentStatus | None) -> str:
    """How far `reader enrich` got, e.g. "enriched 12/30 · 2 failed" ('' when never run)."""
    if status is None:
        return ""
    text = f"enriched {min(status.done, status.total)}/{status.total}"
    return text + (f" · {status.failed} failed" if status.failed else "")


def book_prompt(
    book: Book,
    models: Sequence[str],
    busy: str | None,
    is_open: bool,
    enrichment: EnrichmentStatus | None = None,
) -> Content:
    """Two lines for one book (three when it has been enriched)."""
    percent = story_percent(book, book.current_page)
    marker = ("▸ ", "bold $accent") if is_open else ("  ", "")
    title = Content.assemble(marker, (book.title, "bold"))
    author = Content.assemble("  ", (book.author or "unknown author", "$text-muted"))
    progress = Content.assemble(
        "  ",
        (progress_bar(percent, 100), "$primary"),
        f" {percent}%",
        (f" · {state}" if (state := index_state(models, busy)) else "", "$text-muted"),
    )
    lines = [title, author, progress]
    if state := enrich_state(enrichment):
        lines.append(Content.assemble("  ", (state, "$text-muted")))
    return Content("\n").join(lines)


class BookList(OptionList):
    """Books in the library; the option ids are book ids."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", id="library.down", show=False),
        Binding("k", "cursor_up", "Up", id="library.up", show=False),
    ]

    def show_books(
        self,
        books: Sequence[Book],
        embedded: dict[str, list[str]],
        busy: dict[str, str],
        open_book: str | None,
        more: str = "",
        enrichment: dict[str, EnrichmentStatus] | None = None,
    ) -> None:
        """Replace the options, keeping the highlighted book when it is still listed.

        `more` is a last, disabled line saying how many books are not listed.
        """
        highlighted = self.highlighted_option.id if self.highlighted_option else None
        enriched = enrichment or {}
        options = [
            Option(
                book_prompt(b, embedded.get(b.id, ()), busy.get(b.id), b.id == open_book, enriched.get(b.id)),
                id=b.id,
            )
            for b in books
        ]
        if more:
            options.append(Option(Content.styled(more, "italic $text-muted"), disabled=True))
        self.set_options(options)
        ids = [book.id for book in books]
        target = highlighted if highlighted in ids else open_book if open_book in ids else None
        if target is not None:
            self.highlighted = ids.index(target)
        elif ids:
            self.highlighted = 0
