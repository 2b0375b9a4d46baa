"""What the litellm chat model and embedding provider share: the endpoint, the key, lazy litellm."""

from __future__ import annotations

from functools import cache
from typing import Any, ClassVar

from reader.adapters.llm.errors import endpoint_key
from reader.domain.endpoint import EndpointSettings
from reader.domain.errors import EndpointError
from reader.startup import before_litellm, configure_litellm


@cache
def load_litellm() -> Any:
    """Import litellm once, offline and quiet."""
    before_litellm()
    import litellm

    configure_litellm(litellm)  # quiet, no retries behind our back
    return litellm


class LitellmEndpoint:
    """A litellm model at an endpoint, with its key from configuration or the environment."""

    section: ClassVar[str] = ""
    """The config section that names the model, for messages ("chat", "embeddings")."""
    error: ClassVar[type[EndpointError]] = EndpointError
    """What a missing key raises."""

    def __init__(self, settings: EndpointSettings, *, api_key: str | None = None) -> None:
        self.settings = settings
        self._api_key = api_key

    @property
    def model(self) -> str:
        return self.settings.model

    @property
    def api_base(self) -> str:
        return self.settings.api_base

    @property
    def api_key_env(self) -> str:
        return self.settings.api_key_env

    @property
    def timeout(self) -> float:
        return self.settings.timeout

    @property
    def name(self) -> str:
        return self.model

    @property
    def litellm(self) -> Any:
        """litellm, imported on first use (2 s): a missing key is reported before paying for it."""
        return load_litellm()

    def __repr__(self) -> str:  # never shows the key
        return f"{type(self).__name__}({self.model!r}, api_base={self.api_base!r})"

    def _key(self) -> str | None:
        return endpoint_key(self._api_key, self.api_key_env, self.api_base, self.section, self.error)
