"""Where reader keeps its files: the library database, the config file, user themes and caches."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "reader"


def data_dir() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def config_dir() -> Path:
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def cache_dir() -> Path:
    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def database_path(override: str | os.PathLike[str] | None = None) -> Path:
    """The library file: `--db`, else READER_DB, else the user data dir's library.db."""
    if override:
        return Path(override).expanduser()
    if env := os.environ.get("READER_DB"):
        return Path(env).expanduser()
    return data_dir() / "library.db"


def config_path() -> Path:
    """The config file: READER_CONFIG, else the user config dir's config.toml."""
    if env := os.environ.get("READER_CONFIG"):
        return Path(env).expanduser()
    return config_dir() / "config.toml"


def user_themes_dir() -> Path:
    return config_dir() / "themes"


def saved_css_path() -> Path:
    """The app's parsed CSS, kept between runs (reader.tui.saved_css)."""
    return cache_dir() / "textual-css.pickle"


def saved_code_path() -> Path:
    """Dataclasses' compiled methods, kept between runs (reader.saved_code); one file per Python version."""
    import sys

    return cache_dir() / f"dataclass-code-{sys.implementation.cache_tag}.marshal"


def saved_patterns_path() -> Path:
    """Regular expressions' compiled programs, kept between runs (reader.saved_code); one file per Python."""
    import sys

    return cache_dir() / f"regex-code-{sys.implementation.cache_tag}.marshal"
