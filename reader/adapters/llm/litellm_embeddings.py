"""Embeddings through litellm: batched, retried with backoff, the dimension learned from the first reply."""

from __future__ import annotations

import builtins
import time
from collections.abc import Callable, Sequence
from typing import Any

from reader.adapters.llm.endpoint import LitellmEndpoint, load_litellm
from reader.adapters.llm.errors import map_embedding_error
from reader.domain.endpoint import EndpointSettings
from reader.domain.errors import EmbeddingError


class LitellmEmbeddingProvider(LitellmEndpoint):
    """Any litellm embedding model: hosted ("text-embedding-3-small"), Ollama, or `openai/NAME` on a server."""

    section = "embeddings"
    error = EmbeddingError

    def __init__(
        self,
        settings: EndpointSettings,
        *,
        api_key: str | None = None,
        batch_size: int = 64,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        super().__init__(settings, api_key=api_key)
        self.batch_size = max(1, batch_size)
        self.max_retries = max(0, settings.max_retries)
        self.retry_backoff = settings.retry_backoff
        self._dimension: int | None = None
        self._sleep = sleep

    @property
    def dimension(self) -> int | None:
        return self._dimension

    def embed(self, texts: builtins.list[str]) -> builtins.list[builtins.list[float]]:
        """One vector per text, in order, `batch_size` texts per request, each retried on 429/5xx."""
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            vectors.extend(self._embed_batch(texts[start : start + self.batch_size], self.max_retries))
        return vectors

    def embed_query(self, text: str) -> builtins.list[float]:
        """One query's vector, without retries: a search must not wait on a failing endpoint."""
        return self._embed_batch([text], 0)[0]

    def _embed_batch(self, batch: Sequence[str], retries: int) -> builtins.list[builtins.list[float]]:
        # empty strings are refused by some providers; a single space embeds as "nothing"
        inputs = [text if text.strip() else " " for text in batch]
        key = self._key()
        kwargs: dict[str, Any] = {
            "model": self.model,
            "input": inputs,
            "timeout": self.timeout,
            "max_retries": 0,
        }
        if self.api_base:
            kwargs["api_base"] = self.api_base
        if key:
            kwargs["api_key"] = key
        litellm = load_litellm()
        attempt = 0
        while True:
            try:
                response = litellm.embedding(**kwargs)
                return self._vectors(response, len(inputs))
            except EmbeddingError:
                raise
            except Exception as error:  # noqa: BLE001 - every failure becomes one line
                mapped = self._map_error(error, key)
                if not mapped.retryable or attempt >= retries:
                    raise mapped from None
                self._sleep(self.retry_backoff * (2**attempt))
                attempt += 1

    def _vectors(self, response: Any, count: int) -> builtins.list[builtins.list[float]]:
        try:
            data = sorted(response.data, key=lambda item: _field(item, "index"))
            vectors = [[float(x) for x in _field(item, "embedding")] for item in data]
        except (AttributeError, KeyError, TypeError, ValueError) as error:
            raise EmbeddingError(
                f"The embedding server sent a reply that could not be read ({type(error).__name__}).",
                "malformed",
            ) from None
        if len(vectors) != count:
            raise EmbeddingError(
                f"The embedding server returned {len(vectors)} vectors for {count} texts; check [embeddings] model.",
                "malformed",
            )
        sizes = {len(v) for v in vectors}
        expected = self._dimension or (sizes.pop() if len(sizes) == 1 else 0)
        if not expected or any(len(v) != expected for v in vectors):
            got = sorted({len(v) for v in vectors})
            raise EmbeddingError(
                f"{self.model} returned vectors of {', '.join(map(str, got))} dimensions"
                + (f" instead of {self._dimension}" if self._dimension else "")
                + "; check [embeddings] model.",
                "dimension",
            )
        self._dimension = expected
        return vectors

    def _map_error(self, error: BaseException, secret: str | None) -> EmbeddingError:
        return map_embedding_error(
            error,
            model=self.model,
            api_base=self.api_base,
            api_key_env=self.api_key_env,
            timeout=self.timeout,
            secret=secret,
        )


def _field(item: Any, name: str) -> Any:
    return item[name] if isinstance(item, dict) else getattr(item, name)
