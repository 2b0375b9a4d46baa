"""The schema as ordered migration steps, tracked by `PRAGMA user_version`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

INDEX_VERSION = 1
"""Version of the extraction and chunking pipeline; books indexed by an older one can be reindexed."""

_V1_CORE = """
CREATE TABLE books (
    id            TEXT PRIMARY KEY,
    title         TEXT NOT NULL,
    author        TEXT NOT NULL DEFAULT '',
    language      TEXT NOT NULL DEFAULT '',
    format        TEXT NOT NULL,
    source_path   TEXT NOT NULL,
    file_size     INTEGER NOT NULL DEFAULT 0,
    page_count    INTEGER NOT NULL,
    current_page  INTEGER NOT NULL DEFAULT 1,
    pagination    TEXT NOT NULL DEFAULT 'synthetic',
    index_version INTEGER NOT NULL,
    warnings      TEXT NOT NULL DEFAULT '[]',
    imported_at   TEXT NOT NULL,
    last_read_at  TEXT
);
CREATE TABLE pages (
    book_id    TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
    number     INTEGER NOT NULL,
    label      TEXT NOT NULL,
    char_count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (book_id, number)
) WITHOUT ROWID;
CREATE INDEX pages_by_label ON pages(book_id, label);
CREATE TABLE chapters (
    book_id    TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
    idx        INTEGER NOT NULL,
    title      TEXT NOT NULL,
    start_page INTEGER NOT NULL,
    end_page   INTEGER NOT NULL,
    level      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (book_id, idx)
) WITHOUT ROWID;
CREATE TABLE chunks (
    rowid       INTEGER PRIMARY KEY,
    id          TEXT NOT NULL UNIQUE,
    book_id     TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
    chunk_index INTEGER NOT NULL,
    start_page  INTEGER NOT NULL,
    end_page    INTEGER NOT NULL,
    continues   INTEGER NOT NULL DEFAULT 0,
    text        TEXT NOT NULL
);
CREATE INDEX chunks_by_page ON chunks(book_id, start_page, end_page);
CREATE VIRTUAL TABLE chunks_fts USING fts5(
    text, content='chunks', content_rowid='rowid', tokenize='porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE chunks_vocab USING fts5vocab(chunks_fts, 'row');
CREATE TRIGGER chunks_ai AFTER INSERT ON chunks BEGIN
    INSERT INTO chunks_fts(rowid, text) VALUES (new.rowid, new.text);
END;
CREATE TRIGGER chunks_ad AFTER DELETE ON chunks BEGIN
    INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
END;
CREATE TRIGGER chunks_au AFTER UPDATE OF text ON chunks BEGIN
    INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
    INSERT INTO chunks_fts(rowid, text) VALUES (new.rowid, new.text);
END;
"""

_V2_EMBEDDINGS_AND_CHAT = """
CREATE TABLE embedding_spaces (
    table_name TEXT PRIMARY KEY,
    model      TEXT NOT NULL,
    dimension  INTEGER NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE book_embeddings (
    book_id    TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
    table_name TEXT NOT NULL REFERENCES embedding_spaces(table_name),
    model      TEXT NOT NULL,
    dimension  INTEGER NOT NULL,
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (book_id, table_name)
) WITHOUT ROWID;
CREATE TABLE conversations (
    id         INTEGER PRIMARY KEY,
    book_id    TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
    title      TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX conversations_by_book ON conversations(book_id, updated_at);
CREATE TABLE messages (
    id              INTEGER PRIMARY KEY,
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    role            TEXT NOT NULL,
    content         TEXT NOT NULL DEFAULT '',
    tool_calls      TEXT,
    tool_call_id    TEXT,
    name            TEXT,
    status          TEXT NOT NULL DEFAULT 'complete',
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f', 'now'))
);
CREATE INDEX messages_by_conversation ON messages(conversation_id, id);
CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
"""


_V3_MESSAGE_HORIZON = """
ALTER TABLE messages ADD COLUMN horizon INTEGER;
"""


def _script(sql: str) -> Callable[[Any], None]:
    def step(conn: Any) -> None:
        for statement in _split_statements(sql):
            conn.execute(statement)

    return step


def _split_statements(sql: str) -> list[str]:
    """Split a migration script on `;` line ends, keeping trigger bodies whole."""
    statements, current = [], []
    for line in sql.strip().splitlines():
        current.append(line)
        joined = "\n".join(current).strip()
        if joined.endswith(";") and (
            not joined.upper().startswith("CREATE TRIGGER") or joined.endswith("END;")
        ):
            statements.append(joined)
            current = []
    if "".join(current).strip():
        statements.append("\n".join(current))
    return statements


MIGRATIONS: list[Callable[[Any], None]] = [
    _script(_V1_CORE),
    _script(_V2_EMBEDDINGS_AND_CHAT),
    _script(_V3_MESSAGE_HORIZON),
]
"""MIGRATIONS[i] brings a database from user_version i to i + 1."""

SCHEMA_VERSION = len(MIGRATIONS)


def migrate(conn: Any, target: int = SCHEMA_VERSION) -> int:
    """Apply every pending step up to `target`, each in its own transaction; return the version."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        from reader.domain.errors import ReaderError

        raise ReaderError(
            f"The library file has schema version {version}, newer than this reader ({SCHEMA_VERSION}); "
            "upgrade reader."
        )
    while version < target:
        conn.execute("BEGIN IMMEDIATE")
        try:
            current = conn.execute("PRAGMA user_version").fetchone()[0]
            if current != version:  # another process migrated meanwhile
                conn.execute("COMMIT")
                version = current
                continue
            MIGRATIONS[version](conn)
            conn.execute(f"PRAGMA user_version = {version + 1}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        version += 1
    return version
