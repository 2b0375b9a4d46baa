"""X-Ray: the people, places and terms met so far; pick one to see its mentions and open a page."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import Worker

from reader.domain.errors import ReaderError
from reader.domain.knowledge import ConceptDetail, ConceptEntry
from reader.tui.worker_failures import forward_failure

KIND_TITLES = {"person": "People", "place": "Places", "term": "Terms"}
KIND_ROWS = 40
"""The most mentioned concepts of each kind listed at first; a last row lists the rest."""

DetailLoader = Callable[[ConceptEntry], ConceptDetail]
"""Runs in a worker: one concept's mentions, companions and snippets up to the reader's page."""


@dataclass(frozen=True)
class XRayRefiner:
    """Refining the list with the chat model; both callables run in a worker."""

    refine: Callable[[Callable[[int, int], None], threading.Event], list[str]]
    """(progress, cancel) -> the lines to show (notes, then how it went); raises ReaderError with the
    one-line reason when it cannot run (no model configured)."""
    reload: Callable[[], list[ConceptEntry]]
    """The entries again, with the refinements applied."""


class XRayScreen(ModalScreen[int | None]):
    """Dismisses with the page of the mention chosen, or None."""

    AUTO_FOCUS = "#xray-concepts"

    BINDINGS = [
        Binding("escape,x", "close", "Close", id="xray.close"),
        Binding(
            "m",
            "refine",
            "Refine with the model",
            id="xray.refine",
            tooltip="Ask the chat model, chapter by chapter up to your page, to group and type names",
        ),
        Binding("j", "cursor('down')", "Down", show=False),
        Binding("k", "cursor('up')", "Up", show=False),
    ]

    class DetailLoaded(Message):
        """One concept's detail came back from the worker."""

        def __init__(self, detail: ConceptDetail | None, error: str = "") -> None:
            super().__init__()
            self.detail = detail
            self.error = error

    class RefineProgress(Message):
        """The refinement finished a chapter."""

        def __init__(self, done: int, total: int) -> None:
            super().__init__()
            self.done = done
            self.total = total

    class Refined(Message):
        """The refinement ended: what to tell the reader, and the entries again (None if it failed)."""

        def __init__(self, lines: list[str], entries: list[ConceptEntry] | None) -> None:
            super().__init__()
            self.lines = lines
            self.entries = entries

    def __init__(
        self,
        entries: Sequence[ConceptEntry],
        load_detail: DetailLoader,
        horizon_label: str,
        label: Callable[[int], str],
        note: str = "",
        first_detail: ConceptDetail | None = None,
        refiner: XRayRefiner | None = None,
    ) -> None:
        super().__init__()
        self.refiner = refiner
        self.refining: threading.Event | None = None
        """Set while a refinement runs; setting it asks the run to stop after the chapter in hand."""
        self.entries = {str(e.id): e for e in entries}
        self.ordered = list(entries)
        self.load_detail = load_detail
        self.horizon_label = horizon_label
        self.label = label
        self.note = note
        self.detail: ConceptDetail | None = None
        self.expanded: set[str] = set()
        """Kinds whose whole list is shown (past the first KIND_ROWS)."""
        self.first_detail = first_detail
        """The detail of the first concept, loaded with the list so the first paint shows it."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog dialog-tall dialog-wide", id="xray") as dialog:
            dialog.border_title = "X-Ray"
            dialog.border_subtitle = "Enter: mentions · m: refine with the model · Esc closes"
            note = self.note or (
                f"People, places and terms up to p. {self.horizon_label} (your reading position)."
                if self.ordered
                else f"Nobody and nothing recurring yet up to p. {self.horizon_label}."
            )
            yield Static(note, id="xray-note", classes="dialog-text", markup=False)
            with Horizontal(id="xray-body"):
                yield OptionList(*self._options(), id="xray-concepts")
                with Vertical(id="xray-detail"):
                    first = self.first_detail
                    self.detail = first
                    about = describe(first, self.label) if first is not None else ""
                    yield Static(about, id="xray-about", markup=False)
                    options = mention_options(first, self.label) if first is not None else []
                    yield OptionList(*options, id="xray-mentions")

    def _options(self) -> list[Option]:
        options: list[Option] = []
        for kind, title in KIND_TITLES.items():
            group = [e for e in self.ordered if e.kind == kind]
            if not group:
                continue
            options.append(Option(Content.styled(f"{title} ({len(group)})", "bold $accent"), disabled=True))
            shown = group if kind in self.expanded else group[:KIND_ROWS]
            for entry in shown:
                prompt = Content.assemble(entry.name, ("  ", ""), (f"{entry.mentions}×", "$text-muted"))
                options.append(Option(prompt, id=str(entry.id)))
            if len(shown) < len(group):
                more = f"… {len(group) - len(shown)} more {title.lower()}"
                options.append(Option(Content.styled(more, "italic $text-muted"), id=f"more:{kind}"))
        return options

    @on(Worker.StateChanged)
    def _forward_failure(self, event: Worker.StateChanged) -> None:
        forward_failure(self, event)  # the app shows one notice

    def on_mount(self) -> None:
        concepts = self.query_one("#xray-concepts", OptionList)
        if concepts.option_count > 1:
            concepts.highlighted = 1  # the first entry after the "People" heading
        concepts.focus()

    @on(OptionList.OptionHighlighted, "#xray-concepts")
    def _concept_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        entry = self.entries.get(event.option.id or "")
        if entry is not None and not (self.detail is not None and self.detail.entry.id == entry.id):
            self._load_detail(entry)

    @on(OptionList.OptionSelected, "#xray-concepts")
    def _concept_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        option_id = event.option.id or ""
        if option_id.startswith("more:"):
            self.expanded.add(option_id.removeprefix("more:"))
            concepts = self.query_one("#xray-concepts", OptionList)
            at = event.option_index
            concepts.clear_options()
            concepts.add_options(self._options())
            concepts.highlighted = at
            return
        mentions = self.query_one("#xray-mentions", OptionList)
        if mentions.option_count:
            mentions.highlighted = mentions.highlighted or 0
            mentions.focus()

    @work(thread=True, exclusive=True, exit_on_error=False, group="xray-detail")
    def _load_detail(self, entry: ConceptEntry) -> None:
        try:
            self.post_message(self.DetailLoaded(self.load_detail(entry)))
        except Exception as error:  # noqa: BLE001 - shown in the dialog
            self.post_message(
                self.DetailLoaded(None, f"Could not look it up ({type(error).__name__}: {error}).")
            )

    @on(DetailLoaded)
    def _detail_loaded(self, event: DetailLoaded) -> None:
        highlighted = self.query_one("#xray-concepts", OptionList).highlighted_option
        if event.detail is not None and highlighted is not None and highlighted.id != str(event.detail.entry.id):
            return  # asked for before another concept was highlighted: its thread ran on, the newer one follows
        self._show_detail(event.detail, event.error)

    def _show_detail(self, detail: ConceptDetail | None, error: str) -> None:
        about = self.query_one("#xray-about", Static)
        mentions = self.query_one("#xray-mentions", OptionList)
        mentions.clear_options()
        self.detail = detail
        if detail is None:
            about.update(error)
            return
        about.update(describe(detail, self.label))
        mentions.add_options(mention_options(detail, self.label))

    @on(OptionList.OptionSelected, "#xray-mentions")
    def _mention_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(int(event.option.id or 0) or None)

    def action_cursor(self, direction: str) -> None:
        """Move the highlight with vim keys."""
        focused = self.focused
        if isinstance(focused, OptionList):
            focused.action_cursor_down() if direction == "down" else focused.action_cursor_up()

    def action_refine(self) -> None:
        """Ask the chat model to group and type the names, chapter by chapter up to the reader's page."""
        note = self.query_one("#xray-note", Static)
        if self.refiner is None:
            note.update("Refining needs the app's services.")
            return
        if self.refining is not None:
            return
        self.refining = threading.Event()
        note.update("Refining with the model…")
        self._refine(self.refiner, self.refining)

    @work(thread=True, exclusive=True, exit_on_error=False, group="xray-refine")
    def _refine(self, refiner: XRayRefiner, cancel: threading.Event) -> None:
        def progress(done: int, total: int) -> None:
            self.post_message(self.RefineProgress(done, total))

        try:
            lines = refiner.refine(progress, cancel)
        except ReaderError as error:
            self.post_message(self.Refined([str(error)], None))
            return
        except Exception as error:  # noqa: BLE001 - shown in the dialog
            self.post_message(self.Refined([f"Refining failed ({type(error).__name__}: {error})."], None))
            return
        self.post_message(self.Refined(lines, refiner.reload()))

    @on(RefineProgress)
    def _refine_progress(self, event: RefineProgress) -> None:
        if self.refining is not None and not self.refining.is_set():
            self.query_one("#xray-note", Static).update(
                f"Refining with the model: chapter {event.done} of {event.total}… (Esc stops)"
            )

    @on(Refined)
    def _refined(self, event: Refined) -> None:
        self.refining = None
        self.query_one("#xray-note", Static).update("\n".join(event.lines))
        if event.entries is None:
            return
        concepts = self.query_one("#xray-concepts", OptionList)
        highlighted = concepts.highlighted_option.id if concepts.highlighted_option else None
        self.entries = {str(e.id): e for e in event.entries}
        self.ordered = list(event.entries)
        concepts.clear_options()
        concepts.add_options(self._options())
        ids = [concepts.get_option_at_index(i).id for i in range(concepts.option_count)]
        at = ids.index(highlighted) if highlighted in ids else (1 if concepts.option_count > 1 else None)
        self.detail = None
        concepts.highlighted = at
        entry = self.entries.get(ids[at] or "") if at is not None else None
        if entry is not None:
            self._load_detail(entry)

    def on_unmount(self) -> None:
        if self.refining is not None:
            self.refining.set()

    def action_close(self) -> None:
        """Stop a refinement in progress; else back to the concept list from the mentions; else close."""
        if self.refining is not None and not self.refining.is_set():
            self.refining.set()
            self.query_one("#xray-note", Static).update("Stopping… (the chapters done are kept; Esc closes)")
            return
        if self.focused is self.query_one("#xray-mentions", OptionList):
            self.query_one("#xray-concepts", OptionList).focus()
            return
        self.dismiss(None)


def describe(detail: ConceptDetail, label: Callable[[int], str]) -> Content:
    """The head of a concept's X-Ray entry: name, kind, names, first page, counts, companions."""
    entry = detail.entry
    lines = [
        Content.assemble((entry.name, "bold"), (f"  {entry.kind}", "$text-muted")),
        Content(
            f"First met on p. {label(entry.first_page)}; {entry.mentions} mention"
            f"{'s' * (entry.mentions != 1)} on {entry.pages} page{'s' * (entry.pages != 1)} so far."
        ),
    ]
    if entry.aliases:
        lines.append(Content(f"Also: {', '.join(entry.aliases)}"))
    if detail.related:
        lines.append(
            Content("With: " + ", ".join(f"{other.name} ({shared})" for other, shared in detail.related))
        )
    return Content("\n").join(lines)


MENTION_ROWS = 60
"""Beyond this many pages, mentions are listed as runs of pages (each row opens its first page)."""


def mention_options(detail: ConceptDetail, label: Callable[[int], str]) -> list[Option]:
    """One row per page mentioning the concept (with a snippet where there is one), or page runs."""
    snippets = {s.page: s.text for s in detail.snippets}
    mentions = list(detail.mentions)
    options: list[Option] = []
    if len(mentions) <= MENTION_ROWS:
        for page, count in mentions:
            times = f" ×{count}" if count > 1 else ""
            prompt: Any = Content.assemble((f"p. {label(page)}{times}", "bold $accent"))
            if page in snippets:
                prompt = Content.assemble(prompt, ("  ", ""), snippets[page])
            options.append(Option(prompt, id=str(page)))
        return options
    size = -(-len(mentions) // MENTION_ROWS)
    for start in range(0, len(mentions), size):
        run = mentions[start : start + size]
        first, last = run[0][0], run[-1][0]
        total = sum(count for _, count in run)
        span = f"p. {label(first)}" if first == last else f"pp. {label(first)}-{label(last)}"
        prompt = Content.assemble((span, "bold $accent"), (f"  {total}× on {len(run)} pages", "$text-muted"))
        options.append(Option(prompt, id=str(first)))
    return options
