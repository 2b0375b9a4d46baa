"""The configuration file (TOML): every key, its default and what it does."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from reader.domain.endpoint import EndpointSettings
from reader.domain.errors import ReaderError


@dataclass(frozen=True)
class EmbeddingsConfig(EndpointSettings):
    """[embeddings]: the embedding model for semantic and hybrid search (none means lexical search).

    model, api_base, api_key_env, max_retries and retry_backoff: see EndpointSettings.
    """

    timeout: float = 30.0
    """Seconds to wait for one embedding request."""
    batch_size: int = 64
    """Texts per embedding request."""


@dataclass(frozen=True)
class ChatConfig(EndpointSettings):
    """[chat]: the language model behind the chat pane and `reader ask` (empty model: offline).

    model, api_base, api_key_env, timeout, max_retries and retry_backoff: see EndpointSettings.
    """

    tool_calling: str = "auto"
    """"auto" (ask litellm whether the model calls tools), "on" or "off" (always retrieve first)."""
    max_tool_calls: int = 8
    """Tool calls allowed per question before the model must answer."""
    context_window: int = 0
    """Tokens the model accepts; 0 asks litellm and falls back to 8192."""
    pdf_input: str = "auto"
    """"auto" (ask litellm whether the model reads PDFs), "on" or "off": pages with figures go to the
    model as one-page PDFs when on, else as text with a note that they have figures."""


IMAGE_MODES = ("auto", "kitty", "sixel", "cells", "off")


@dataclass(frozen=True)
class UiConfig:
    """[ui]: the app's look."""

    theme: str = "reader-dark"
    """Theme name: a file in themes/ or the user themes dir, or a built-in Textual theme."""
    images: str = "auto"
    """How pictures are drawn: "auto" (asks the terminal at start-up: Kitty graphics, Sixel, else
    half-block cells), "kitty", "sixel", "cells" or "off" (the alt text in a frame)."""


@dataclass(frozen=True)
class Config:
    """The whole configuration."""

    embeddings: EmbeddingsConfig = field(default_factory=EmbeddingsConfig)
    chat: ChatConfig = field(default_factory=ChatConfig)
    ui: UiConfig = field(default_factory=UiConfig)
    path: Path | None = None


def _section(cls: type, data: Any, name: str, path: Path) -> Any:
    if not isinstance(data, dict):
        raise ReaderError(f"{path}: [{name}] must be a table.")
    known = {f.name: f for f in fields(cls)}
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in known:
            raise ReaderError(f"{path}: unknown key '{key}' in [{name}]; known keys: {', '.join(known)}.")
        default = known[key].default
        expected = type(default)
        if expected is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, expected) or isinstance(value, bool) != isinstance(default, bool):
            kind = {"str": "a string", "int": "a whole number", "float": "a number", "bool": "true or false"}
            raise ReaderError(
                f"{path}: [{name}] {key} must be {kind.get(expected.__name__, expected.__name__)}."
            )
        values[key] = value
    return cls(**values)


def load_config(path: Path | None = None) -> Config:
    """Read the config file; a missing file means the defaults (everything offline)."""
    from reader.locations import config_path

    path = path or config_path()
    if not path.exists():
        return Config(path=path)
    import tomllib  # only when there is a file to read (start-up without one skips it)

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ReaderError(f"{path}: not valid TOML ({error}).") from None
    sections = {"embeddings": EmbeddingsConfig, "chat": ChatConfig, "ui": UiConfig}
    unknown = set(data) - set(sections)
    if unknown:
        raise ReaderError(f"{path}: unknown section [{sorted(unknown)[0]}]; known: {', '.join(sections)}.")
    parsed = {name: _section(cls, data.get(name, {}), name, path) for name, cls in sections.items()}
    if parsed["ui"].images not in IMAGE_MODES:
        raise ReaderError(f"{path}: [ui] images must be one of {', '.join(IMAGE_MODES)}.")
    for key in ("tool_calling", "pdf_input"):
        if getattr(parsed["chat"], key) not in {"auto", "on", "off"}:
            raise ReaderError(f"{path}: [chat] {key} must be auto, on or off.")
    return Config(path=path, **parsed)


def api_key(env_name: str) -> str | None:
    """The API key from the named environment variable, if set."""
    return os.environ.get(env_name) if env_name else None
