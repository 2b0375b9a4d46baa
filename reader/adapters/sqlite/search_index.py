"""Retrieval in the library file: FTS5 bm25 and vec0 KNN, with the spoiler filter (and the story's first
page, to leave front matter out) inside every query."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

from reader.adapters.sqlite.vector_store import pack
from reader.domain.search import EmbeddingSpace, ScoredChunk

MAX_TERMS = 64
"""More terms than this are dropped (a 10,000-character query stays fast)."""

_HIT_COLUMNS = """
SELECT c.id, c.book_id, c.text, c.start_page, c.end_page,
       coalesce(ps.label, CAST(c.start_page AS TEXT)), coalesce(pe.label, CAST(c.end_page AS TEXT)), hits.score
FROM hits
CROSS JOIN chunks c ON c.rowid = hits.rowid
LEFT JOIN pages ps ON ps.book_id = c.book_id AND ps.number = c.start_page
LEFT JOIN pages pe ON pe.book_id = c.book_id AND pe.number = c.end_page
WHERE c.book_id = ? AND c.end_page <= ? AND c.start_page >= ?
ORDER BY hits.score DESC, c.chunk_index
"""

_LEXICAL = (
    """
WITH hits AS (
    SELECT chunks_fts.rowid AS rowid, -bm25(chunks_fts) AS score
    FROM chunks_fts CROSS JOIN chunks ON chunks.rowid = chunks_fts.rowid
    WHERE chunks_fts MATCH ? AND chunks_fts.rowid BETWEEN ? AND ?
      AND chunks.book_id = ? AND chunks.end_page <= ? AND chunks.start_page >= ?
    ORDER BY bm25(chunks_fts)
    LIMIT ?
)"""
    + _HIT_COLUMNS
)

_SEMANTIC = (
    """
WITH hits AS (
    SELECT rowid, 1.0 - coalesce(distance, 2.0) AS score
    FROM {table}
    WHERE embedding MATCH ? AND k = ? AND book_id = ? AND end_page <= ? AND start_page >= ?
)"""
    + _HIT_COLUMNS
)


_SUMMARIES = """
SELECT e.book_id, e.page, e.model, e.search_text, coalesce(p.label, CAST(e.page AS TEXT)),
       -bm25(page_enrichments_fts)
FROM page_enrichments_fts
CROSS JOIN page_enrichments e ON e.id = page_enrichments_fts.rowid
LEFT JOIN pages p ON p.book_id = e.book_id AND p.number = e.page
WHERE page_enrichments_fts MATCH ? AND e.book_id = ? AND e.page <= ? AND e.page >= ?
ORDER BY bm25(page_enrichments_fts), e.page
LIMIT ?
"""

SUMMARY_PREFIX = "Page summary (made by {model}, not the page's own words):"


def summary_chunk_id(book_id: str, page: int) -> str:
    """The id a page summary has among search results (it is not a stored chunk)."""
    return f"{book_id[:16]}-p{page}-summary"


def fts_phrase(term: str) -> str:
    """A term as an FTS5 string: double quotes around it, inner quotes doubled (no operators)."""
    return '"' + term.replace('"', '""') + '"'


def match_expression(terms: Sequence[str]) -> str:
    """Any of the terms, each a quoted phrase; empty when no term has a letter or digit."""
    seen: dict[str, None] = {}
    for term in terms:
        if any(ch.isalnum() for ch in term):
            seen.setdefault(term.lower(), None)
        if len(seen) >= MAX_TERMS:
            break
    return " OR ".join(fts_phrase(term) for term in seen)


def _scored(row: Sequence[Any]) -> ScoredChunk:
    return ScoredChunk(
        chunk_id=row[0],
        book_id=row[1],
        text=row[2],
        start_page=row[3],
        end_page=row[4],
        start_label=row[5],
        end_label=row[6],
        score=float(row[7]),
    )


class SqliteSearchIndex:
    """Searches one book's chunks up to a page; nothing after it is ever read from the index.

    Every full-text query joins its FTS table with CROSS JOIN, which keeps the FTS table the outer
    loop: with a plain JOIN SQLite may walk the book's chunks through their page index and run the
    MATCH once per chunk (War and Peace, "natasha" up to p. 300: 36 s; with CROSS JOIN: 0.14 s). The
    hits then join their chunks the same way (_HIT_COLUMNS): a plain JOIN there let SQLite run the
    hits' query once per visible chunk (a 1,017-page book, four common words at p. 500: 1.8 s; 2 ms).
    """

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self._kept: dict[tuple[Any, ...], Any] = {}
        """Spans and term counts read since the library last changed (`_unchanged`)."""
        self._stamp: tuple[int, int] = (-1, -1)

    def _unchanged(self) -> dict[tuple[Any, ...], Any]:
        """What was read while nothing was written: emptied when another connection has committed (SQLite's
        data_version) or this one has changed rows since."""
        stamp = (int(self.conn.execute("PRAGMA data_version").fetchone()[0]), int(self.conn.total_changes))
        if stamp != self._stamp or len(self._kept) > 512:
            self._kept.clear()
            self._stamp = stamp
        return self._kept

    def _visible(self, book_id: str, current_page: int, first_page: int) -> tuple[int, int | None, int | None]:
        """(count, lowest rowid, highest rowid) of the book's chunks on pages first_page..current_page.

        Read once for a search's several queries (2 ms on War and Peace at p. 1,200); `start_page <=
        current_page` (implied by `end_page`) bounds the scan of the page index."""
        kept = self._unchanged()
        key = ("visible", book_id, current_page, first_page)
        if key not in kept:
            row = self.conn.execute(
                "SELECT count(*), min(rowid), max(rowid) FROM chunks WHERE book_id = ? AND start_page >= ? "
                "AND start_page <= ? AND end_page <= ?",
                (book_id, first_page, current_page, current_page),
            ).fetchone()
            kept[key] = (int(row[0]), row[1], row[2])
        return kept[key]

    def _rowid_range(self, book_id: str, current_page: int, first_page: int) -> tuple[int, int] | None:
        _, low, high = self._visible(book_id, current_page, first_page)
        return None if low is None or high is None else (low, high)

    def lexical(
        self, book_id: str, terms: Sequence[str], current_page: int, k: int, first_page: int = 1
    ) -> builtins.list[ScoredChunk]:
        """bm25-ranked chunks matching any term; the book's visible rowid range bounds the FTS scan."""
        expression = match_expression(terms)
        span = self._rowid_range(book_id, current_page, first_page)
        if not expression or span is None or k <= 0:
            return []
        pages = (book_id, current_page, first_page)
        rows = self.conn.execute(_LEXICAL, (expression, span[0], span[1], *pages, k, *pages)).fetchall()
        return [_scored(row) for row in rows]

    def semantic(
        self,
        book_id: str,
        space: EmbeddingSpace,
        vector: Sequence[float],
        current_page: int,
        k: int,
        first_page: int = 1,
    ) -> builtins.list[ScoredChunk]:
        """KNN inside the book's partition with `end_page <= current_page` and `start_page >= first_page`
        in the same query (vec0 metadata columns: k rows that all pass the filter)."""
        if k <= 0 or current_page < max(1, first_page):
            return []
        if len(vector) != space.dimension:
            raise ValueError(f"a {len(vector)}-dimensional query cannot search {space.dimension} dimensions")
        table = '"' + space.table.replace('"', '""') + '"'
        rows = self.conn.execute(
            _SEMANTIC.format(table=table),
            (
                pack(vector),
                min(k, 4096),
                book_id,
                current_page,
                first_page,
                book_id,
                current_page,
                first_page,
            ),
        ).fetchall()
        return [_scored(row) for row in rows]

    def similarities(
        self, space: EmbeddingSpace, vector: Sequence[float], chunk_ids: Sequence[str]
    ) -> dict[str, float]:
        """Cosine similarity to the stored vectors of the given chunks, looked up by rowid (no KNN)."""
        if not chunk_ids:
            return {}
        if len(vector) != space.dimension:
            raise ValueError(f"a {len(vector)}-dimensional query cannot search {space.dimension} dimensions")
        table = '"' + space.table.replace('"', '""') + '"'
        found: dict[str, float] = {}
        ids = list(dict.fromkeys(chunk_ids))
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            marks = ",".join("?" * len(part))
            rows = self.conn.execute(
                f"SELECT c.id, 1.0 - vec_distance_cosine(v.embedding, ?) FROM chunks c "
                f"CROSS JOIN {table} v ON v.rowid = c.rowid WHERE c.id IN ({marks})",
                (pack(vector), *part),
            ).fetchall()
            found.update((row[0], float(row[1])) for row in rows)
        return found

    def term_counts(
        self, book_id: str, terms: Sequence[str], current_page: int, first_page: int = 1
    ) -> tuple[int, builtins.list[int]]:
        """The visible chunks' count and each term's chunk count among them (the visible rowid range bounds
        every count; chunks of a book are numbered together, so the range holds only the book's)."""
        total, low, high = self._visible(book_id, current_page, first_page)
        if not total:
            return 0, [0 for _ in terms]
        counts = []
        kept = self._unchanged()
        for term in terms:
            expression = match_expression([term])
            key = ("count", expression, low, high)
            if expression and key not in kept:
                kept[key] = self.conn.execute(
                    "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid BETWEEN ? AND ?",
                    (expression, low, high),
                ).fetchone()[0]
            counts.append(int(kept[key]) if expression else 0)
        return total, counts

    def summaries(
        self, book_id: str, terms: Sequence[str], current_page: int, k: int, first_page: int = 1
    ) -> builtins.list[ScoredChunk]:
        """bm25-ranked page summaries (from `reader enrich`) of pages first_page..current_page."""
        expression = match_expression(terms)
        if not expression or k <= 0 or current_page < max(1, first_page):
            return []
        rows = self.conn.execute(_SUMMARIES, (expression, book_id, current_page, first_page, k)).fetchall()
        return [
            ScoredChunk(
                chunk_id=summary_chunk_id(row[0], row[1]),
                book_id=row[0],
                text=f"{SUMMARY_PREFIX.format(model=row[2])}\n{row[3]}",
                start_page=row[1],
                end_page=row[1],
                start_label=row[4],
                end_label=row[4],
                score=float(row[5]),
            )
            for row in rows
        ]

    def vocabulary(self, min_length: int, max_length: int) -> builtins.list[tuple[str, int]]:
        """Indexed (stemmed) terms of the given lengths with their chunk counts, library-wide."""
        rows = self.conn.execute(
            "SELECT term, doc FROM chunks_vocab WHERE length(term) BETWEEN ? AND ?", (min_length, max_length)
        ).fetchall()
        return [(row[0], row[1]) for row in rows]

    def visible_forms(
        self,
        book_id: str,
        term: str,
        current_page: int,
        limit: int = 5,
        prefix: bool = False,
        first_page: int = 1,
    ) -> builtins.list[str]:
        """How `term` is written in up to `limit` visible chunks of the book (empty when it is absent).

        With `prefix`, `term` is an indexed (stemmed) token and every word starting with it counts.
        """
        expression = match_expression([term])
        if prefix and expression:
            expression += "*"
        span = self._rowid_range(book_id, current_page, first_page)
        if not expression or span is None:
            return []
        rows = self.conn.execute(
            "SELECT highlight(chunks_fts, 0, char(1), char(2)) FROM chunks_fts "
            "CROSS JOIN chunks ON chunks.rowid = chunks_fts.rowid "
            "WHERE chunks_fts MATCH ? AND chunks_fts.rowid BETWEEN ? AND ? "
            "AND chunks.book_id = ? AND chunks.end_page <= ? AND chunks.start_page >= ? LIMIT ?",
            (expression, span[0], span[1], book_id, current_page, first_page, limit),
        ).fetchall()
        forms: dict[str, None] = {}
        for (marked,) in rows:
            for part in marked.split("\x01")[1:]:
                form = part.split("\x02", 1)[0].strip()
                if form:
                    forms.setdefault(form, None)
        return list(forms)
