"""Chunk vectors in sqlite-vec vec0 tables: one table per embedding model and dimension."""

from __future__ import annotations

import builtins
import hashlib
import re
import struct
from collections.abc import Sequence
from typing import Any

from reader.adapters.sqlite.chunk_repository import _COLUMNS, _chunk
from reader.adapters.sqlite.transaction import transaction
from reader.domain.models import Chunk
from reader.domain.search import BookVectors, EmbeddingSpace, EmbeddingVector

_MAX_MODEL_PART = 40


def table_name(model: str, dimension: int) -> str:
    """A vec0 table name for a model and dimension, e.g. embeddings_openai_minilm_384."""
    part = re.sub(r"[^a-z0-9]+", "_", model.lower()).strip("_")[:_MAX_MODEL_PART].strip("_") or "model"
    return f"embeddings_{part}_{int(dimension)}"


def pack(vector: Sequence[float]) -> bytes:
    """A vector as sqlite-vec's float32 blob."""
    return struct.pack(f"{len(vector)}f", *vector)


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


class SqliteVectorStore:
    """Creates vec0 tables on demand, registered in embedding_spaces; rowid = chunks.rowid."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def space(self, model: str, dimension: int) -> EmbeddingSpace:
        """The space for `model` vectors of `dimension`, created (table and registry row) if missing."""
        if dimension <= 0:
            raise ValueError(f"dimension must be positive, not {dimension}")
        conn = self.conn
        with transaction(conn):
            row = conn.execute(
                "SELECT table_name FROM embedding_spaces WHERE model = ? AND dimension = ?",
                (model, dimension),
            ).fetchone()
            if row:
                name = row[0]
            else:
                name = table_name(model, dimension)
                taken = conn.execute(
                    "SELECT 1 FROM embedding_spaces WHERE table_name = ?", (name,)
                ).fetchone()
                if taken:  # another model sanitises to the same name
                    digest = hashlib.sha1(model.encode("utf-8")).hexdigest()[:8]
                    name = f"{name}_{digest}"
                conn.execute(
                    "INSERT INTO embedding_spaces (table_name, model, dimension) VALUES (?, ?, ?)",
                    (name, model, dimension),
                )
            conn.execute(
                f"CREATE VIRTUAL TABLE IF NOT EXISTS {_quoted(name)} USING vec0("
                "book_id text partition key, start_page integer, end_page integer, +chunk_id text, "
                f"embedding float[{int(dimension)}] distance_metric=cosine)"
            )
        return EmbeddingSpace(name, model, dimension)

    def spaces(self, model: str | None = None) -> builtins.list[EmbeddingSpace]:
        """Known spaces (of one model when given), the most recently created first."""
        sql = "SELECT table_name, model, dimension FROM embedding_spaces"
        params: tuple[str, ...] = ()
        if model is not None:
            sql += " WHERE model = ?"
            params = (model,)
        rows = self.conn.execute(sql + " ORDER BY created_at DESC, rowid DESC", params).fetchall()
        return [EmbeddingSpace(*row) for row in rows]

    def _embedded_rowids(self, book_id: str, space: EmbeddingSpace) -> set[int]:
        rows = self.conn.execute(
            f"SELECT rowid FROM {_quoted(space.table)} WHERE book_id = ?", (book_id,)
        ).fetchall()
        return {row[0] for row in rows}

    def missing_chunks(self, book_id: str, space: EmbeddingSpace) -> builtins.list[Chunk]:
        """The book's chunks without a vector in `space`, in reading order."""
        done = self._embedded_rowids(book_id, space)
        rows = self.conn.execute(
            f"SELECT rowid, {_COLUMNS} FROM chunks WHERE book_id = ? ORDER BY chunk_index", (book_id,)
        ).fetchall()
        return [_chunk(row[1:]) for row in rows if row[0] not in done]

    def add(self, space: EmbeddingSpace, book_id: str, vectors: Sequence[EmbeddingVector]) -> int:
        """Store vectors in one transaction; chunks that no longer exist are skipped."""
        if not vectors:
            return 0
        for vector in vectors:
            if len(vector.vector) != space.dimension:
                raise ValueError(
                    f"a {len(vector.vector)}-dimensional vector cannot go into {space.table} "
                    f"({space.dimension} dimensions)"
                )
        conn = self.conn
        table = _quoted(space.table)
        ids = [v.chunk_id for v in vectors]
        marks = ",".join("?" * len(ids))
        with transaction(conn):
            rowids = dict(
                conn.execute(
                    f"SELECT id, rowid FROM chunks WHERE book_id = ? AND id IN ({marks})", (book_id, *ids)
                ).fetchall()
            )
            stored = 0
            for vector in vectors:
                rowid = rowids.get(vector.chunk_id)
                if rowid is None:
                    continue
                conn.execute(f"DELETE FROM {table} WHERE rowid = ?", (rowid,))
                conn.execute(
                    f"INSERT INTO {table} (rowid, book_id, start_page, end_page, chunk_id, embedding) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        rowid,
                        book_id,
                        vector.start_page,
                        vector.end_page,
                        vector.chunk_id,
                        pack(vector.vector),
                    ),
                )
                stored += 1
        return stored

    def mark_embedded(self, book_id: str, space: EmbeddingSpace) -> None:
        """Record that every chunk of the book has a vector in `space`."""
        self.conn.execute(
            "INSERT INTO book_embeddings (book_id, table_name, model, dimension) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(book_id, table_name) DO UPDATE SET model = excluded.model, "
            "dimension = excluded.dimension, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')",
            (book_id, space.table, space.model, space.dimension),
        )

    def book_vectors(self, book_id: str) -> builtins.list[BookVectors]:
        """Every space the book has vectors in, complete ones first, then the most recent."""
        total = self.conn.execute("SELECT count(*) FROM chunks WHERE book_id = ?", (book_id,)).fetchone()[0]
        complete = {
            row[0]
            for row in self.conn.execute(
                "SELECT table_name FROM book_embeddings WHERE book_id = ?", (book_id,)
            ).fetchall()
        }
        found: list[BookVectors] = []
        for space in self.spaces():
            if space.table in complete:
                found.append(BookVectors(space, total, total, True))
                continue
            count = self.conn.execute(
                f"SELECT count(*) FROM {_quoted(space.table)} WHERE book_id = ?", (book_id,)
            ).fetchone()[0]
            if count:
                found.append(BookVectors(space, count, total, False))
        return sorted(found, key=lambda v: not v.complete)
