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


class EndpointError(ReaderError):
    """A call to a model or embedding endpoint failed; str(error) is one line saying what to do.

    `kind` is one of: auth, not_found, rate_limit, server, timeout, connection, context_window,
    bad_request, malformed, dimension, other. `retryable` says whether trying again later may help.
    """

    def __init__(self, message: str, kind: str = "other", retryable: bool = False) -> None:
        super().__init__(message)
        self.kind = kind
        self.retryable = retryable


class EmbeddingError(EndpointError):
    """The embedding endpoint failed, or answered with vectors of the wrong count or dimension."""


class StorageError(ReaderError):
    """The library file could not be written or read: the disk is full, the file is read-only, another
    program held it too long, or it is damaged. Nothing of the change was kept.

    `kind` is one of: full, readonly, busy, damaged, io.
    """

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind
