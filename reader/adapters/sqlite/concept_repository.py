"""Concept maps in the library file; every read is limited to a page (the spoiler horizon)."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the records are built only where read: writing a book (import) does not load them
    from reader.domain.knowledge import ConceptEntry, ConceptHistory, ConceptName, ExtractedConcept


def next_concept_id(conn: Any) -> int:
    """An id above every concept's in the library."""
    return int(conn.execute("SELECT coalesce(max(id), 0) + 1 FROM concepts").fetchone()[0])


def write_concepts(
    conn: Any, book_id: str, concepts: Sequence[ExtractedConcept], first_id: int | None = None
) -> None:
    """Store a book's concept map inside the caller's transaction (the book's rows are already there).

    A map written again takes ids from `first_id` (`next_concept_id` read before the old map was deleted),
    so that no id of the old map comes back and `SqliteConceptRepository.revision` changes."""
    for number, concept in enumerate(concepts):
        cursor = conn.execute(
            "INSERT INTO concepts (id, book_id, name, kind, first_page) VALUES (?, ?, ?, ?, ?)",
            (None if first_id is None else first_id + number, book_id, concept.name, concept.kind, concept.first_page),
        )
        concept_id = cursor.lastrowid
        conn.executemany(
            "INSERT INTO concept_aliases (concept_id, alias, first_page, preference) VALUES (?, ?, ?, ?)",
            [(concept_id, alias.text, alias.first_page, alias.preference) for alias in concept.aliases],
        )
        rows, running = [], 0
        for ordinal, (page, count) in enumerate(concept.mentions, start=1):
            running += count
            rows.append((concept_id, page, count, running, ordinal))
        conn.executemany(
            "INSERT INTO concept_mentions (concept_id, page, count, running_count, running_pages) "
            "VALUES (?, ?, ?, ?, ?)",
            rows,
        )


class SqliteConceptRepository:
    """Reads a book's concept map as it stands at a page."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def count(self, book_id: str) -> int:
        """How many concepts the whole map holds (0 for a book imported before concept maps)."""
        row = self.conn.execute("SELECT count(*) FROM concepts WHERE book_id = ?", (book_id,)).fetchone()
        return int(row[0])

    def visible(self, book_id: str, current_page: int) -> builtins.list[ConceptEntry]:
        """Every concept met by `current_page`, with counts and names up to it, most mentioned first."""
        from reader.domain.knowledge import ConceptEntry

        rows = self.conn.execute(
            "SELECT c.id, c.name, c.kind, c.first_page, m.running_count, m.running_pages, m.page "
            "FROM concepts c JOIN concept_mentions m ON m.concept_id = c.id AND m.page = ("
            "  SELECT max(page) FROM concept_mentions WHERE concept_id = c.id AND page <= ?) "
            "WHERE c.book_id = ? AND c.first_page <= ?",
            (current_page, book_id, current_page),
        ).fetchall()
        aliases = self._aliases(book_id, current_page)
        entries = []
        for concept_id, name, kind, first_page, mentions, pages, last_page in rows:
            names = aliases.get(concept_id, [])
            shown = names[0] if names else name
            entries.append(
                ConceptEntry(
                    concept_id,
                    shown,
                    kind,
                    first_page,
                    int(mentions),
                    int(pages),
                    int(last_page),
                    tuple(n for n in names if n != shown),
                )
            )
        entries.sort(key=lambda e: (-e.mentions, e.first_page, e.name))
        return entries

    def _aliases(self, book_id: str, current_page: int) -> dict[int, builtins.list[str]]:
        rows = self.conn.execute(
            "SELECT a.concept_id, a.alias FROM concept_aliases a JOIN concepts c ON c.id = a.concept_id "
            "WHERE c.book_id = ? AND a.first_page <= ? ORDER BY a.concept_id, a.preference, a.first_page",
            (book_id, current_page),
        ).fetchall()
        found: dict[int, builtins.list[str]] = {}
        for concept_id, alias in rows:
            found.setdefault(concept_id, []).append(alias)
        return found

    def mentions(self, concept_id: int, current_page: int) -> builtins.list[tuple[int, int]]:
        """(page, count) of each page up to `current_page` that mentions the concept."""
        rows = self.conn.execute(
            "SELECT page, count FROM concept_mentions WHERE concept_id = ? AND page <= ? ORDER BY page",
            (concept_id, current_page),
        ).fetchall()
        return [(int(page), int(count)) for page, count in rows]

    def shared_pages(self, book_id: str, concept_id: int, current_page: int) -> dict[int, int]:
        """For each other concept, how many pages up to `current_page` it shares with this one."""
        # count per concept first, then keep this book's: the page index also holds other books'
        # mentions, and checking each joined row's book cost a third of the query
        rows = self.conn.execute(
            "SELECT shared.concept_id, shared.pages FROM ("
            "  SELECT other.concept_id, count(*) AS pages FROM concept_mentions mine "
            "  JOIN concept_mentions other ON other.page = mine.page AND other.concept_id != mine.concept_id "
            "  WHERE mine.concept_id = ? AND mine.page <= ? GROUP BY other.concept_id"
            ") AS shared JOIN concepts c ON c.id = shared.concept_id WHERE c.book_id = ?",
            (concept_id, current_page, book_id),
        ).fetchall()
        return {int(other): int(shared) for other, shared in rows}

    def names(self, book_id: str) -> builtins.list[ConceptName]:
        """Every alias of every concept of the book with its first page and its concept's."""
        from reader.domain.knowledge import ConceptName

        rows = self.conn.execute(
            "SELECT c.id, c.kind, c.first_page, a.alias, a.first_page FROM concept_aliases a "
            "JOIN concepts c ON c.id = a.concept_id WHERE c.book_id = ? ORDER BY c.first_page, c.id",
            (book_id,),
        ).fetchall()
        return [ConceptName(int(r[0]), r[1], int(r[2]), r[3], int(r[4])) for r in rows]

    def histories(self, book_id: str) -> builtins.list[ConceptHistory]:
        """Every concept of the book with its mentions and names by page, in id order (see `visible`)."""
        from reader.domain.knowledge import ConceptHistory

        mentions: dict[int, builtins.list[tuple[int, int, int]]] = {}
        for concept_id, page, running_count, running_pages in self.conn.execute(
            "SELECT m.concept_id, m.page, m.running_count, m.running_pages FROM concepts c "
            "JOIN concept_mentions m ON m.concept_id = c.id WHERE c.book_id = ? ORDER BY m.concept_id, m.page",
            (book_id,),
        ):
            mentions.setdefault(concept_id, []).append((int(page), int(running_count), int(running_pages)))
        aliases: dict[int, builtins.list[tuple[int, str]]] = {}
        for concept_id, alias, first_page in self.conn.execute(
            # the order `_aliases` reads them in (the first is the name shown)
            "SELECT a.concept_id, a.alias, a.first_page FROM concept_aliases a JOIN concepts c ON c.id = a.concept_id "
            "WHERE c.book_id = ? ORDER BY a.concept_id, a.preference, a.first_page",
            (book_id,),
        ):
            aliases.setdefault(concept_id, []).append((int(first_page), alias))
        rows = self.conn.execute(
            "SELECT id, name, kind, first_page FROM concepts WHERE book_id = ? ORDER BY id", (book_id,)
        ).fetchall()
        out = []
        for concept_id, name, kind, first_page in rows:
            pages = mentions.get(concept_id, [])
            out.append(
                ConceptHistory(
                    concept_id,
                    name,
                    kind,
                    int(first_page),
                    tuple(p for p, _, _ in pages),
                    tuple(c for _, c, _ in pages),
                    tuple(n for _, _, n in pages),
                    tuple(aliases.get(concept_id, ())),
                )
            )
        return out

    def revision(self, book_id: str) -> tuple[int, ...]:
        """The concepts' count and highest id: a map written again has new ids (`write_concepts`), higher
        than the old ones, or none (0.1 ms on War and Peace's 505 concepts)."""
        row = self.conn.execute(
            "SELECT count(*), coalesce(max(id), 0) FROM concepts WHERE book_id = ?", (book_id,)
        ).fetchone()
        return int(row[0]), int(row[1])
