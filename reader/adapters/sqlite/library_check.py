"""`reader check`: is the library file sound, and is everything derived from the books' pages in step?

What is checked: SQLite's integrity check; rows that point to a book (or a concept, a conversation)
that is gone; each book's pages against its page count; the full-text indexes against the text they
index; the vectors against the chunks they were made from.

`repair` rebuilds only what is derived from the pages: indexes (REINDEX), the full-text indexes,
orphaned derived rows, stale vectors (a book missing some is marked for `reader embed` again). The
reader's own data (reading positions, bookmarks, highlights, notes, conversations, the reading log,
settings) is never written; orphans among it are reported and kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from reader.adapters.sqlite.connection import DatabaseError
from reader.adapters.sqlite.storage_errors import storage_kind
from reader.adapters.sqlite.transaction import transaction
from reader.domain.errors import StorageError

READER_OWN = frozenset(
    (
        "books",
        "conversations",
        "messages",
        "settings",
        "bookmarks",
        "annotations",
        "reading_log",
        "finished_books",
    )
)
"""Tables holding the reader's own data: check reports on them, repair never writes them."""
MARK_TABLES = (
    ("bookmarks", "bookmark", "bookmarks"),
    ("annotations", "highlight or note", "highlights and notes"),
    ("reading_log", "day of reading time", "days of reading time"),
)
"""The reader's tables without a foreign key to books: (table, one row, many rows)."""
FTS_TABLES = (
    ("chunks_fts", "the full-text index of the text"),
    ("page_enrichments_fts", "the full-text index of page enrichments"),
)
MAX_SHOWN = 5


@dataclass
class Finding:
    """One problem: what is wrong, and what `--repair` does about it ("" when it cannot)."""

    problem: str
    repair: str = ""
    repaired: bool = False


@dataclass
class CheckReport:
    """What `check` found; `kept` notes the reader's own rows that point nowhere (never removed)."""

    books: int = 0
    findings: list[Finding] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(finding.repaired for finding in self.findings)


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


class LibraryCheck:
    """Checks (and repairs what is derived in) one library connection."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def run(self, repair: bool = False) -> CheckReport:
        """Check the library; with `repair`, rebuild what is derived and check again what was fixed."""
        report = CheckReport(books=self.conn.execute("SELECT count(*) FROM books").fetchone()[0])
        integrity = self._integrity()
        index_only = bool(integrity) and all(_index_problem(line) for line in integrity)
        if integrity:
            shown = "; ".join(integrity[:MAX_SHOWN])
            report.findings.append(
                Finding(
                    f"SQLite's integrity check failed: {shown}",
                    "rebuild the indexes (REINDEX)" if index_only else "",
                )
            )
        if integrity and not index_only:
            return report  # a damaged file: further checks read broken pages; restore a copy
        orphans = self._orphans()
        for table, (count, parent) in orphans.items():
            what = f"{_plural(count, 'row', 'rows')} of {table} point to no {parent}"
            if table in READER_OWN:
                report.kept.append(f"{what} (the reader's own: kept)")
            else:
                report.findings.append(Finding(what, f"delete them from {table}"))
        report.kept.extend(self._orphan_marks())
        report.findings.extend(self._page_counts())
        fts = self._fts_out_of_step()
        for _, label in fts:
            report.findings.append(Finding(f"{label} is out of step with what it indexes", "rebuild it"))
        lost = self._lost_vector_tables()
        for table in lost:
            report.findings.append(
                Finding(
                    f"the vector table {table} is gone", "forget it, so that `reader embed` makes it again"
                )
            )
        stale, missing = self._vectors()
        for table, count in stale.items():
            report.findings.append(
                Finding(f"{_plural(count, 'vector', 'vectors')} in {table} belong to no chunk", "delete them")
            )
        for (table, book_id), count in missing.items():
            title = self._title(book_id)
            report.findings.append(
                Finding(
                    f"{title} lacks {_plural(count, 'vector', 'vectors')} in {table}",
                    "mark it for `reader embed`, which makes the missing ones",
                )
            )
        if repair and any(f.repair for f in report.findings):
            self._repair(index_only and bool(integrity), orphans, fts, stale, missing, lost)
            after = LibraryCheck(self.conn).run()
            fixed = {finding.problem for finding in after.findings}
            for finding in report.findings:
                finding.repaired = bool(finding.repair) and finding.problem not in fixed
        return report

    def _integrity(self) -> list[str]:
        try:
            rows = [row[0] for row in self.conn.execute("PRAGMA integrity_check").fetchall()]
        except (StorageError, DatabaseError) as error:  # so damaged that the check itself stops
            if storage_kind(error.__cause__ or error) != "damaged":
                raise
            return [f"the check stopped: {error.__cause__ or error}"]
        return [] if rows == ["ok"] else rows

    def _orphans(self) -> dict[str, tuple[int, str]]:
        """Table -> (rows whose foreign key points nowhere, the parent table)."""
        found: dict[str, tuple[int, str]] = {}
        for table, _rowid, parent, _fk in self.conn.execute("PRAGMA foreign_key_check").fetchall():
            count, _ = found.get(table, (0, parent))
            found[table] = (count + 1, parent)
        return found

    def _orphan_marks(self) -> list[str]:
        notes = []
        for table, one, many in MARK_TABLES:
            count = self.conn.execute(
                f"SELECT count(*) FROM {table} WHERE book_id NOT IN (SELECT id FROM books)"
            ).fetchone()[0]
            if count:
                notes.append(
                    f"{_plural(count, one, many)} belong to no book in the library (kept: they come back "
                    "when the book is imported again)"
                )
        return notes

    def _page_counts(self) -> list[Finding]:
        rows = self.conn.execute(
            "SELECT b.title, b.page_count, (SELECT count(*) FROM pages p WHERE p.book_id = b.id), "
            "(SELECT count(*) FROM chunks c WHERE c.book_id = b.id AND (c.start_page < 1 OR c.end_page > b.page_count)) "
            "FROM books b"
        ).fetchall()
        findings = []
        for title, count, pages, outside in rows:
            if pages != count or outside:
                findings.append(
                    Finding(
                        f"{title} has {pages} of its {count} pages"
                        + (f" and {_plural(outside, 'chunk', 'chunks')} outside them" if outside else "")
                        + f'; `reader reindex "{title}"` rebuilds it from its file'
                    )
                )
        return findings

    def _fts_out_of_step(self) -> list[tuple[str, str]]:
        bad = []
        for table, label in FTS_TABLES:
            try:
                self.conn.execute(f"INSERT INTO {table}({table}, rank) VALUES ('integrity-check', 1)")
            except Exception:  # noqa: BLE001 - SQLITE_CORRUPT_VTAB: the index and its content differ
                bad.append((table, label))
        return bad

    def _vectors(self) -> tuple[dict[str, int], dict[tuple[str, str], int]]:
        """Vectors whose chunk is gone or changed, per table; chunks of books marked embedded without a
        vector, per (table, book)."""
        stale: dict[str, int] = {}
        missing: dict[tuple[str, str], int] = {}
        tables = [row[0] for row in self.conn.execute("SELECT table_name FROM embedding_spaces").fetchall()]
        existing = {
            row[0] for row in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        for table in tables:
            if table not in existing:
                continue  # reported by _lost_vector_tables
            quoted = _quoted(table)
            count = self.conn.execute(
                f"SELECT count(*) FROM {quoted} v WHERE NOT EXISTS (SELECT 1 FROM chunks c "
                "WHERE c.rowid = v.rowid AND c.id = v.chunk_id AND c.book_id = v.book_id)"
            ).fetchone()[0]
            if count:
                stale[table] = count
            marked = self.conn.execute(
                "SELECT book_id FROM book_embeddings WHERE table_name = ?", (table,)
            ).fetchall()
            for (book_id,) in marked:
                have = {
                    r[0]
                    for r in self.conn.execute(f"SELECT rowid FROM {quoted} WHERE book_id = ?", (book_id,))
                }
                chunks = [
                    r[0] for r in self.conn.execute("SELECT rowid FROM chunks WHERE book_id = ?", (book_id,))
                ]
                lacking = sum(1 for rowid in chunks if rowid not in have)
                if lacking:
                    missing[(table, book_id)] = lacking
        return stale, missing

    def _lost_vector_tables(self) -> list[str]:
        """Embedding spaces whose vector table is gone."""
        existing = {
            row[0] for row in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        spaces = [row[0] for row in self.conn.execute("SELECT table_name FROM embedding_spaces").fetchall()]
        return [table for table in spaces if table not in existing]

    def _title(self, book_id: str) -> str:
        row = self.conn.execute("SELECT title FROM books WHERE id = ?", (book_id,)).fetchone()
        return row[0] if row else book_id[:12]

    def _repair(
        self,
        reindex: bool,
        orphans: dict[str, tuple[int, str]],
        fts: list[tuple[str, str]],
        stale: dict[str, int],
        missing: dict[tuple[str, str], int],
        lost: list[str],
    ) -> None:
        """Rebuild what is derived, in one transaction; the reader's own tables are never written."""
        conn = self.conn
        with transaction(conn):
            for table in lost:
                conn.execute("DELETE FROM book_embeddings WHERE table_name = ?", (table,))
                conn.execute("DELETE FROM embedding_spaces WHERE table_name = ?", (table,))
            if reindex:
                conn.execute("REINDEX")
            for table in orphans:
                if table in READER_OWN:
                    continue
                for _id, _seq, parent, column, parent_column, *_ in conn.execute(
                    f"PRAGMA foreign_key_list({_quoted(table)})"
                ).fetchall():
                    target = parent_column or "rowid"
                    conn.execute(
                        f"DELETE FROM {_quoted(table)} WHERE {_quoted(column)} IS NOT NULL AND "
                        f"{_quoted(column)} NOT IN (SELECT {_quoted(target)} FROM {_quoted(parent)})"
                    )
            for table, _ in fts:
                conn.execute(f"INSERT INTO {table}({table}) VALUES ('rebuild')")
            for table in stale:
                quoted = _quoted(table)
                rowids = [
                    row[0]
                    for row in conn.execute(
                        f"SELECT rowid FROM {quoted} v WHERE NOT EXISTS (SELECT 1 FROM chunks c "
                        "WHERE c.rowid = v.rowid AND c.id = v.chunk_id AND c.book_id = v.book_id)"
                    ).fetchall()
                ]
                for rowid in rowids:  # vec0 deletes by rowid only
                    conn.execute(f"DELETE FROM {quoted} WHERE rowid = ?", (rowid,))
            for table, book_id in missing:
                conn.execute(
                    "DELETE FROM book_embeddings WHERE table_name = ? AND book_id = ?", (table, book_id)
                )


def _index_problem(line: str) -> bool:
    """Whether an integrity_check line is about an index only (REINDEX rebuilds it from its table)."""
    lowered = line.lower()
    return ("index" in lowered and ("missing from index" in lowered or "wrong # of entries" in lowered)) or (
        lowered.startswith("non-unique entry in index")
    )
