"""Reading a book's structure back: chapter forms, part naming, the shield's "later chapter", book lookup.

Books: every book in ../shared/books and ../shared/books/wide (or --books DIR), imported into a
temporary library with the extractors of this checkout. Books are split by their place in the sorted
list into a tuning half (even) and a checking half (odd); the figures are given for each half.

Per book, over its contents entries:
- name round trip: the name the header shows for an entry (`chapter_name`: "BOOK TEN: 1812 › CHAPTER
  III" where numbering restarts) typed into `g` leads back to that entry's first page;
- number in the part: "Chapter N" typed on an entry's first page leads to that entry (the reader's part
  is preferred when every part restarts at 1);
- shield, no false "later": at every entry's first page, an answer citing "Chapter N" for an N that a
  chapter at or before the page has is never held back; the share of such citations held is reported
  (target 0), and citations of an N no chapter up to the page has are held (reported as caught);
- book lookup: the first five letters of each title and author word of 5+ letters ("franken",
  "tolst") name the book, or list it among the candidates when several books have such a word.

Usage: python benchmarks/chapter_forms.py [--books DIR ...]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SHARED = Path(os.environ.get("READER_SHARED", Path(__file__).resolve().parents[2] / "shared"))
SUFFIXES = (".txt", ".epub", ".pdf", ".html")


def book_files(folders: list[Path]) -> list[Path]:
    return sorted(p for folder in folders for p in folder.iterdir() if p.suffix in SUFFIXES)


def chapter_figures(services: Any, book: Any) -> Counter[str]:
    """Round trips and shield checks over one book's contents."""
    from reader.app.pages.chapter_lookup import CHAPTER, chapter_name, find_chapter, numbered, own_number
    from reader.app.pages.page_lookup import resolve_page
    from reader.app.shield.spoiler_shield import verdict

    chapters = services.books.chapters(book.id)
    pages = services.books.pages(book.id)
    counts: Counter[str] = Counter()
    for position, chapter in enumerate(chapters):
        here = chapter.start_page
        name = chapter_name(chapters, position)
        counts["entries"] += 1
        try:
            target = resolve_page(name, pages, chapters, allow_chapters=True, current_page=here)
        except Exception:  # noqa: BLE001 - a miss is counted, not raised
            target = None
        counts["name_ok"] += target == here
        number = own_number(chapter.title)
        if number is None or number[0] != CHAPTER:
            continue
        counts["numbered"] += 1
        choice = find_chapter(f"Chapter {number[1]}", chapters, here)
        counts["number_ok"] += choice is not None and choice.chapter.start_page == here
        counts["restarting"] += len(numbered(CHAPTER, number[1], chapters)) > 1
    numbers = sorted({n[1] for c in chapters if (n := own_number(c.title)) and n[0] == CHAPTER})
    for chapter in chapters[:: max(1, len(chapters) // 40)]:  # up to ~40 horizons a book
        horizon = chapter.start_page
        index = services._summary_shield(book, horizon)  # the rules the chat and recaps use
        if index is None:
            continue
        reached = {
            n[1]
            for c in chapters
            if c.start_page <= horizon and (n := own_number(c.title)) and n[0] == CHAPTER
        }
        for n in numbers:
            held = verdict(index, "", f"That happens in Chapter {n}, as the book tells it.").held
            if n in reached:
                counts["cited_read"] += 1
                counts["false_later"] += held
            else:
                counts["cited_later"] += 1
                counts["later_caught"] += held
    return counts


def lookup_figures(books: list[Any]) -> dict[str, Counter[str]]:
    """Word-beginning queries for each book: named alone, listed among candidates, or missed."""
    from reader.app.library.book_lookup import find_book
    from reader.app.text.title_match import plain_words
    from reader.domain.errors import AmbiguousBookError, ReaderError

    figures: dict[str, Counter[str]] = {}
    for book in books:
        counts: Counter[str] = Counter()
        for word in dict.fromkeys(plain_words(f"{book.title} {book.author}")):
            if len(word) < 5:
                continue
            query = word[:5]
            counts["queries"] += 1
            try:
                counts["alone"] += find_book(query, books).id == book.id
            except AmbiguousBookError as error:
                counts["listed"] += any(line.startswith(book.short_id) for line in error.candidates)
            except ReaderError:
                counts["missed"] += 1
        figures[book.id] = counts
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--books", type=Path, nargs="*", default=[SHARED / "books", SHARED / "books" / "wide"]
    )
    args = parser.parse_args()
    files = book_files(args.books)
    with tempfile.TemporaryDirectory() as folder:
        os.environ["READER_DB"] = str(Path(folder) / "library.db")
        from reader.services import Services

        services = Services.open()
        imported = []
        for path in files:
            outcome = services.importer.import_file(path)
            if outcome.book is None:
                print(f"{path.name}: {outcome.message}")
                continue
            imported.append((path, outcome.book))
        lookups = lookup_figures([book for _, book in imported])
        halves: dict[str, Counter[str]] = {"tuning": Counter(), "checking": Counter()}
        started = time.perf_counter()
        for place, (path, book) in enumerate(imported):
            counts = chapter_figures(services, book) + lookups[book.id]
            halves["tuning" if place % 2 == 0 else "checking"] += counts
            print(
                f"{path.name:48} entries {counts['entries']:4}  names {counts['name_ok']:4}  "
                f"numbered {counts['numbered']:4} (restarting {counts['restarting']:4}) ok {counts['number_ok']:4}  "
                f"false later {counts['false_later']}/{counts['cited_read']}  "
                f"lookup {counts['alone']}+{counts['listed']}/{counts['queries']}"
            )
        seconds = time.perf_counter() - started
        services.close()
    print()
    for half, c in halves.items():
        print(
            f"{half:8}: name round trip {c['name_ok']}/{c['entries']} ({pct(c['name_ok'], c['entries'])}); "
            f"'Chapter N' on its page {c['number_ok']}/{c['numbered']} ({pct(c['number_ok'], c['numbered'])}); "
            f"shield held a read chapter {c['false_later']}/{c['cited_read']} "
            f"({pct(c['false_later'], c['cited_read'])}), a later one {c['later_caught']}/{c['cited_later']}; "
            f"lookup alone {c['alone']}, listed {c['listed']}, missed {c['queries'] - c['alone'] - c['listed']} "
            f"of {c['queries']}"
        )
    print(f"checks took {seconds:.1f} s")


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


if __name__ == "__main__":
    main()
