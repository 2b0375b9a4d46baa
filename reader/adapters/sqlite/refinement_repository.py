"""Cached model refinements of concept maps, one row per chapter read up to a page."""

from __future__ import annotations

import builtins
import json
from typing import Any

from reader.domain.concept_refinement import ChapterRefinement


def _encode(refinement: ChapterRefinement) -> str:
    return json.dumps(
        {"groups": [list(g) for g in refinement.groups], "kinds": [list(k) for k in refinement.kinds]},
        ensure_ascii=False,
    )


def _decode(scope: str, first_page: int, up_to_page: int, result: str) -> ChapterRefinement:
    data = json.loads(result)
    return ChapterRefinement(
        scope,
        int(first_page),
        int(up_to_page),
        tuple(tuple(str(n) for n in group) for group in data["groups"]),
        tuple((str(name), str(kind)) for name, kind in data["kinds"]),
    )


class SqliteRefinementRepository:
    """Refinements keyed by (book, scope, model, prompt version, index version, request hash)."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def get(
        self, book_id: str, scope: str, model: str, prompt_version: int, index_version: int, request_hash: str
    ) -> ChapterRefinement | None:
        row = self.conn.execute(
            "SELECT first_page, up_to_page, result FROM concept_refinements WHERE book_id = ? AND scope = ? "
            "AND model = ? AND prompt_version = ? AND index_version = ? AND request_hash = ?",
            (book_id, scope, model, prompt_version, index_version, request_hash),
        ).fetchone()
        return _decode(scope, row[0], row[1], row[2]) if row else None

    def put(
        self,
        book_id: str,
        model: str,
        prompt_version: int,
        index_version: int,
        request_hash: str,
        refinement: ChapterRefinement,
    ) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO concept_refinements (book_id, scope, model, prompt_version, index_version, "
            "request_hash, first_page, up_to_page, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                book_id,
                refinement.scope,
                model,
                prompt_version,
                index_version,
                request_hash,
                refinement.first_page,
                refinement.up_to_page,
                _encode(refinement),
            ),
        )

    def latest(
        self, book_id: str, model: str, prompt_version: int, index_version: int, up_to_page: int
    ) -> builtins.list[ChapterRefinement]:
        rows = self.conn.execute(
            "SELECT scope, first_page, up_to_page, result FROM concept_refinements WHERE book_id = ? "
            "AND model = ? AND prompt_version = ? AND index_version = ? AND up_to_page <= ? "
            "ORDER BY first_page, scope, up_to_page DESC, created_at DESC",
            (book_id, model, prompt_version, index_version, up_to_page),
        ).fetchall()
        found: dict[str, ChapterRefinement] = {}
        for scope, first_page, last_page, result in rows:
            if scope not in found:
                found[scope] = _decode(scope, first_page, last_page, result)
        return list(found.values())

    def concept_counts(self, book_id: str, start_page: int, end_page: int) -> dict[int, int]:
        rows = self.conn.execute(
            "SELECT m.concept_id, sum(m.count) FROM concept_mentions m JOIN concepts c ON c.id = m.concept_id "
            "WHERE m.page BETWEEN ? AND ? AND c.book_id = ? GROUP BY m.concept_id",
            (start_page, end_page, book_id),
        ).fetchall()
        return {int(concept_id): int(count) for concept_id, count in rows}
