"""Vectors for the chunks a run stored as pages' new text (OCR, a model's transcription)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reader.services import Services


def was_embedded(services: Services, book_id: str) -> bool:
    """Whether the book has vectors now (checked before a run: storing page text drops them)."""
    return bool(services.vectors.book_vectors(book_id))


def embed_new_text(services: Services, book_id: str, embedded: bool, stored: int) -> None:
    """Embed the book again when it was embedded and the run stored `stored` pages' text."""
    if stored and embedded and services.embedding_provider is not None:
        services.embed_use_case.embed_book(book_id)
