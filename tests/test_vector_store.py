"""vec0 spaces in the real library file: creation, storage, KNN inside the book and page, clean-up."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from reader.adapters.sqlite.search_index import SqliteSearchIndex
from reader.adapters.sqlite.vector_store import SqliteVectorStore, table_name
from reader.cli.library_commands import import_sample
from reader.domain.models import Book, Chunk
from reader.domain.search import EmbeddingVector
from reader.services import SAMPLE_BOOK, Services

DIM = 16


def one_hot(position: int, dim: int = DIM) -> list[float]:
    vector = [0.01] * dim
    vector[position % dim] = 1.0
    norm = math.sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector]


def all_chunks(services: Services, book: Book) -> list[Chunk]:
    return list(services.chunks.get_by_page_range(book.id, 1, book.page_count))


@pytest.fixture
def library() -> tuple[Services, Book]:
    services = Services.open()
    return services, import_sample(services)


def embed_all(services: Services, book: Book, model: str = "test/model") -> SqliteVectorStore:
    store = services.vectors
    space = store.space(model, DIM)
    chunks = all_chunks(services, book)
    vectors = [EmbeddingVector(c.id, one_hot(c.index), c.start_page, c.end_page) for c in chunks]
    assert store.add(space, book.id, vectors) == len(chunks)
    store.mark_embedded(book.id, space)
    return store


def test_table_names_are_safe_and_distinct() -> None:
    assert (
        table_name("openai/text-embedding-3-small", 1536) == "embeddings_openai_text_embedding_3_small_1536"
    )
    assert table_name('"; DROP TABLE books; --', 8) == "embeddings_drop_table_books_8"
    assert table_name("🦜", 4) == "embeddings_model_4"


def test_spaces_are_created_once_per_model_and_dimension(library: tuple[Services, Book]) -> None:
    services, _ = library
    store = services.vectors
    first = store.space("a/b", 8)
    assert store.space("a/b", 8) == first
    other = store.space("a-b", 8)  # sanitises to the same table name
    assert other.table != first.table and other.table.startswith(first.table)
    assert {s.table for s in store.spaces()} == {first.table, other.table}
    assert store.spaces("a/b") == [first]
    with pytest.raises(ValueError):
        store.space("a/b", 0)


def test_knn_stays_inside_the_book_and_its_page(library: tuple[Services, Book], tmp_path: Path) -> None:
    services, book = library
    embed_all(services, book)
    other = tmp_path / "twin.md"
    other.write_text("# Twin\n\n" + "\n\n".join(f"Paragraph {i} of the twin. " * 40 for i in range(10)))
    (outcome,) = services.importer.import_paths([other])
    assert outcome.book is not None
    embed_all(services, outcome.book)
    index = SqliteSearchIndex(services.db.conn)
    space = services.vectors.spaces()[0]
    chunks = all_chunks(services, book)
    late = chunks[-1]
    for page in (1, 5, 17, book.page_count):
        hits = index.semantic(book.id, space, one_hot(late.index), page, 10)
        assert hits and all(h.book_id == book.id and h.end_page <= page for h in hits)
        assert (late.id in {h.chunk_id for h in hits}) == (page >= late.end_page)
    top = index.semantic(book.id, space, one_hot(late.index), book.page_count, 1)[0]
    assert top.score == pytest.approx(1.0, abs=1e-4) and top.start_label == str(late.start_page)
    with pytest.raises(ValueError):
        index.semantic(book.id, space, [1.0, 0.0], 5, 3)


def test_missing_chunks_resume_and_mark(library: tuple[Services, Book]) -> None:
    services, book = library
    store = services.vectors
    space = store.space("test/model", DIM)
    chunks = all_chunks(services, book)
    half = chunks[: len(chunks) // 2]
    store.add(
        space, book.id, [EmbeddingVector(c.id, one_hot(c.index), c.start_page, c.end_page) for c in half]
    )
    missing = store.missing_chunks(book.id, space)
    assert [c.id for c in missing] == [c.id for c in chunks[len(half) :]]
    (partial,) = store.book_vectors(book.id)
    assert (partial.count, partial.total, partial.complete) == (len(half), len(chunks), False)
    with pytest.raises(ValueError):
        store.add(space, book.id, [EmbeddingVector(chunks[0].id, [1.0], 1, 1)])


def test_removing_or_rebuilding_a_book_drops_its_vectors(library: tuple[Services, Book]) -> None:
    services, book = library
    store = embed_all(services, book)
    space = store.spaces()[0]
    count = f'SELECT count(*) FROM "{space.table}"'
    assert services.db.conn.execute(count).fetchone()[0] == len(all_chunks(services, book))
    assert services.importer.import_file(SAMPLE_BOOK, force=True).ok
    assert store.book_vectors(book.id) == []
    assert services.db.conn.execute(count).fetchone()[0] == 0
    embed_all(services, book)
    assert services.books.remove(book.id)
    assert services.db.conn.execute(count).fetchone()[0] == 0
    assert services.db.conn.execute("SELECT count(*) FROM book_embeddings").fetchone()[0] == 0
