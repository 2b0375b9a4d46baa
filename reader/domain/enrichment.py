"""Page enrichments: a model's structured reading of one page (summary, sections, visuals)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from reader.domain.enrichment_status import ENRICHMENT_SCHEMA_VERSION as ENRICHMENT_SCHEMA_VERSION
from reader.domain.enrichment_status import EnrichmentStatus as EnrichmentStatus
from reader.domain.models import Chunk


def page_content_hash(chunks: Iterable[Chunk], page: int) -> str:
    """A hash of one page's text as stored (its page-aligned chunks in order): it changes when the text does."""
    import hashlib  # not at import: the library pane reads enrichment statuses on the app's start-up path

    digest = hashlib.sha256()
    for chunk in sorted((c for c in chunks if c.start_page == page), key=lambda c: c.index):
        digest.update(chunk.text.encode("utf-8"))
        digest.update(b"\x00")
    return digest.hexdigest()


@dataclass(frozen=True)
class Visual:
    """A figure, table, map or other visual on a page, as the model described it."""

    type: str
    description: str
    relevance: str


@dataclass(frozen=True)
class Enrichment:
    """A validated enrichment of one page."""

    summary: str
    sections: tuple[str, ...]
    visuals: tuple[Visual, ...]
    visual_importance: int
    full_text: str = ""
    """The page's text as the model transcribed it from the attached page ("" for a page whose text
    layer it was given)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "summary": self.summary,
            "sections": list(self.sections),
            "visuals": [
                {"type": v.type, "description": v.description, "relevance": v.relevance} for v in self.visuals
            ],
            "visual_importance": self.visual_importance,
            "full_text": self.full_text,
        }

    @property
    def search_text(self) -> str:
        """What search indexes for the page: the summary, section titles and figure descriptions."""
        parts = [self.summary, *self.sections]
        parts += [f"{v.type}: {v.description}" for v in self.visuals]
        return "\n".join(p for p in parts if p.strip())


@dataclass(frozen=True)
class StoredEnrichment:
    """An enrichment as stored: which page, with which schema version, text hash and model."""

    book_id: str
    page: int
    schema_version: int
    content_hash: str
    model: str
    enrichment: Enrichment
    created_at: str = ""


@dataclass(frozen=True)
class EnrichmentFailure:
    """A page the model did not enrich: why, and what it answered (kept verbatim)."""

    book_id: str
    page: int
    model: str
    error: str
    raw_output: str
    created_at: str = ""
