"""How far a book is enriched, and the enrichment schema's version (light: the library pane reads statuses
on the app's start-up path, without the rest of reader.domain.enrichment)."""

from __future__ import annotations

from dataclasses import dataclass

ENRICHMENT_SCHEMA_VERSION = 2
"""Version of the enrichment JSON schema and prompt; enrichments of another version are redone.
2: `full_text`, the page's transcription by a model that reads PDFs (for a page with no text layer)."""


@dataclass(frozen=True)
class EnrichmentStatus:
    """How far a book is enriched: `done` of `total` pages (current ones), and pages that failed last time."""

    done: int
    total: int
    failed: int = 0
    model: str = ""
