"""The in-process embedding model keeps its optimised graph in the user cache: later loads read it and
embed to the same bits; a damaged or unwritable cache only costs the optimisation again."""

from __future__ import annotations

from pathlib import Path

from reader.adapters.embeddings.local_onnx import LocalEmbeddingProvider
from tests.fixtures_models import write_tiny_model

TEXTS = ["sorrow and snow", "a letter", "bread", ""]


def _model(tmp_path: Path) -> Path:
    vectors = {"sorrow": [1.0, 0.0, 0.0], "snow": [0.0, 1.0, 0.0], "letter": [0.2, 0.3, 0.9], "bread": [0.5, 0.5, 0.1]}
    return write_tiny_model(tmp_path / "tiny-model", vectors)


def _saved(cache: Path) -> list[Path]:
    return sorted((cache / "models" / "optimized").iterdir())


def test_the_optimised_graph_is_kept_and_read_back_to_the_same_vectors(tmp_path: Path) -> None:
    model, cache = _model(tmp_path), tmp_path / "cache"
    first = LocalEmbeddingProvider(f"local:{model}", cache).embed(TEXTS)
    (saved,) = _saved(cache)  # no half-written copy is left beside it
    assert saved.name.startswith("tiny-model-")
    assert [p.name for p in saved.iterdir()] == ["model.onnx"]  # the tiny model's weights stay in the graph
    stamp = (saved / "model.onnx").stat().st_mtime_ns
    again = LocalEmbeddingProvider(f"local:{model}", cache)
    assert again.embed(TEXTS) == first
    assert again.embed_query("sorrow and snow") == first[0]
    assert _saved(cache) == [saved] and (saved / "model.onnx").stat().st_mtime_ns == stamp  # read, not written


def test_a_changed_model_file_gets_its_own_graph_and_the_old_one_goes(tmp_path: Path) -> None:
    model, cache = _model(tmp_path), tmp_path / "cache"
    LocalEmbeddingProvider(f"local:{model}", cache).embed_query("bread")
    (old,) = _saved(cache)
    write_tiny_model(model, {"bread": [0.0, 0.0, 1.0], "snow": [1.0, 0.0, 0.0]})
    vector = LocalEmbeddingProvider(f"local:{model}", cache).embed_query("bread")
    assert vector == [0.0, 0.0, 1.0]
    (new,) = _saved(cache)
    assert new != old


def test_a_damaged_graph_is_made_again_and_an_unwritable_cache_is_no_error(tmp_path: Path) -> None:
    model, cache = _model(tmp_path), tmp_path / "cache"
    expected = LocalEmbeddingProvider(f"local:{model}", cache).embed(TEXTS)
    (saved,) = _saved(cache)
    (saved / "model.onnx").write_bytes(b"not a model")
    assert LocalEmbeddingProvider(f"local:{model}", cache).embed(TEXTS) == expected
    assert (saved / "model.onnx").read_bytes() != b"not a model"
    blocked = tmp_path / "a-file"
    blocked.write_text("", encoding="utf-8")  # the cache folder cannot be made under a file
    assert LocalEmbeddingProvider(f"local:{model}", blocked).embed(TEXTS) == expected


def test_a_copy_left_half_written_long_ago_is_removed(tmp_path: Path) -> None:
    import os

    model, cache = _model(tmp_path), tmp_path / "cache"
    left = cache / "models" / "optimized" / "tiny-model-0123456789abcdef.99.1.part"
    left.mkdir(parents=True)
    (left / "model.onnx").write_bytes(b"half")
    recent = left.with_name("tiny-model-0123456789abcdef.98.1.part")
    recent.mkdir()
    os.utime(left, (0, 0))
    LocalEmbeddingProvider(f"local:{model}", cache).embed_query("bread")
    assert not left.exists() and recent.exists()  # another process may still be writing the recent one
