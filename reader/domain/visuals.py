"""Scoring how much of a page's meaning is in its figures (visual_importance 1-5), without a model."""

from __future__ import annotations

MIN_FIGURE_AREA = 0.04
"""Visuals covering less of the page than this (rules, ornaments, small logos) do not count."""
FULL_PAGE_AREA = 0.9
DENSE_TEXT_CHARS = 1200
"""About half a page of prose: a figure beside this much text matters less."""
SPARSE_TEXT_CHARS = 600
"""Up to a caption or two: a figure with this little text is what the page is about."""
SCAN_TEXT_CHARS = 800


def score_visual_importance(figure_area: float, text_chars: int, image_area: float = 0.0) -> int:
    """1 for prose, up to 5 for a page that is mostly a figure with at most a caption.

    `figure_area` is the fraction of the page covered by images and drawings together, `image_area`
    the part of it that is images, `text_chars` how much text the page has. A full-page image under a
    lot of text is a scan with a text layer or a background: the text carries the page (2).
    """
    if figure_area < MIN_FIGURE_AREA:
        return 1
    if image_area >= FULL_PAGE_AREA and text_chars >= SCAN_TEXT_CHARS:
        return 2
    if figure_area >= 0.55:
        score = 5
    elif figure_area >= 0.35:
        score = 4
    elif figure_area >= 0.15:
        score = 3
    else:
        score = 2
    if text_chars >= DENSE_TEXT_CHARS:
        score -= 1
    elif text_chars < SPARSE_TEXT_CHARS and figure_area >= 0.15:
        score += 1
    return max(1, min(5, score))
