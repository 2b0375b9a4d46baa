"""A model endpoint's settings: what the chat model and the embedding model have in common."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reader.domain.chat_model import RetryPolicy


@dataclass(frozen=True)
class EndpointSettings:
    """Which model, where, with which key, how long to wait and how often to retry.

    [chat] and [embeddings] in the config file extend it with their own keys; the litellm adapters
    take it as it is. The key itself is never part of it (only the variable's name).
    """

    model: str = ""
    """A litellm model, e.g. "gpt-4o-mini", "text-embedding-3-small", "ollama/NAME", "openai/NAME"; empty
    means none (offline chat, lexical search)."""
    api_base: str = ""
    """Base URL of the endpoint, e.g. "http://127.0.0.1:8765/v1" for a local or self-hosted server."""
    api_key_env: str = ""
    """Name of the environment variable holding the API key (keys never live in files)."""
    timeout: float = 60.0
    """Seconds to wait for one request."""
    max_retries: int = 3
    """Retries of a rate-limited (429), failing (5xx) or timed-out call before giving up."""
    retry_backoff: float = 1.0
    """Seconds before the first retry; each further retry waits twice as long."""

    @property
    def retry(self) -> RetryPolicy:
        from reader.domain.chat_model import RetryPolicy  # the chat model's records load with the chat

        return RetryPolicy(self.max_retries, self.retry_backoff)
