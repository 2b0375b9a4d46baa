"""The schema as ordered migration steps, tracked by `PRAGMA user_version`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reader.adapters.sqlite.transaction import transaction

INDEX_VERSION = 6
"""Version of the extraction and chunking pipeline; books indexed by an older one can be reindexed.

2: concept maps and per-page visual measurements are made at import.
3: front and back matter (a publisher's header and licence) found and kept out of the concept map;
   names merged by what titles and honorifics mean.
4: plain-text "VOLUME I" headings are contents entries (parts over their chapters in recaps); XHTML
   without a declared encoding is decoded as text books are.
5: plain-text chapters from contents lists, numerals and division words in several languages, with
   levels; legacy code pages chosen by how the text reads; EPUB chapters open new pages, and headings
   stand in for navigation that names too little.
6: the pictures of EPUB, FB2 and HTML books (and their covers) are kept, placed where they stand.
"""

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


_V4_CONCEPTS_AND_SUMMARIES = """
CREATE TABLE concepts (
    id         INTEGER PRIMARY KEY,
    book_id    TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    kind       TEXT NOT NULL,
    first_page INTEGER NOT NULL,
    UNIQUE (book_id, name)
);
CREATE INDEX concepts_by_book ON concepts(book_id, first_page);
CREATE TABLE concept_aliases (
    concept_id INTEGER NOT NULL REFERENCES concepts(id) ON DELETE CASCADE,
    alias      TEXT NOT NULL,
    first_page INTEGER NOT NULL,
    preference INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (concept_id, alias)
) WITHOUT ROWID;
CREATE TABLE concept_mentions (
    concept_id INTEGER NOT NULL REFERENCES concepts(id) ON DELETE CASCADE,
    page       INTEGER NOT NULL,
    count      INTEGER NOT NULL,
    running_count INTEGER NOT NULL DEFAULT 0,
    running_pages INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (concept_id, page)
) WITHOUT ROWID;
CREATE INDEX concept_mentions_by_page ON concept_mentions(page, concept_id);
CREATE TABLE summaries (
    book_id        TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
    scope          TEXT NOT NULL,
    model          TEXT NOT NULL,
    prompt_version INTEGER NOT NULL,
    text_hash      TEXT NOT NULL,
    up_to_page     INTEGER NOT NULL,
    summary        TEXT NOT NULL,
    created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (book_id, scope, model, prompt_version, text_hash)
) WITHOUT ROWID;
"""
"""Concept maps (people, places, terms with aliases and per-page mentions) and cached summaries.

An alias's `preference` orders the names a concept may be shown by (0: its own name); the reader sees
the best one first used by their page. A mention row's `running_count` and `running_pages` are the
concept's mentions and pages up to and including that page, so counts at the reader's page are one
index lookup per concept.

`scope` is e.g. "chapter:3" or "recap"; `model` is a model id or "extractive"; `text_hash` hashes
the text summarised (so a mid-chapter summary up to the reader's page is its own entry).
"""

_V5_PAGE_VISUALS_AND_ENRICHMENT = """
ALTER TABLE pages ADD COLUMN image_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE pages ADD COLUMN image_area REAL NOT NULL DEFAULT 0;
ALTER TABLE pages ADD COLUMN drawing_area REAL NOT NULL DEFAULT 0;
ALTER TABLE pages ADD COLUMN visual_importance INTEGER NOT NULL DEFAULT 1;
CREATE TABLE page_enrichments (
    id                INTEGER PRIMARY KEY,
    book_id           TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
    page              INTEGER NOT NULL,
    schema_version    INTEGER NOT NULL,
    content_hash      TEXT NOT NULL,
    model             TEXT NOT NULL,
    data              TEXT NOT NULL,
    visual_importance INTEGER,
    search_text       TEXT NOT NULL DEFAULT '',
    created_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (book_id, page)
);
CREATE VIRTUAL TABLE page_enrichments_fts USING fts5(
    search_text, content='page_enrichments', content_rowid='id',
    tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER page_enrichments_ai AFTER INSERT ON page_enrichments BEGIN
    INSERT INTO page_enrichments_fts(rowid, search_text) VALUES (new.id, new.search_text);
END;
CREATE TRIGGER page_enrichments_ad AFTER DELETE ON page_enrichments BEGIN
    INSERT INTO page_enrichments_fts(page_enrichments_fts, rowid, search_text)
    VALUES ('delete', old.id, old.search_text);
END;
CREATE TRIGGER page_enrichments_au AFTER UPDATE OF search_text ON page_enrichments BEGIN
    INSERT INTO page_enrichments_fts(page_enrichments_fts, rowid, search_text)
    VALUES ('delete', old.id, old.search_text);
    INSERT INTO page_enrichments_fts(rowid, search_text) VALUES (new.id, new.search_text);
END;
CREATE TABLE enrichment_failures (
    id         INTEGER PRIMARY KEY,
    book_id    TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
    page       INTEGER NOT NULL,
    model      TEXT NOT NULL,
    error      TEXT NOT NULL,
    raw_output TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX enrichment_failures_by_page ON enrichment_failures(book_id, page);
"""
"""Per-page visual measurements made at import (image_area and drawing_area are fractions of the page,
visual_importance 1-5) and model-made page enrichments (validated JSON; `search_text` is the summary and
figure descriptions, full-text indexed so search finds them) with the failures of that step."""

_V6_STORY_PAGES_AND_ENCODING = """
ALTER TABLE books ADD COLUMN story_start INTEGER NOT NULL DEFAULT 1;
ALTER TABLE books ADD COLUMN story_end INTEGER;
ALTER TABLE books ADD COLUMN encoding TEXT NOT NULL DEFAULT '';
"""
"""The story's page range (the pages outside it are front or back matter; NULL story_end: the last
page) and the encoding a text book was decoded from. Books imported before keep the whole book as
story until `reader reindex` (their index_version is older)."""

_V7_CONCEPT_REFINEMENTS = """
CREATE TABLE concept_refinements (
    book_id        TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
    scope          TEXT NOT NULL,
    model          TEXT NOT NULL,
    prompt_version INTEGER NOT NULL,
    index_version  INTEGER NOT NULL,
    request_hash   TEXT NOT NULL,
    first_page     INTEGER NOT NULL,
    up_to_page     INTEGER NOT NULL,
    result         TEXT NOT NULL,
    created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f', 'now')),
    PRIMARY KEY (book_id, scope, model, prompt_version, index_version, request_hash)
) WITHOUT ROWID;
CREATE INDEX concept_refinements_by_page ON concept_refinements(book_id, model, up_to_page);
"""
"""The chat model's per-chapter refinement of a concept map (`reader xray --refine`): `result` is the
validated JSON {"groups": [[name, ...]], "kinds": [[name, kind]]} over names met by `up_to_page`;
`request_hash` hashes what the model was sent (a chapter read further is a new row)."""


_V8_BOOKMARKS_ANNOTATIONS_AND_READING_LOG = """
CREATE TABLE bookmarks (
    id         INTEGER PRIMARY KEY,
    book_id    TEXT NOT NULL,
    page       INTEGER NOT NULL,
    name       TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (book_id, page)
);
CREATE TABLE annotations (
    id         INTEGER PRIMARY KEY,
    book_id    TEXT NOT NULL,
    page       INTEGER NOT NULL,
    start      INTEGER NOT NULL,
    end        INTEGER NOT NULL,
    quote      TEXT NOT NULL,
    prefix     TEXT NOT NULL DEFAULT '',
    suffix     TEXT NOT NULL DEFAULT '',
    note       TEXT NOT NULL DEFAULT '',
    orphaned   INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX annotations_by_page ON annotations(book_id, page, start);
CREATE TABLE reading_log (
    book_id TEXT NOT NULL,
    day     TEXT NOT NULL,
    seconds REAL NOT NULL DEFAULT 0,
    pages   INTEGER NOT NULL DEFAULT 0,
    words   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (book_id, day)
) WITHOUT ROWID;
CREATE INDEX reading_log_by_day ON reading_log(day);
"""
"""The reader's bookmarks, highlights and notes (an annotation with an empty note is a highlight), and
reading time per book and local day (seconds on pages, pages turned, words read) for the pace and
`reader stats`.

These tables have no foreign key to books on purpose: a re-import or `reader reindex` replaces the book's
row (a cascade would drop them); removing a book deletes them explicitly. An annotation's page and
offsets are where its quote was last found; `orphaned` marks one whose quote a reindex could not find."""
_V9_HELD_BACK_ANSWERS = """
ALTER TABLE messages ADD COLUMN held_at INTEGER;
ALTER TABLE messages ADD COLUMN spoiler_page INTEGER;
ALTER TABLE messages ADD COLUMN revealed INTEGER NOT NULL DEFAULT 0;
"""
"""Answers the spoiler shield held back: `content` keeps the whole answer, `held_at` is where the held
part starts (NULL: nothing held), `spoiler_page` the reading position from which it spoils nothing,
`revealed` whether the reader asked to see it anyway."""

_V10_PAGE_TEXTS = """
CREATE TABLE page_texts (
    book_id    TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
    page       INTEGER NOT NULL,
    source     TEXT NOT NULL,
    text       TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (book_id, page)
) WITHOUT ROWID;
"""
"""Text recognised for pages that had no text layer: `source` says how ("ocr": local OCR). The page's
chunks hold the same text for search; this row marks it and lets a run skip the pages already done.
A re-import keeps those of pages that still have no text layer (`kept_page_texts`)."""



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


_V10_BOOKMARK_ANCHORS = """
ALTER TABLE bookmarks ADD COLUMN anchor TEXT NOT NULL DEFAULT '';
ALTER TABLE bookmarks ADD COLUMN orphaned INTEGER NOT NULL DEFAULT 0;
UPDATE bookmarks SET anchor = coalesce(
    (SELECT substr(c.text, 1, 80) FROM chunks c WHERE c.book_id = bookmarks.book_id
     AND c.start_page = bookmarks.page ORDER BY c.chunk_index LIMIT 1), '');
"""
"""Bookmarks found again by their page's text after a reindex: `anchor` is the start of the bookmarked
page's text (filled in here from the page's first chunk), `orphaned` marks one a reindex could not find."""


_V11_FINISHED_BOOKS = """
CREATE TABLE finished_books (
    book_id     TEXT PRIMARY KEY,
    finished_on TEXT NOT NULL
) WITHOUT ROWID;
INSERT INTO finished_books (book_id, finished_on)
    SELECT id, substr(coalesce(last_read_at, imported_at), 1, 10) FROM books
    WHERE current_page >= min(coalesce(story_end, page_count), page_count);
"""
"""The local date (YYYY-MM-DD) each book was first finished: the reading position reached the story's
last page. Books finished before this step get the date they were last read. No foreign key (a reindex
replaces the book's row); removing the book deletes it."""

_V12_BOOK_IMAGES = """
CREATE TABLE IF NOT EXISTS image_blobs (
    id         INTEGER PRIMARY KEY,
    book_id    TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
    hash       TEXT NOT NULL,
    media_type TEXT NOT NULL,
    width      INTEGER NOT NULL DEFAULT 0,
    height     INTEGER NOT NULL DEFAULT 0,
    data       BLOB NOT NULL,
    UNIQUE (book_id, hash)
);
CREATE TABLE IF NOT EXISTS page_images (
    id       INTEGER PRIMARY KEY,
    book_id  TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
    page     INTEGER NOT NULL,
    position INTEGER NOT NULL,
    blob_id  INTEGER REFERENCES image_blobs(id) ON DELETE CASCADE,
    alt      TEXT NOT NULL DEFAULT '',
    cover    INTEGER NOT NULL DEFAULT 0,
    whole_page INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS page_images_by_page ON page_images(book_id, page);
"""
"""The pictures of a book: `image_blobs` holds each distinct picture once per book (`hash` of its bytes,
the pixels its header declares, 0 when unreadable), `page_images` where each stands: its page (0: a
cover on no page), `position` the character of the page's text it comes before, its alt text, and
whether it is the cover, or the whole page (comics, fixed-layout EPUBs of images: the viewer shows it
and OCR reads it without the book's file). A NULL blob_id is a picture the book lacks: its alt text
stands in its place."""


def _words(text: str) -> str:
    """SQL counting the words of `text` (a column) as the spaces and line breaks between them, a paragraph
    break once: within a few words in a thousand of `len(text.split())`, and no text read into Python."""
    joined = f"REPLACE({text}, char(10) || char(10), char(10))"
    return (
        f"(CASE WHEN {text} = '' THEN 0 ELSE "
        f"LENGTH({joined}) - LENGTH(REPLACE(REPLACE({joined}, ' ', ''), char(10), '')) + 1 END)"
    )


COUNT_PAGE_WORDS = (
    f"UPDATE pages SET word_count = coalesce((SELECT SUM({_words('c.text')}) FROM chunks c "
    "WHERE c.book_id = pages.book_id AND c.start_page = pages.number), 0)"
)
"""Count the words of every page from its chunks, in one statement (add a WHERE for some pages): the
schema step below for the books stored before it, and an import for the book it writes, whose chunks
go in before its pages (a trigger's update per chunk took 13-37 us each, 0.1 s of a 1,000-page book)."""

_V13_PAGE_WORDS = f"""
ALTER TABLE pages ADD COLUMN word_count INTEGER NOT NULL DEFAULT 0;
{COUNT_PAGE_WORDS};
CREATE TRIGGER chunks_words_ai AFTER INSERT ON chunks BEGIN
    UPDATE pages SET word_count = word_count + {_words("new.text")}
    WHERE book_id = new.book_id AND number = new.start_page;
END;
CREATE TRIGGER chunks_words_ad AFTER DELETE ON chunks BEGIN
    UPDATE pages SET word_count = word_count - {_words("old.text")}
    WHERE book_id = old.book_id AND number = old.start_page;
END;
CREATE TRIGGER chunks_words_au AFTER UPDATE OF text, book_id, start_page ON chunks BEGIN
    UPDATE pages SET word_count = word_count - {_words("old.text")}
    WHERE book_id = old.book_id AND number = old.start_page;
    UPDATE pages SET word_count = word_count + {_words("new.text")}
    WHERE book_id = new.book_id AND number = new.start_page;
END;
"""
"""The words on each page, kept by the chunks' triggers (a chunk counts on the page it starts on): the
reading clock reads a book's words per page as one short row per page instead of counting its text,
which beside the app's first screen took 20-30 ms of CPU. Pages already stored are counted here."""

_bookmark_anchors = _script(_V10_BOOKMARK_ANCHORS)
_finished_books = _script(_V11_FINISHED_BOOKS)
_book_images = _script(_V12_BOOK_IMAGES)
_page_words = _script(_V13_PAGE_WORDS)

MIGRATIONS: list[Callable[[Any], None]] = [
    _script(_V1_CORE),
    _script(_V2_EMBEDDINGS_AND_CHAT),
    _script(_V3_MESSAGE_HORIZON),
    _script(_V4_CONCEPTS_AND_SUMMARIES),
    _script(_V5_PAGE_VISUALS_AND_ENRICHMENT),
    _script(_V6_STORY_PAGES_AND_ENCODING),
    _script(_V7_CONCEPT_REFINEMENTS),
    _script(_V8_BOOKMARKS_ANNOTATIONS_AND_READING_LOG),
    _script(_V9_HELD_BACK_ANSWERS),
    _script(_V10_PAGE_TEXTS),
    _bookmark_anchors,
    _finished_books,
    _book_images,
    _page_words,
]
"""MIGRATIONS[i] brings a database from user_version i to i + 1."""

BOOKMARK_ANCHORS_FROM = MIGRATIONS.index(_bookmark_anchors)
"""The schema version the bookmark-anchor step upgrades (its test starts there)."""
FINISHED_BOOKS_FROM = MIGRATIONS.index(_finished_books)
"""The schema version the finished-books step upgrades (its test starts there)."""
BOOK_IMAGES_FROM = MIGRATIONS.index(_book_images)
"""The schema version the book-pictures step upgrades (its test starts there)."""
PAGE_WORDS_FROM = MIGRATIONS.index(_page_words)
"""The schema version the words-per-page step upgrades (its test starts there)."""

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
        with transaction(conn):
            current = conn.execute("PRAGMA user_version").fetchone()[0]
            if current != version:  # another process migrated meanwhile
                version = current
                continue  # leaving the block commits the empty transaction
            MIGRATIONS[version](conn)
            conn.execute(f"PRAGMA user_version = {version + 1}")
        version += 1
    return version
