"""How far each book is enriched, read from the library file (light: the library pane reads it on the app's
start-up path, without the enrichment repository and its JSON)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reader.domain.enrichment_status import ENRICHMENT_SCHEMA_VERSION, EnrichmentStatus

_STATUS = """
SELECT b.id,
       (SELECT count(*) FROM page_enrichments e WHERE e.book_id = b.id AND e.schema_version = :version),
       (SELECT count(*) FROM pages p WHERE p.book_id = b.id AND (
            p.image_count > 0 OR p.drawing_area > 0
            OR EXISTS (SELECT 1 FROM chunks c WHERE c.book_id = p.book_id AND c.start_page = p.number))),
       (SELECT count(DISTINCT f.page) FROM enrichment_failures f WHERE f.book_id = b.id AND NOT EXISTS (
            SELECT 1 FROM page_enrichments e WHERE e.book_id = f.book_id AND e.page = f.page)),
       coalesce((SELECT e.model FROM page_enrichments e WHERE e.book_id = b.id
                 ORDER BY e.created_at DESC, e.id DESC LIMIT 1), '')
FROM books b
"""


def _status(row: Sequence[Any]) -> EnrichmentStatus:
    return EnrichmentStatus(done=row[1], total=row[2], failed=row[3], model=row[4])


def enrichment_status(conn: Any, book_id: str) -> EnrichmentStatus:
    """One book's enrichment status (0 of 0 for a book not in the library)."""
    row = conn.execute(
        _STATUS + "WHERE b.id = :book", {"version": ENRICHMENT_SCHEMA_VERSION, "book": book_id}
    ).fetchone()
    return _status(row) if row else EnrichmentStatus(0, 0)


def enrichment_statuses(conn: Any) -> dict[str, EnrichmentStatus]:
    """The enrichment status of every book that has enrichments or failures (the library pane's view)."""
    rows = conn.execute(
        _STATUS
        + "WHERE b.id IN (SELECT book_id FROM page_enrichments UNION SELECT book_id FROM enrichment_failures)",
        {"version": ENRICHMENT_SCHEMA_VERSION},
    ).fetchall()
    return {row[0]: _status(row) for row in rows}
