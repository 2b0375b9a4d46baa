"""Single pages of a book's PDF as small PDFs of their own (for a model to see, or a viewer to open)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

from pypdf import PasswordType, PdfReader, PdfWriter

from reader.adapters.extractors.common import one_line
from reader.adapters.extractors.pdf_pages import quiet_pypdf
from reader.domain.errors import ReaderError
from reader.domain.models import Book


class PypdfPageFiles:
    """Cuts pages out of the book's original file with pypdf (the file must still be where it was imported)."""

    def page_pdf(self, book: Book, pages: Sequence[int]) -> bytes:
        """A PDF of just `pages` (1-based); ReaderError with one line when that cannot be made."""
        if book.format != "pdf":
            raise ReaderError(f"{book.title} is not a PDF book; it has no PDF pages to show.")
        path = Path(book.source_path)
        if not path.is_file():
            raise ReaderError(
                f"The file of {book.title} is no longer at {book.source_path}; import it again from where it is."
            )
        try:
            with quiet_pypdf(), path.open("rb") as handle:
                reader = PdfReader(handle)
                if reader.is_encrypted and reader.decrypt("") == PasswordType.NOT_DECRYPTED:
                    raise ReaderError(f"{book.title} is password-protected; its pages cannot be cut out.")
                if len(reader.pages) != book.page_count:
                    raise ReaderError(
                        f"The file of {book.title} has changed since it was imported "
                        f"({len(reader.pages)} pages, not {book.page_count}); import it again."
                    )
                writer = PdfWriter()
                for number in pages:
                    if not 1 <= number <= book.page_count:
                        raise ReaderError(
                            f"Page {number} is out of range; the book has 1 to {book.page_count}."
                        )
                    writer.add_page(reader.pages[number - 1])
                out = io.BytesIO()
                writer.write(out)
                return out.getvalue()
        except ReaderError:
            raise
        except Exception as error:  # noqa: BLE001 - pypdf raises many types for broken files
            try:
                return pdfium_pages(path, pages, book.page_count)  # a damaged file PDFium repaired at import
            except Exception:  # noqa: BLE001 - PDFium cannot either: pypdf's reason is the one to show
                reason = one_line(error) or type(error).__name__
                raise ReaderError(f"Cannot cut pages out of {book.title}'s PDF ({reason}).") from None


def pdfium_pages(path: Path, pages: Sequence[int], page_count: int) -> bytes:
    """A PDF of just `pages` (1-based) made by PDFium from a file pypdf cannot parse."""
    import pypdfium2

    source = pypdfium2.PdfDocument(path)
    target = pypdfium2.PdfDocument.new()
    try:
        if len(source) != page_count:
            raise ValueError("the file has changed since it was imported")
        target.import_pages(source, [number - 1 for number in pages])
        out = io.BytesIO()
        target.save(out)
        return out.getvalue()
    finally:
        target.close()
        source.close()
