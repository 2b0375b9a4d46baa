"""What a page shows before the reader's marks are drawn on it: its text, its chapter heading emphasised."""

from __future__ import annotations

from textual.content import Content

from reader.tui.reading_session import ShownPage


def empty_page_text(page: ShownPage) -> str:
    """What a page without text shows: whether it has figures, and how to see them."""
    if not page.has_figures:
        return "(This page has no text.)"
    if page.book.format == "pdf":
        return "(This page is a figure with no text. Press p to see it as printed, o to open it in the PDF viewer.)"
    return "(This page is a figure with no text.)"


def can_open(page: ShownPage) -> bool:
    """Whether `o` is worth showing: a page of a PDF book whose meaning is largely in its figures."""
    return page.has_figures and page.book.format == "pdf"


def page_content(page: ShownPage) -> Content:
    """The page text, with the chapter heading emphasised on a chapter's first page."""
    text = page.text if page.text.strip() else empty_page_text(page)
    content = Content(text)
    chapter = page.chapter
    if chapter is not None and chapter.start_page == page.number:
        start = text.find(chapter.title)
        if 0 <= start < 200:
            content = content.stylize("bold $page-heading", start, start + len(chapter.title))
    return content
