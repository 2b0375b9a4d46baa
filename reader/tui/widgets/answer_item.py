"""An answer streamed in as Markdown, with buttons for the pages it cites."""

from __future__ import annotations

from collections.abc import Sequence

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Button, Markdown, Static
from textual.widgets.markdown import MarkdownStream

from reader.app.shield.spoiler_shield import HELD_NOTICE
from reader.domain.chat import Citation
from reader.domain.search import SearchResult
from reader.tui.citations import citation_labels, cited_words, label_from_href, linkify_citations
from reader.tui.widgets.citation_bar import CitationBar, CitationFollowed
from reader.tui.widgets.figure_offer import offer_figures

REVEAL_HINT = "Ctrl+R reveals it."


class HeldNotice(Static):
    """The one line saying the rest of an answer is held back (never what it is)."""

    def __init__(self) -> None:
        super().__init__(f"{HELD_NOTICE} {REVEAL_HINT}", classes="chat-held", markup=False)


class AnswerItem(Vertical):
    """The model's answer, streamed in as Markdown, then with buttons for the pages it cites."""

    def __init__(
        self,
        text: str = "",
        *,
        streaming: bool = True,
        held_message: int | None = None,
        spoiler_page: int | None = None,
    ) -> None:
        super().__init__(classes="chat-answer")
        self.text = text
        self.streaming = streaming
        self.citations: dict[str, int | None] = {}
        self.searches: dict[int, str] = {}
        """The query of the search that found each page (its first), for the words a citation shows."""
        self._stream: MarkdownStream | None = None
        self.held_message = held_message
        """The stored answer whose end the spoiler shield holds back (None: nothing held)."""
        self.spoiler_page = spoiler_page
        """From this reading position the held part spoils nothing and is shown."""

    def compose(self) -> ComposeResult:
        yield Markdown(linkify_citations(self.text), open_links=False)
        if not self.streaming:
            self.citations = {label: None for label in citation_labels(self.text)}
        yield CitationBar(list(self.citations))
        if self.held_message is not None:
            yield HeldNotice()

    def on_mount(self) -> None:
        if self.citations:
            self.call_later(offer_figures, self, self.citations)

    async def hold(self, message_id: int | None, spoiler_page: int | None) -> None:
        """Say that the rest of the answer is held back."""
        self.held_message = message_id
        self.spoiler_page = spoiler_page
        if not self.query(HeldNotice):
            await self.mount(HeldNotice())

    async def show_whole(self, text: str) -> None:
        """Show the whole answer (revealed, or the reader has reached the page it spoiled)."""
        self.held_message = None
        self.spoiler_page = None
        await self.query(HeldNotice).remove()
        await self.finish(text, [])

    async def append(self, delta: str) -> None:
        """Add streamed text."""
        self.text += delta
        if self._stream is None:
            self._stream = Markdown.get_stream(self.query_one(Markdown))
        await self._stream.write(delta)

    async def finish(self, text: str, citations: Sequence[Citation]) -> None:
        """Replace the streamed text with the final answer and show its citations."""
        if self._stream is not None:
            await self._stream.stop()
            self._stream = None
        self.text = text
        self.streaming = False
        await self.query_one(Markdown).update(linkify_citations(text))
        cited = list(citations) or [Citation(label, 0) for label in citation_labels(text)]
        await self.set_citations(cited)

    def found(self, query: str, results: Sequence[SearchResult]) -> None:
        """Remember that a search for `query` found the pages of `results`."""
        for result in results:
            for page in range(result.start_page, result.end_page + 1):
                self.searches.setdefault(page, query)

    def follow(self, label: str) -> CitationFollowed:
        """The message opening page `label` with the words that cite it."""
        return CitationFollowed(label, self.citations.get(label), cited_words(self.text, label), self.searches)

    async def abandon(self) -> None:
        """Stop streaming without a final answer."""
        if self._stream is not None:
            await self._stream.stop()
            self._stream = None

    async def set_citations(self, citations: Sequence[Citation]) -> None:
        """One button per cited page."""
        self.citations = {c.label: (c.page or None) for c in citations}
        await self.query_one(CitationBar).set_labels(list(self.citations))
        await offer_figures(self, self.citations)

    @on(Button.Pressed, ".citation")
    def _citation_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.follow(event.button.name or ""))

    @on(Markdown.LinkClicked)
    def _link_clicked(self, event: Markdown.LinkClicked) -> None:
        event.stop()
        label = label_from_href(event.href)
        if label is not None:
            self.post_message(self.follow(label))
        else:
            self.app.open_url(event.href)
