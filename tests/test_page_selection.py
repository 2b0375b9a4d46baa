"""Visual mode's selection: wrapped lines as offsets, moved by words and lines."""

from __future__ import annotations

from textual.content import Content

from reader.tui.page_selection import (
    PageLines,
    Selection,
    first_line_selection,
    line_down,
    line_up,
    word_back,
    word_forward,
)

TEXT = "The keeper climbed the stair each night.\n\nThe gull watched from the rock below the lamp."


def lines(width: int = 20) -> PageLines:
    return PageLines.from_lines(TEXT, [line.plain for line in Content(TEXT).wrap(width)])


def test_wrapped_lines_map_to_offsets_in_the_text() -> None:
    page = lines()
    for start, end in zip(page.starts, page.ends, strict=True):
        assert TEXT[start:end] == TEXT[start:end].strip()
    assert TEXT[page.starts[0] : page.ends[0]] == "The keeper climbed"
    assert page.line_of(page.starts[1]) == 1
    assert page.offset_at(1, 3) == page.starts[1] + 3


def test_visual_mode_starts_with_the_first_line_and_moves_by_words_and_lines() -> None:
    page = lines()
    selection = first_line_selection(page, 0)
    assert selection is not None and TEXT[selection.start : selection.end] == "The keeper climbed"
    selection = word_forward(selection, TEXT)
    assert TEXT[selection.start : selection.end] == "The keeper climbed the"
    selection = word_back(word_back(selection, TEXT), TEXT)
    assert TEXT[selection.start : selection.end] == "The keeper"
    selection = line_down(selection, page)
    assert TEXT[selection.start : selection.end] == "The keeper climbed the stair each"
    selection = line_down(selection, page)  # skips the blank line between paragraphs
    assert TEXT[selection.start : selection.end].endswith("night.")
    selection = line_down(selection, page)
    assert TEXT[selection.start : selection.end].endswith("The gull watched")
    selection = line_up(line_up(selection, page), page)
    assert TEXT[selection.start : selection.end] == "The keeper climbed the stair each"


def test_the_other_end_moves_after_a_swap_and_the_cursor_may_cross_the_anchor() -> None:
    page = lines()
    selection = first_line_selection(page, 1)
    assert selection is not None
    swapped = word_forward(selection.swapped(), TEXT)
    assert TEXT[swapped.start : swapped.end] == "stair each"
    back = word_back(Selection(swapped.anchor, swapped.anchor), TEXT)
    assert back.cursor < back.anchor  # extends to the left of the anchor
