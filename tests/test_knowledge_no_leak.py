"""Property: no X-Ray list, lookup, summary or recap holds a word first written after the reader's page."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reader.cli.library_commands import import_sample
from reader.services import Services

WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]*")
CITATION = re.compile(r"\[pp?\.[^\]]*\]|\(pp?\. [^)]*\)")
"""Citations, and the page spans of the recap's headings ("(pp. 4-6)", "(p. 7 so far)")."""


def first_pages(services: Services, book_id: str, page_count: int) -> dict[str, int]:
    """Each word of the book (lower-cased, possessive dropped) and the first page it is written on."""
    seen: dict[str, int] = {}
    for number in range(1, page_count + 1):
        text = " ".join(c.text for c in services.chunks.get_by_page_range(book_id, number, number))
        for word in WORD.findall(text):
            seen.setdefault(normal(word), number)
    return seen


def normal(word: str) -> str:
    word = word.lower().replace("’", "'")
    return word[:-2] if word.endswith("'s") else word.rstrip("'-")


def late_words(text: str, seen: dict[str, int], page: int) -> list[str]:
    """Words of `text` that the book first writes after `page` (or never)."""
    return [w for w in WORD.findall(CITATION.sub(" ", text)) if seen.get(normal(w), 10**6) > page]


def test_nothing_from_after_the_reading_position_reaches_xray_lookups_or_recaps() -> None:
    services = Services.open()
    book = import_sample(services)
    seen = first_pages(services, book.id, book.page_count)
    every_name = [e.name for e in services.xray.entries(book.id, book.page_count)]
    every_name += [a for e in services.xray.entries(book.id, book.page_count) for a in e.aliases]

    @settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        page=st.integers(1, book.page_count),
        name=st.sampled_from(every_name),
        reader_text=st.text(max_size=12),
    )
    def check(page: int, name: str, reader_text: str) -> None:
        xray = services.xray
        entries = xray.entries(book.id, page)
        for entry in entries:
            assert entry.first_page <= page and entry.last_page <= page
            for shown in (entry.name, *entry.aliases):
                assert not late_words(shown, seen, page), (page, shown)
        for query in (name, reader_text):
            found = xray.find(book.id, query, page, entries)
            if found is None:
                continue
            detail = xray.detail(book.id, found, page)
            assert all(p <= page for p, _ in detail.mentions)
            texts = [found.name, *found.aliases, *(o.name for o, _ in detail.related)]
            texts += [s.text.strip("…") for s in detail.snippets]
            assert all(s.page <= page for s in detail.snippets)
            for text in texts:
                assert not late_words(text, seen, page), (page, query, text)
        recap = services.summaries_for().story_so_far(book.id, page)
        assert not late_words(recap.text, seen, page), page
        for section in recap.sections:
            assert section.end_page <= page
        if page < 26:
            assert "Morvoren" not in recap.text and all("Morvoren" not in e.name for e in entries)
        if page < 28:
            assert "killed Edmund Halloran" not in recap.text

    check()
