"""find_story_pages: which pages of a book are the story, and which are front or back matter."""

from __future__ import annotations

from reader.app.pages.story_pages import SHORT_PAGE, find_story_pages
from reader.domain.models import Chapter

PROSE = (
    "The keeper climbed the stair each night and trimmed the wick by the light of the harbour. Salt fog "
    "pressed at the glass while the bell rang over the cold grey water below the cliff. "
) * 6


def chapters_at(*starts: int, count: int) -> list[Chapter]:
    """Chapters "CHAPTER I", "CHAPTER II", ... starting on `starts`, the last ending on page `count`."""
    romans = ["I", "II", "III", "IV", "V"]
    ends = [*(s - 1 for s in starts[1:]), count]
    return [
        Chapter(i, f"CHAPTER {romans[i]}. Part {i + 1}", start, end)
        for i, (start, end) in enumerate(zip(starts, ends, strict=True))
    ]


def chapter_page(number: int) -> str:
    return f"CHAPTER {['I', 'II', 'III'][number - 1]}. Part {number}\n\n{PROSE}"


def test_prose_before_the_first_chapter_is_story() -> None:
    assert len(PROSE) >= SHORT_PAGE
    pages = [
        f"It was a dark night on the coast.\n\n{PROSE}",
        chapter_page(1),
        chapter_page(2),
        chapter_page(3),
    ]
    story = find_story_pages(pages, chapters_at(2, 3, 4, count=4), "The Keeper")
    assert (story.first, story.last) == (1, 4)
    assert story.texts == tuple(pages)


def test_a_title_page_and_a_contents_page_before_the_first_chapter_are_front_matter() -> None:
    contents = "Contents\n\nCHAPTER I. Part 1\n\nCHAPTER II. Part 2\n\nCHAPTER III. Part 3"
    pages = ["THE KEEPER\n\nby Ann Author", contents, chapter_page(1), chapter_page(2), chapter_page(3)]
    story = find_story_pages(pages, chapters_at(3, 4, 5, count=5), "The Keeper")
    assert (story.first, story.last) == (3, 5)
    assert story.texts[:2] == ("", "") and story.texts[2:] == tuple(pages[2:])


def test_an_index_after_the_last_chapter_is_back_matter() -> None:
    pages = [chapter_page(1), chapter_page(2), chapter_page(3), PROSE, "INDEX\n\nBell, the, 2, 3\n\nCliff, 1"]
    story = find_story_pages(pages, chapters_at(1, 2, 3, count=5), "The Keeper")
    assert (story.first, story.last) == (1, 4)
    assert story.texts[4] == ""


def test_a_book_without_markers_or_chapters_is_all_story() -> None:
    pages = [PROSE, "A short page.", PROSE, "The last words."]
    story = find_story_pages(pages, [], "Plain")
    assert (story.first, story.last) == (1, 4)
    assert story.texts == tuple(pages)


def test_gutenberg_markers_cut_the_header_and_licence_even_mid_page() -> None:
    pages = [
        "The Project Gutenberg eBook of The Keeper\n\n*** START OF THE PROJECT GUTENBERG EBOOK THE KEEPER ***"
        f"\n\n{PROSE}",
        PROSE,
        f"{PROSE}\n\n*** END OF THE PROJECT GUTENBERG EBOOK THE KEEPER ***\n\nThe Full Project Gutenberg License",
        "Section 1. The Project Gutenberg Literary Archive Foundation ...",
    ]
    story = find_story_pages(pages, [], "The Keeper")
    assert (story.first, story.last) == (1, 3)
    assert "Gutenberg" not in "".join(story.texts)
    assert story.texts[0].strip() == PROSE.strip() and story.texts[2].strip() == PROSE.strip()


def test_a_book_that_seems_all_matter_is_kept_whole() -> None:
    pages = ["*** START OF THE PROJECT GUTENBERG EBOOK X ***", "*** END OF THE PROJECT GUTENBERG EBOOK X ***"]
    story = find_story_pages(pages, [], "X")
    assert (story.first, story.last) == (1, 2)


def test_a_subtitle_named_in_the_contents_is_front_matter_like_the_title() -> None:
    contents = "CONTENTS\n\n I Introduction\n II The Machine\n III The Return"
    pages = ["MOBY-DICK; or, THE WHALE.", "An Invention\n\nby H. G. Wells", contents]
    pages += [f"{n}.\n\n{title}\n\n{PROSE}" for n, title in (("I", "Introduction"), ("II", "The Machine"), ("III", "The Return"))]
    chapters = [
        Chapter(0, "MOBY-DICK; or, THE WHALE.", 1, 1),
        Chapter(1, "An Invention", 2, 2),
        Chapter(2, "CONTENTS", 3, 3),
        Chapter(3, "I. Introduction", 4, 4),
        Chapter(4, "II. The Machine", 5, 5),
        Chapter(5, "III. The Return", 6, 6),
    ]
    story = find_story_pages(pages, chapters, "Moby Dick; Or, The Whale")
    assert (story.first, story.last) == (4, 6)
