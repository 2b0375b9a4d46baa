"""A small sentence-embedding model (ONNX, mean-pooled, L2-normalised) run in-process on the CPU.

Needs the `reader[semantic]` extra (onnxruntime, tokenizers, numpy). The model folder holds
`model.onnx` (inputs input_ids, attention_mask and optionally token_type_ids; output the last hidden
state) and `tokenizer.json`. `[embeddings] model = "local"` uses all-MiniLM-L6-v2, fetched once into
the user cache on first use; `model = "local:/path/to/folder"` reads that folder and never fetches.
"""

from __future__ import annotations

import builtins
import importlib.util
import os
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reader.domain.errors import EmbeddingError

LOCAL_PREFIX = "local"
DEFAULT_NAME = "all-MiniLM-L6-v2"
DEFAULT_FILES = {
    "model.onnx": "https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2/resolve/main/onnx/model_quint8_avx2.onnx",
    "tokenizer.json": "https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2/resolve/main/tokenizer.json",
}
OPTIMIZED_GRAPH = "model.onnx"
OPTIMIZED_WEIGHTS = "weights.bin"
"""The files of a model's optimised graph in the user cache: the graph, and its weights (mapped)."""
MAX_TOKENS = 256
BATCH = 32
Progress = Callable[[str, int, int], None]
"""(file name, bytes done, bytes total or 0) while a model file is fetched."""


def semantic_installed() -> bool:
    """Whether the `reader[semantic]` packages are importable (checked without importing them)."""
    return all(importlib.util.find_spec(name) is not None for name in ("onnxruntime", "tokenizers", "numpy"))


def is_local(model: str) -> bool:
    """Whether an [embeddings] model names an in-process model ("local" or "local:FOLDER")."""
    return model == LOCAL_PREFIX or model.startswith(LOCAL_PREFIX + ":")


def fetch(folder: Path, files: dict[str, str] = DEFAULT_FILES, progress: Progress | None = None) -> Path:
    """Download the model's files into `folder` once (each written whole or not at all)."""
    import urllib.request  # only here: 25 ms of imports a search with the model at hand does not need

    folder.mkdir(parents=True, exist_ok=True)
    for name, url in files.items():
        target = folder / name
        if target.exists():
            continue
        partial = target.with_suffix(target.suffix + ".part")
        try:
            with urllib.request.urlopen(url, timeout=60) as response, partial.open("wb") as out:  # noqa: S310
                total = int(response.headers.get("Content-Length") or 0)
                done = 0
                while block := response.read(1 << 16):
                    out.write(block)
                    done += len(block)
                    if progress:
                        progress(name, done, total)
            os.replace(partial, target)
        except OSError as error:
            partial.unlink(missing_ok=True)
            raise EmbeddingError(
                f"Could not fetch the embedding model file {name} ({error}); put model.onnx and "
                f"tokenizer.json in {folder}, or set [embeddings] model = \"local:FOLDER\"."
            ) from None
    return folder


class LocalEmbeddingProvider:
    """Embeds with an ONNX model in this process; the model loads on the first call."""

    def __init__(self, model: str, cache_dir: Path, progress: Progress | None = None) -> None:
        folder = model.partition(":")[2].strip()
        self.folder = Path(folder).expanduser() if folder else cache_dir / "models" / DEFAULT_NAME
        self.fetches = not folder
        self.cache_dir = cache_dir
        self._name = f"{LOCAL_PREFIX}/{self.folder.name if folder else DEFAULT_NAME}"
        self.progress = progress
        self._dimension: int | None = None
        self._session: Any = None
        self._tokenizer: Any = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self._name

    @property
    def dimension(self) -> int | None:
        return self._dimension

    def _load(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            if not semantic_installed():
                raise EmbeddingError(
                    "The in-process embedding model needs the semantic extra: pip install 'reader[semantic]'."
                )
            if self.fetches:
                fetch(self.folder, progress=self.progress)
            for name in ("model.onnx", "tokenizer.json"):
                if not (self.folder / name).is_file():
                    raise EmbeddingError(f"No {name} in {self.folder}; the model folder needs model.onnx and tokenizer.json.")
            import onnxruntime
            from tokenizers import Tokenizer

            try:
                tokenizer = Tokenizer.from_file(str(self.folder / "tokenizer.json"))
                session = self._make_session(onnxruntime)
            except Exception as error:  # noqa: BLE001 - a broken file becomes one line
                raise EmbeddingError(f"Could not load the embedding model in {self.folder}: {error}") from None
            tokenizer.enable_truncation(MAX_TOKENS)
            tokenizer.no_padding()
            self._tokenizer = tokenizer
            self._session = session

    def _make_session(self, onnxruntime: Any) -> Any:
        """The model's inference session, from its optimised graph in the user cache when it is there.

        Full graph optimisation: MiniLM int8 then embeds a query in 17 ms instead of 88 ms (its first
        one 39 ms instead of 200 ms), but optimising is most of the session's making (0.21 s of CPU, 0.3
        s on a loaded machine). So the optimised graph is saved the first time, its weights (90 MB for
        MiniLM: they come out as floats) in a file of their own that later sessions map into memory
        instead of reading: 0.06 s of CPU (0.1 s) to make, with the same vectors to the bit. It is kept
        per model file (path, size, time), onnxruntime version and machine, since an optimised graph
        may hold hardware-specific nodes.
        """
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3
        # no busy-waiting worker threads: a query is embedded beside the lexical search, on a machine
        # with few cores
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        providers = ["CPUExecutionProvider"]
        saved = self._optimized_folder(self.folder / "model.onnx", onnxruntime.__version__)
        if saved is not None and (saved / OPTIMIZED_GRAPH).is_file():
            options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
            try:
                return onnxruntime.InferenceSession(str(saved / OPTIMIZED_GRAPH), options, providers=providers)
            except Exception:  # noqa: BLE001 - a damaged copy: made again from the model
                shutil.rmtree(saved, ignore_errors=True)
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
        partial = None
        if saved is not None:
            partial = saved.with_name(f"{saved.name}.{os.getpid()}.{threading.get_ident()}.part")
            try:
                partial.mkdir(parents=True)
            except OSError:  # a read-only cache: optimise every time
                partial = None
        if partial is not None:
            options.optimized_model_filepath = str(partial / OPTIMIZED_GRAPH)
            options.add_session_config_entry("session.optimized_model_external_initializers_file_name", OPTIMIZED_WEIGHTS)
            options.add_session_config_entry("session.optimized_model_external_initializers_min_size_in_bytes", "1024")
        session = onnxruntime.InferenceSession(str(self.folder / "model.onnx"), options, providers=providers)
        if saved is not None and partial is not None:
            self._keep_optimized(partial, saved)
        return session

    def _keep_optimized(self, partial: Path, saved: Path) -> None:
        """Move a freshly saved graph into place (whole or not at all) and drop those of earlier model files."""
        try:
            if (partial / OPTIMIZED_GRAPH).is_file():  # and its weights, unless all are small
                os.replace(partial, saved)  # fails if another process put its copy there first
                for old in saved.parent.glob(f"{self.folder.name}-*"):
                    # a copy of an earlier model file, or one a process left half-written an hour ago
                    stale = not old.name.endswith(".part") or old.stat().st_mtime < time.time() - 3600
                    if old != saved and stale:
                        shutil.rmtree(old, ignore_errors=True)
        except OSError:
            pass
        shutil.rmtree(partial, ignore_errors=True)

    def _optimized_folder(self, model: Path, runtime_version: str) -> Path | None:
        """Where the model's optimised graph is kept (None when the model file cannot be read)."""
        import hashlib
        import platform

        try:
            stat = model.stat()
        except OSError:
            return None
        key = f"{model.resolve()}|{stat.st_size}|{stat.st_mtime_ns}|{runtime_version}|{platform.machine()}"
        digest = hashlib.sha256(key.encode()).hexdigest()[:16]
        return self.cache_dir / "models" / "optimized" / f"{self.folder.name}-{digest}"

    @property
    def present(self) -> bool:
        """Whether the model's files are in its folder (loading it fetches nothing)."""
        return all((self.folder / name).is_file() for name in ("model.onnx", "tokenizer.json"))

    def warm(self) -> None:
        """Load the model now if its files are present (errors wait for the first real call)."""
        if self.present:
            try:
                self._load()
            except EmbeddingError:
                pass

    def embed(self, texts: builtins.list[str]) -> builtins.list[builtins.list[float]]:
        """One unit vector per text, in order."""
        self._load()
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        vectors: dict[int, builtins.list[float]] = {}
        for start in range(0, len(order), BATCH):
            batch = order[start : start + BATCH]
            for index, vector in zip(batch, self._run([texts[i] for i in batch]), strict=True):
                vectors[index] = vector
        return [vectors[i] for i in range(len(texts))]

    def embed_query(self, text: str) -> builtins.list[float]:
        """One query's unit vector."""
        self._load()
        return self._run([text])[0]

    def _run(self, texts: builtins.list[str]) -> builtins.list[builtins.list[float]]:
        import numpy as np

        encodings = self._tokenizer.encode_batch([t if t.strip() else " " for t in texts])
        width = max(1, max(len(e.ids) for e in encodings))
        ids = np.zeros((len(texts), width), dtype=np.int64)
        mask = np.zeros((len(texts), width), dtype=np.int64)
        for row, encoding in enumerate(encodings):
            ids[row, : len(encoding.ids)] = encoding.ids
            mask[row, : len(encoding.ids)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        wanted = {i.name for i in self._session.get_inputs()}
        try:
            hidden = self._session.run(None, {k: v for k, v in feeds.items() if k in wanted})[0]
        except Exception as error:  # noqa: BLE001 - one line, not a traceback
            raise EmbeddingError(f"The embedding model failed: {error}") from None
        if hidden.ndim != 3:
            raise EmbeddingError(f"The embedding model returned a {hidden.ndim}-dimensional output, not 3.")
        pooled = (hidden * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1)
        pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        self._dimension = int(pooled.shape[1])
        return [row.astype(float).tolist() for row in pooled]
