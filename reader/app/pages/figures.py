"""Pages whose meaning is in their figures: shown to a model that reads PDFs, else flagged in the text.

read_pages asks here what to do with each page it returns. A page of visual_importance 4-5 in a PDF
book goes to a model that accepts PDF input as a one-page PDF (with the next page when its text runs
on), attached in a message after the tool results and named by its printed label so the model cites
it. Otherwise the page's text carries a note that it has figures the model cannot see. No page after
the reader's page is ever attached.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from reader.domain.chat import PageAttachment
from reader.domain.errors import ReaderError
from reader.domain.models import FIGURE_IMPORTANCE, Book, Page
from reader.domain.ports import PageFiles

ATTACH_IMPORTANCE = 4
"""Pages of this visual_importance or more are sent as PDF to a model that can read it."""
MAX_ATTACHMENTS = 2
"""Figure pages attached per read_pages call (each may bring its next page along)."""
_SENTENCE_END = tuple(".!?:;…\"'”’)]»")


@dataclass
class FigurePages:
    """What read_pages adds for pages with figures: a note per page and the PDFs to attach."""

    notes: dict[int, str] = field(default_factory=dict)
    attachments: list[PageAttachment] = field(default_factory=list)


def runs_on(text: str, next_page: Page | None) -> bool:
    """Whether a figure page's matter continues on the next page.

    True when the page has no text (its caption or discussion follows), stops mid-sentence, or when
    the next page is a figure page too.
    """
    stripped = text.rstrip()
    if not stripped or not stripped.endswith(_SENTENCE_END):
        return True
    return next_page is not None and next_page.visual_importance >= ATTACH_IMPORTANCE


def figure_pages(
    book: Book,
    pages: Sequence[Page],
    texts: Mapping[int, str],
    start: int,
    end: int,
    horizon: int,
    page_files: PageFiles | None,
    pdf_input: bool,
) -> FigurePages:
    """Notes and attachments for pages start..end (all at or before `horizon`, the reader's page)."""
    found = FigurePages()
    by_number = {page.number: page for page in pages}
    attached: set[int] = set()
    can_attach = pdf_input and page_files is not None and book.format == "pdf"
    for number in range(start, min(end, horizon) + 1):
        page = by_number.get(number)
        if page is None or page.visual_importance < FIGURE_IMPORTANCE or number in attached:
            continue
        importance = page.visual_importance
        problem = ""
        if can_attach and importance >= ATTACH_IMPORTANCE and len(found.attachments) < MAX_ATTACHMENTS:
            assert page_files is not None
            group = [number]
            following = by_number.get(number + 1)
            if (
                following is not None
                and following.number <= horizon
                and runs_on(texts.get(number, ""), following)
            ):
                group.append(following.number)
            try:
                data = page_files.page_pdf(book, group)
            except ReaderError as error:
                problem = f" (it could not be attached: {error})"
            else:
                labels = tuple(by_number[n].label for n in group)
                attachment = PageAttachment(data, tuple(group), labels)
                found.attachments.append(attachment)
                attached.update(group)
                found.notes[number] = (
                    f"[This page has figures (visual importance {importance} of 5). The page itself is attached "
                    f"as a PDF after these results ({attachment.citation}), so you can see them.]"
                )
                continue
        found.notes[number] = (
            f"[p. {page.label} has figures (visual importance {importance} of 5) that you cannot see; only "
            f"its text is here{problem}. If the answer depends on them, say so.]"
        )
    return found


def attachment_message(book: Book, attachments: Sequence[PageAttachment]) -> dict[str, Any]:
    """A user message carrying the attached pages as PDF file parts, each named by its printed page."""
    content: list[dict[str, Any]] = []
    for attachment in attachments:
        numbers = ", ".join(str(n) for n in attachment.pages)
        content.append(
            {
                "type": "text",
                "text": (
                    f"Attached by read_pages: {attachment.citation} of {book.title} (page {numbers} of "
                    f"{book.page_count}), as a PDF so you can see its figures. It is within the pages the "
                    f"reader has read. Cite it as [{attachment.citation}]."
                ),
            }
        )
        content.append(file_part(attachment))
    return {"role": "user", "content": content}


def file_part(attachment: PageAttachment) -> dict[str, Any]:
    """The attachment as a message content part: a file with base64 data (litellm's PDF input shape)."""
    encoded = base64.b64encode(attachment.data).decode("ascii")
    return {
        "type": "file",
        "file": {
            "filename": attachment.filename,
            "file_data": f"data:{attachment.media_type};base64,{encoded}",
        },
    }
