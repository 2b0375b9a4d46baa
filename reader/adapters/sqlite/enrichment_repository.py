"""Page enrichments and enrichment failures in the library file."""

from __future__ import annotations

import builtins
from typing import Any

from reader.adapters.sqlite.enrichment_status import enrichment_status
from reader.domain.enrichment import (
    Enrichment,
    EnrichmentFailure,
    EnrichmentStatus,
    StoredEnrichment,
    Visual,
)


def _enrichment(data: str) -> Enrichment:
    import json

    value = json.loads(data)
    return Enrichment(
        summary=value["summary"],
        sections=tuple(value["sections"]),
        visuals=tuple(Visual(v["type"], v["description"], v["relevance"]) for v in value["visuals"]),
        visual_importance=value["visual_importance"],
        full_text=value.get("full_text", ""),  # schema 1 had none
    )


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
        import json

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
        return enrichment_status(self.conn, book_id)
