"""`reader stats`: time read, pages per day over the last weeks, books finished (nothing leaves the machine)."""

from __future__ import annotations

import argparse
from datetime import date, timedelta
from typing import Any

from reader.app.notes.reading_pace import format_minutes
from reader.app.notes.reading_stats import day_chart, finished_date, reading_stats
from reader.cli.output import json_line
from reader.services import Services


def register(commands: Any) -> None:
    p = commands.add_parser(
        "stats", help="your reading: time read, pages per day, books finished (local only)"
    )
    p.add_argument("book", nargs="?", metavar="BOOK", help="one book (default: every book)")
    p.add_argument("--weeks", type=int, default=4, help="weeks of pages per day to plot (default 4)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=stats_command)


def stats_command(args: argparse.Namespace, services: Services) -> int:
    book = services.find_book(args.book) if args.book else None
    log = services.reading_time.log.days(book.id if book else None)
    books = [book] if book else services.books.list()
    today = date.today()
    weeks = max(1, min(args.weeks, 52))
    stats = reading_stats(log, books, today, weeks, services.reading_time.log.finished())
    if args.json:
        json_line(
            {
                "book_id": book.id if book else None,
                "seconds": round(stats.seconds),
                "pages": stats.pages,
                "words": stats.words,
                "words_per_minute": round(services.reading_time.pace().wpm),
                "pages_per_day": {day.isoformat(): pages for day, pages in stats.days},
                "finished": [
                    {
                        "id": b.id,
                        "title": b.title,
                        "finished_on": stats.finished_on.get(b.id),
                        "last_read_at": b.last_read_at,
                    }
                    for b in stats.finished
                ],
            }
        )
        return 0
    print(book.title if book else "All books")
    minutes = stats.seconds / 60
    print(
        f"  time read  {format_minutes(minutes) if minutes else 'none yet'} ({stats.pages} pages, {stats.words:,} words)"
    )
    print(f"  pace       {round(services.reading_time.pace().wpm)} words a minute")
    recent = sum(pages for _, pages in stats.days)
    print(
        f"  last {weeks} weeks: {recent} pages, {recent / (weeks * 7):.1f} a day (most in a day: {max(p for _, p in stats.days)})"
    )
    for line in day_chart(stats.days):
        print(f"    {line}")
    def when(finished: Any) -> str:
        day = stats.finished_on.get(finished.id)
        return f"on {finished_date(day)}" if day else "yes"

    if book:
        print(f"  finished   {when(stats.finished[0]) if stats.finished else 'not yet'}")
    else:
        print(f"  finished   {len(stats.finished)} book{'s' * (len(stats.finished) != 1)}")
        for finished in stats.finished:
            day = stats.finished_on.get(finished.id)
            print(f"             {finished.title}" + (f"  ({finished_date(day)})" if day else ""))
    since = (today - timedelta(days=weeks * 7 - 1)).strftime("%b %d")
    print(
        f"  (pages per day since {since}; reading time counts pages turned at a reading pace, nothing leaves this machine)"
    )
    return 0
