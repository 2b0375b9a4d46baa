"""The story so far as text: the model's overview, then each part's heading (and summary) over its
chapters' summaries, as Markdown headings that read as plain text too. The CLI, the app's recap
screen and the chat's story_so_far tool all show this."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from reader.domain.knowledge import PartSummary, SectionSummary

Label = Callable[[int], str]
"""A page number's printed label."""

RECENT_SECTIONS = 10
"""In a brief recap of a book without parts, the chapters shown in full (the latest ones)."""
_FIRST_CITED = re.compile(r"^.*?\[pp?\.[^\[\]]{1,40}\]", re.DOTALL)


def page_span(label: Label, start: int, end: int, partial: bool = False) -> str:
    """ "p. 5", "pp. 5-9" or "pp. 5-9 so far" in printed labels."""
    span = f"p. {label(start)}" if end == start else f"pp. {label(start)}-{label(end)}"
    return span + (" so far" if partial else "")


def first_cited_sentence(text: str) -> str:
    """The summary's first sentence with its citation (all of it when it has no citation)."""
    match = _FIRST_CITED.match(text)
    return match.group().strip() if match else text


def _heading(depth: int, title: str) -> str:
    return f"{'#' * min(6, depth + 2)} {title}"


def render_recap(
    overview: str,
    sections: Sequence[SectionSummary],
    parts: Sequence[PartSummary],
    label: Label,
    *,
    brief: bool = False,
) -> str:
    """The recap as Markdown: `overview`, then the sections under their part headings.

    `brief` shortens what came before the reader's part (or before the latest RECENT_SECTIONS
    chapters in a book without parts): a part with a summary shows only it, each other chapter only
    its first cited sentence.
    """
    by_entry = {part.entry: part for part in parts}
    recent_part = sections[-1].parts[:1] if sections else ()
    blocks: list[str] = [overview] if overview else []
    shown: tuple[int, ...] = ()
    for position, section in enumerate(sections):
        common = 0
        while common < min(len(shown), len(section.parts)) and shown[common] == section.parts[common]:
            common += 1
        for depth in range(common, len(section.parts)):
            part = by_entry.get(section.parts[depth])
            if part is not None:
                blocks.append(
                    _heading(
                        depth,
                        f"{part.title} ({page_span(label, part.start_page, part.end_page, part.partial)})",
                    )
                )
                if part.text:
                    blocks.append(part.text)
        shown = section.parts
        if not section.text:
            continue
        old = section.parts[:1] != recent_part if recent_part else position < len(sections) - RECENT_SECTIONS
        text = section.text
        if brief and old:
            if any(by_entry.get(entry, PartSummary(0, "", 0, 0)).text for entry in section.parts):
                continue
            text = first_cited_sentence(text)
        span = page_span(label, section.start_page, section.end_page, section.partial)
        blocks.append(_heading(len(section.parts), f"{section.title} ({span})"))
        blocks.append(text)
    return "\n\n".join(blocks)
