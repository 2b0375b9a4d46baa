"""Errors the user sees as one clear line. Every message says what went wrong and what to do."""

from __future__ import annotations


class ReaderError(Exception):
    """Base of all expected failures; str(error) is the one-line message for the user."""


class ExtractionError(ReaderError):
    """A file could not be read as a book (corrupt, encrypted, DRM, unsupported...)."""


class EncryptedBookError(ExtractionError):
    """The book is password-protected and no (correct) password was given."""


class BookNotFoundError(ReaderError):
    """No book matches what the user typed."""


class AmbiguousBookError(ReaderError):
    """Several books match what the user typed."""

    def __init__(self, query: str, candidates: list[str]) -> None:
        self.candidates = candidates
        listing = "; ".join(candidates)
        super().__init__(f"'{query}' matches several books: {listing}. Use an id prefix or a fuller title.")


class PageNotFoundError(ReaderError):
    """A page label or number that the book does not have."""
