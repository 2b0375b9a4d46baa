"""Page enrichments and enrichment failures in the library file."""

from __future__ import annotations

import builtins
import json
from collections.abc import Sequence
from typing import Any

from reader.domain.enrichment import (
    ENRICHMENT_SCHEMA_VERSION,
    Enrichment,
    EnrichmentFailure,
    EnrichmentStatus,
    StoredEnrichment,
    Visual,
)

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


def _enrichment(data: str) -> Enrichment:
    value = json.loads(data)
    return Enrichment(
        summary=value["summary"],
        sections=tuple(value["sections"]),
        visuals=tuple(Visual(v["type"], v["description"], v["relevance"]) for v in value["visuals"]),
        visual_importance=value["visual_importance"],
        full_text=value.get("full_text", ""),  # schema 1 had none
    )


def _status(row: Sequence[Any]) -> EnrichmentStatus:
    return EnrichmentStatus(done=row[1], total=row[2], failed=row[3], model=row[4])


class SqliteEnrichmentRepository:
    """Reads and writes page enrichments; each write commits on its own (an interrupted run keeps them)."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def keys(self, book_id: str) -> dict[int, tuple[int, str, str]]:
        rows = self.conn.execute(
            "SELECT page, schema_version, content_hash, model FROM page_enrichments WHERE book_id = ?",
            (book_id,),
        ).fetchall()
        return {row[0]: (row[1], row[2], row[3]) for row in rows}

    def get(self, book_id: str, page: int) -> StoredEnrichment | None:
        row = self.conn.execute(
            "SELECT book_id, page, schema_version, content_hash, model, data, created_at FROM page_enrichments "
            "WHERE book_id = ? AND page = ?",
            (book_id, page),
        ).fetchone()
        if row is None:
            return None
        return StoredEnrichment(row[0], row[1], row[2], row[3], row[4], _enrichment(row[5]), row[6])

    def save(self, enrichment: StoredEnrichment) -> None:
        data = enrichment.enrichment
        self.conn.execute(
            "INSERT INTO page_enrichments (book_id, page, schema_version, content_hash, model, data, "
            "visual_importance, search_text) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (book_id, page) DO UPDATE SET schema_version = excluded.schema_version, "
            "content_hash = excluded.content_hash, model = excluded.model, data = excluded.data, "
            "visual_importance = excluded.visual_importance, search_text = excluded.search_text, "
            "created_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')",
            (
                enrichment.book_id,
                enrichment.page,
                enrichment.schema_version,
                enrichment.content_hash,
                enrichment.model,
                json.dumps(data.to_json(), ensure_ascii=False),
                data.visual_importance,
                data.search_text,
            ),
        )

    def add_failure(self, failure: EnrichmentFailure) -> None:
        self.conn.execute(
            "INSERT INTO enrichment_failures (book_id, page, model, error, raw_output) VALUES (?, ?, ?, ?, ?)",
            (failure.book_id, failure.page, failure.model, failure.error, failure.raw_output),
        )

    def failures(self, book_id: str) -> builtins.list[EnrichmentFailure]:
        rows = self.conn.execute(
            "SELECT book_id, page, model, error, raw_output, created_at FROM enrichment_failures "
            "WHERE book_id = ? ORDER BY id",
            (book_id,),
        ).fetchall()
        return [EnrichmentFailure(*row) for row in rows]

    def summaries(self, book_id: str, up_to_page: int) -> builtins.list[tuple[int, str]]:
        rows = self.conn.execute(
            "SELECT page, json_extract(data, '$.summary') FROM page_enrichments "
            "WHERE book_id = ? AND page <= ? ORDER BY page",
            (book_id, up_to_page),
        ).fetchall()
        return [(row[0], row[1]) for row in rows]

    def status(self, book_id: str) -> EnrichmentStatus:
        row = self.conn.execute(
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
