"""Search hits on the page: a search result or a citation opened with its words highlighted, n / N."""

from __future__ import annotations

from reader.app.search.snippets import term_spans
from reader.tui.widgets.marked_page import MarkedPage, SearchHits

HIT_ACTIONS = frozenset(("next_hit", "previous_hit", "clear_hits"))
"""The actions that only work while search hits are shown."""


class PageSearchHits(MarkedPage):
    """Shows a page with a query's words highlighted and steps through them (and the results' pages)."""

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

    def action_clear_hits(self) -> None:
        """Stop highlighting the search's words."""
        self.hits = None
        self.refresh_bindings()
        self._restyle()
