"""Themes as TOML data files, validated and turned into Textual themes."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

from textual.color import Color, ColorParseError
from textual.theme import Theme

import reader

DEFAULT_THEME = "reader-dark"
"""Used when nothing is chosen, or the chosen theme is missing or broken."""

STOCK_THEMES = ("textual-dark", "textual-light")
"""Textual's own themes offered beside reader's; its other stock themes are not (they have no page
colours of their own, and twenty of them crowd the theme picker)."""

COLOR_KEYS = (
    "primary",
    "secondary",
    "accent",
    "warning",
    "error",
    "success",
    "foreground",
    "background",
    "surface",
    "panel",
    "boost",
)
NUMBER_KEYS = ("luminosity_spread", "text_alpha")

APP_VARIABLES = {
    "page-foreground": "foreground",
    "page-background": "background",
    "page-heading": "primary",
    "citation": "accent",
    "page-highlight": "warning-muted",
    "page-search-hit": "accent-muted",
    "picture-caption": "secondary",
}
"""reader's own CSS variables, each defaulting to a Textual colour a theme file may leave out."""


class ThemeError(ValueError):
    """A theme file that cannot be used; the message names the file and the problem."""


class LoadedThemes(NamedTuple):
    """Themes found in the theme folders plus one message per broken file."""

    themes: list[Theme]
    errors: list[str]


def builtin_themes_dir() -> Path:
    """The themes shipped with reader: the package copy, else the repository's themes/ folder."""
    package = Path(reader.__file__).parent
    for candidate in (package / "themes", package.parent / "themes"):
        if candidate.is_dir() and any(candidate.glob("*.toml")):
            return candidate
    return package / "themes"


def _color(value: Any, key: str, source: str) -> str:
    if not isinstance(value, str):
        raise ThemeError(f'{source}: {key} must be a colour string like "#1e2128".')
    try:
        Color.parse(value)
    except ColorParseError:
        raise ThemeError(f"{source}: {key} = {value!r} is not a colour.") from None
    return value


def theme_from_data(data: dict[str, Any], source: str, default_name: str) -> Theme:
    """Validate one theme's TOML data and build the Textual theme."""
    known = {"name", "dark", "variables", *COLOR_KEYS, *NUMBER_KEYS}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ThemeError(f"{source}: unknown key '{unknown[0]}'; known keys: {', '.join(sorted(known))}.")
    name = data.get("name", default_name)
    if not isinstance(name, str) or not name.strip():
        raise ThemeError(f"{source}: name must be a non-empty string.")
    if "primary" not in data:
        raise ThemeError(f"{source}: a theme needs at least a primary colour.")
    colors = {key: _color(data[key], key, source) for key in COLOR_KEYS if key in data}
    numbers: dict[str, float] = {}
    for key in NUMBER_KEYS:
        if key in data:
            value = data[key]
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ThemeError(f"{source}: {key} must be a number.")
            numbers[key] = float(value)
    dark = data.get("dark", True)
    if not isinstance(dark, bool):
        raise ThemeError(f"{source}: dark must be true or false.")
    variables = data.get("variables", {})
    if not isinstance(variables, dict) or not all(isinstance(v, str) for v in variables.values()):
        raise ThemeError(f"{source}: [variables] must map names to strings.")
    for key in APP_VARIABLES:
        if key in variables:
            _color(variables[key], f"variables.{key}", source)
    return Theme(name=name.strip(), dark=dark, variables=dict(variables), **colors, **numbers)  # type: ignore[arg-type]


def load_theme_file(path: Path) -> Theme:
    """Read one theme file; ThemeError says what is wrong with it."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ThemeError(f"{path}: cannot read the theme ({error.strerror or error}).") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ThemeError(f"{path}: not valid TOML ({error}).") from None
    return theme_from_data(data, str(path), path.stem)


def load_themes(folders: Iterable[Path]) -> LoadedThemes:
    """Every *.toml theme in `folders` (later folders override earlier ones by name)."""
    errors: list[str] = []
    by_name: dict[str, Theme] = {}
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.toml")):
            try:
                theme = load_theme_file(path)
            except ThemeError as error:
                errors.append(str(error))
                continue
            by_name[theme.name] = theme
    return LoadedThemes(list(by_name.values()), errors)


READABLE_TEXT = ("citation",)
"""Variables used as text on the page or the panes: derived ones are made readable (READABLE_CONTRAST)."""
READABLE_CONTRAST = 4.5
"""WCAG AA contrast for text against its background."""


def contrast(one: Color, other: Color) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""

    def luminance(color: Color) -> float:
        def channel(value: int) -> float:
            c = value / 255
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

        return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b)

    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def readable_on(color: str, background: str) -> str:
    """`color`, darkened on a light background or lightened on a dark one until it reads as text."""
    try:
        text, back = Color.parse(color), Color.parse(background)
    except ColorParseError:
        return color
    step = 0.05
    for _ in range(20):
        if contrast(text, back) >= READABLE_CONTRAST:
            break
        text = text.darken(step) if back.brightness > 0.5 else text.lighten(step)
    return text.hex


def derived_variables(variables: dict[str, str]) -> dict[str, str]:
    """Fill reader's own variables a theme left out from the theme's Textual colours (text ones readable
    on the theme's background: Textual's light theme has a pale orange accent)."""
    filled = dict(variables)
    for name, source in APP_VARIABLES.items():
        if name not in filled and source in filled:
            filled[name] = filled[source]
            if name in READABLE_TEXT and "background" in filled:
                filled[name] = readable_on(filled[name], filled["background"])
    return filled
