"""Embedding and semantic/hybrid search through the real litellm client against the scripted server."""

from __future__ import annotations

import json
import math
import socket
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reader.cli.library_commands import import_sample
from reader.cli.main import main
from reader.config import Config, EmbeddingsConfig
from reader.domain.errors import EmbeddingError, ReaderError
from reader.domain.models import Book
from reader.services import Services
from tests.support import scripted_server as scripted

MODEL = "openai/scripted-embed"
BATCH = 16


def services_for(base_url: str, model: str = MODEL, **embeddings: Any) -> Services:
    values: dict[str, Any] = {
        "model": model,
        "api_base": base_url,
        "batch_size": BATCH,
        "timeout": 5.0,
        "retry_backoff": 0.01,
    }
    values |= embeddings
    return Services.open(config=Config(embeddings=EmbeddingsConfig(**values)))


def sample(services: Services, page: int = 30) -> Book:
    book = import_sample(services)
    services.books.set_current_page(book.id, page)
    return services.books.get(book.id) or book


def chunk_count(services: Services, book: Book) -> int:
    return services.chunks.count(book.id)


def stored(services: Services) -> int:
    (space,) = services.vectors.spaces(MODEL)
    return int(services.db.conn.execute(f'SELECT count(*) FROM "{space.table}"').fetchone()[0])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_embed_batches_records_and_resumes(scripted_server: scripted.ScriptedServer) -> None:
    services = services_for(scripted_server.base_url)
    book = sample(services)
    seen: list[tuple[int, int]] = []
    outcome = services.embed_use_case.embed_book(
        book.id, progress=lambda done, total: seen.append((done, total))
    )
    total = chunk_count(services, book)
    assert outcome.embedded == total == outcome.total and outcome.space is not None
    assert outcome.space.dimension == 8 and outcome.space.model == MODEL
    requests = scripted_server.embedding_requests()
    assert len(requests) == math.ceil(total / BATCH) and all(len(r["input"]) <= BATCH for r in requests)
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    (vectors,) = services.vectors.book_vectors(book.id)
    assert vectors.complete and vectors.count == total
    again = services.embed_use_case.embed_book(book.id)
    assert again.already_done and len(scripted_server.embedding_requests()) == len(requests)


def test_hybrid_is_the_auto_mode_once_embedded_and_keeps_the_horizon(
    scripted_server: scripted.ScriptedServer,
) -> None:
    services = services_for(scripted_server.base_url)
    book = sample(services, page=12)
    services.embed_use_case.embed_book(book.id)
    response = services.search.search(book.id, "Silas Crane rowed the boat", k=5)
    assert response.mode == "hybrid" and response.warnings == () and response.results
    assert any("semantic" in r.retrievers for r in response.results)
    assert all(r.end_page <= 12 for r in response.results)
    semantic = services.search.search(book.id, "the keeper's daughter", mode="semantic", k=7)
    assert semantic.mode == "semantic" and len(semantic.results) == 7
    assert all(r.retrievers == ("semantic",) and r.end_page <= 12 for r in semantic.results)
    assert scripted_server.embedding_requests()[-1]["input"] == ["the keeper's daughter"]


def test_rate_limits_are_retried_with_backoff(scripted_server: scripted.ScriptedServer) -> None:
    services = services_for(scripted_server.base_url, batch_size=1000)
    book = sample(services)
    scripted_server.script_embeddings(scripted.error(429, "slow down"), scripted.error(429, "slow down"))
    outcome = services.embed_use_case.embed_book(book.id)
    assert outcome.embedded == chunk_count(services, book)
    assert len(scripted_server.embedding_requests()) == 3


def test_a_failing_server_keeps_finished_batches_and_the_next_run_resumes(
    scripted_server: scripted.ScriptedServer,
) -> None:
    services = services_for(scripted_server.base_url, max_retries=1)
    book = sample(services)
    first = scripted.vectors([[1.0] + [0.0] * 7] * BATCH)
    scripted_server.script_embeddings(first, scripted.error(500, "boom"), scripted.error(500, "boom"))
    with pytest.raises(EmbeddingError) as failure:
        services.embed_use_case.embed_book(book.id)
    assert failure.value.kind == "server" and "500" in str(failure.value) and "\n" not in str(failure.value)
    assert stored(services) == BATCH
    (partial,) = services.vectors.book_vectors(book.id)
    assert not partial.complete
    warned = services.search.search(book.id, "lamp")
    assert warned.mode == "lexical" and "partly embedded" in warned.warnings[0]
    before = len(scripted_server.embedding_requests())
    outcome = services.embed_use_case.embed_book(book.id)
    assert outcome.embedded == chunk_count(services, book) - BATCH
    resumed = scripted_server.embedding_requests()[before:]
    assert sum(len(r["input"]) for r in resumed) == outcome.embedded


@pytest.mark.parametrize(
    ("reply", "kind", "words"),
    [
        (scripted.error(401, "Incorrect API key provided: sk-secret"), "auth", "refused the API key"),
        (
            scripted.error(401, "Invalid API Key sk-secret", type_="invalid_request_error"),
            "auth",
            "refused the API key",
        ),
        (scripted.error(403, "forbidden"), "auth", "denied access"),
        (scripted.error(404, "no such model"), "not_found", "was not found"),
        (scripted.error(400, "input too long"), "bad_request", "rejected the request"),
    ],
)
def test_errors_that_retrying_cannot_fix_fail_at_once(
    scripted_server: scripted.ScriptedServer, reply: Any, kind: str, words: str
) -> None:
    services = services_for(scripted_server.base_url)
    book = sample(services)
    scripted_server.script_embeddings(reply)
    with pytest.raises(EmbeddingError) as failure:
        services.embed_use_case.embed_book(book.id)
    assert failure.value.kind == kind and words in str(failure.value)
    assert "sk-secret" not in str(failure.value) and len(scripted_server.embedding_requests()) == 1


def test_timeouts_are_one_line(scripted_server: scripted.ScriptedServer) -> None:
    services = services_for(scripted_server.base_url, timeout=0.3, max_retries=0)
    book = sample(services)
    scripted_server.script_embeddings(scripted.delay(2.0, then=scripted.vectors([[1.0] * 8])))
    with pytest.raises(EmbeddingError) as failure:
        services.embed_use_case.embed_book(book.id)
    assert failure.value.kind == "timeout" and "0.3 s" in str(failure.value)


def test_wrong_dimensions_are_refused(scripted_server: scripted.ScriptedServer) -> None:
    services = services_for(scripted_server.base_url)
    book = sample(services)
    scripted_server.script_embeddings(scripted.vectors([[0.5] * 8] * BATCH), scripted.embeddings_wrong_dim(5))
    with pytest.raises(EmbeddingError) as failure:
        services.embed_use_case.embed_book(book.id)
    assert failure.value.kind == "dimension" and "5" in str(failure.value) and "8" in str(failure.value)
    assert stored(services) == BATCH


def test_query_time_failures_fall_back_to_lexical_with_a_warning(
    scripted_server: scripted.ScriptedServer,
) -> None:
    services = services_for(scripted_server.base_url)
    book = sample(services, page=20)
    services.embed_use_case.embed_book(book.id)
    scripted_server.script_embeddings(scripted.error(500, "model crashed"))
    response = services.search.search(book.id, "Silas Crane")
    assert response.mode == "lexical" and response.results
    assert response.warnings and response.warnings[0].startswith("Semantic search failed")
    scripted_server.script_embeddings(scripted.embeddings_wrong_dim(3))
    assert "3-dimensional" in services.search.search(book.id, "Crane", mode="hybrid").warnings[0]
    down = services_for(f"http://127.0.0.1:{free_port()}/v1")
    response = down.search.search(book.id, "Silas Crane", mode="semantic")
    assert response.mode == "lexical" and response.results and "Could not connect" in response.warnings[0]


def test_a_book_embedded_with_another_model_is_reported(scripted_server: scripted.ScriptedServer) -> None:
    first = services_for(scripted_server.base_url, model="openai/old-model")
    book = sample(first)
    first.embed_use_case.embed_book(book.id)
    services = services_for(scripted_server.base_url)
    response = services.search.search(book.id, "lamp")
    assert response.mode == "lexical" and "openai/old-model" in response.warnings[0]
    assert "reader embed" in response.warnings[0]
    outcome = services.embed_use_case.embed_book(book.id)
    assert outcome.other_models == ("openai/old-model",)
    assert services.search.search(book.id, "lamp").mode == "hybrid"


def test_embed_command(scripted_server: scripted.ScriptedServer, tmp_path: Path, capsys: Any) -> None:
    config = Path(tmp_path / "config.toml")
    config.write_text(
        f'[embeddings]\nmodel = "{MODEL}"\napi_base = "{scripted_server.base_url}"\nretry_backoff = 0.01\n'
    )
    import os

    os.environ["READER_CONFIG"] = str(config)
    assert main(["demo", "--print"]) == 0
    capsys.readouterr()
    assert main(["embed", "gull"]) == 0
    out = capsys.readouterr().out
    assert "embedded" in out and "passages with openai/scripted-embed, 8 dimensions" in out
    assert main(["embed", "--all", "--json"]) == 0
    (row,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert row["embedded"] == 0 and row["dimension"] == 8 and row["model"] == MODEL
    assert main(["search", "gull", "lamp", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows and {r["mode"] for r in rows} == {"hybrid"}
    assert main(["embed"]) == 1 and "--all" in capsys.readouterr().err


def test_embed_needs_a_model() -> None:
    services = Services.open()
    book = sample(services)
    with pytest.raises(ReaderError, match=r"\[embeddings\] model"):
        services.embed_use_case.embed_book(book.id)


@pytest.fixture(scope="module")
def embedded_library(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with scripted.ScriptedServer() as server:
        db = tmp_path_factory.mktemp("property") / "library.db"
        config = Config(
            embeddings=EmbeddingsConfig(model=MODEL, api_base=server.base_url, retry_backoff=0.01)
        )
        services = Services.open(db, config=config)
        book = import_sample(services)
        services.embed_use_case.embed_book(book.id)
        yield services, book
        services.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    page=st.integers(min_value=-3, max_value=40),
    query=st.one_of(
        st.text(max_size=200),
        st.sampled_from(["Gideon Thorne killed Edmund Halloran", "whalebone tea-caddy", "Morvoren Quay"]),
    ),
    k=st.integers(min_value=1, max_value=30),
)
def test_no_mode_ever_returns_a_passage_past_the_page(
    embedded_library: Any, page: int, query: str, k: int
) -> None:
    services, book = embedded_library
    for mode in ("auto", "lexical", "semantic", "hybrid"):
        response = services.search.search(book.id, query, current_page=page, k=k, mode=mode)
        assert len(response.results) <= k
        assert all(r.end_page <= max(page, 0) for r in response.results), (mode, page, query)
        if mode != "lexical" and query.strip() and any(ch.isalnum() for ch in query):
            assert response.mode in ("hybrid", "semantic") and not response.warnings
