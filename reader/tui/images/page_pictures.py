"""Which pictures the page on screen has: stored ones (EPUB, FB2, HTML) at once, a PDF page's figures
found off the UI thread, or the whole PDF page when the reader asks for it with `p`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reader.tui.images.figures import Figure, stored_figures
from reader.tui.reading_session import ReadingSession

PAGE_SHAPE = (1000, 1414)
"""A page's assumed shape before it is drawn (A-series paper); the drawing keeps the real one inside it."""


def page_figures(services: Any, session: ReadingSession, whole_page: bool) -> tuple[list[Figure], Callable[[], list[Figure]] | None]:
    """The figures of the session's page now, and a finder for more to run in a worker (PDF figures)."""
    if services is None:
        return [], None
    book, number = session.book, session.number
    if book.format == "pdf":
        if whole_page:
            return [whole_pdf_page(services.pdf_figures, book.source_path, number, session.label(number))], None
        page = session.pages[number - 1] if 1 <= number <= len(session.pages) else None
        if page is None or page.visuals.image_count == 0:
            return [], None
        text = session.text(number)
        source = services.pdf_figures  # one PDFium document for the app, used from the picture thread
        return [], lambda: pdf_figures(source, book.id, book.source_path, number, text)
    images = services.images.on_page(book.id, number)
    if not images:
        return [], None
    return stored_figures(lambda image_id: services.images.data(image_id), book.id, images), None


def whole_pdf_page(source: Any, path: str, number: int, label: str) -> Figure:
    """Page `number` of a PDF drawn whole."""
    return Figure(
        ("pdf-page", path, number),
        0,
        f"p. {label} as printed (p: back to the text)",
        *PAGE_SHAPE,
        lambda size: source.render(path, number),
        whole_page=True,
    )


def pdf_figures(source: Any, book_id: str, path: str, number: int, text: str) -> list[Figure]:
    """The images on a PDF page as figures, each before the paragraph nearest where it stands (run off
    the UI thread); `source` is the app's PdfFigures."""
    found = source.figures(path, number)
    figures = []
    for index, figure in enumerate(found):
        offset = paragraph_start(text, round(figure.text_before * len(text)))
        box = figure.box
        figures.append(
            Figure(
                ("pdf-figure", book_id, number, index),
                offset,
                f"Figure {index + 1} on this page" if len(found) > 1 else "Figure on this page",
                figure.width,
                figure.height,
                lambda size, box=box: source.render(path, number, box),  # type: ignore[misc]
            )
        )
    return figures


def paragraph_start(text: str, position: int) -> int:
    """The start of the first paragraph at or after `position` (0 stays 0; past the last: the end)."""
    if position <= 0:
        return 0
    found = text.find("\n\n", position)
    return len(text) if found < 0 else found + 2
