"""EPUB navigation: the table of contents and print page-list from the EPUB3 nav or the EPUB2 NCX."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reader.adapters.extractors.common import clean_field
from reader.adapters.extractors.epub_container import EpubArchive, parse_xml_leniently, resolve_href
from reader.adapters.extractors.xhtml import element_text, epub_types, local_name, parse_xhtml

MAX_DEPTH = 16


@dataclass(frozen=True)
class NavPoint:
    """A navigation entry: a title (or page label) pointing at a document and optional anchor."""

    title: str
    path: str
    fragment: str | None
    level: int = 0


@dataclass
class Navigation:
    """The book's table of contents and page-list (each empty when absent)."""

    toc: list[NavPoint]
    pages: list[NavPoint]


def _text(element: Any) -> str:
    return clean_field(element_text(element))


def _nav_list(base: str, ol: Any, level: int, out: list[NavPoint]) -> None:
    """Entries of a nav <ol>: each <li> holds an <a> (or a <span> heading) and maybe a nested <ol>."""
    if level >= MAX_DEPTH:
        return
    for li in (child for child in ol if local_name(child) == "li"):
        label = next((c for c in li if local_name(c) in ("a", "span")), None)
        if label is not None and local_name(label) == "a" and label.get("href"):
            path, fragment = resolve_href(base, label.get("href"))
            title = _text(label) or clean_field(label.get("title"))
            if path is not None and title:
                out.append(NavPoint(title, path, fragment, level))
        for nested in (c for c in li if local_name(c) == "ol"):
            _nav_list(base, nested, level + 1, out)


def read_nav(archive: EpubArchive, nav_path: str) -> Navigation:
    """The toc and page-list of an EPUB3 navigation document."""
    data = archive.read(nav_path)
    root = parse_xhtml(data).root if data else None
    toc: list[NavPoint] = []
    pages: list[NavPoint] = []
    if root is None:
        return Navigation(toc, pages)
    for nav in (e for e in root.iter() if local_name(e) == "nav"):
        kinds = epub_types(nav)
        target = toc if "toc" in kinds and not toc else pages if "page-list" in kinds and not pages else None
        if target is None:
            continue
        for ol in (c for c in nav if local_name(c) == "ol"):
            _nav_list(nav_path, ol, 0, target)
    return Navigation(toc, pages)


def _ncx_point(base: str, element: Any, level: int) -> NavPoint | None:
    nav_label = next((e for e in element if local_name(e) == "navlabel"), None)
    label = (
        next((e for e in nav_label.iter() if local_name(e) == "text"), None)
        if nav_label is not None
        else None
    )
    content = next((e for e in element if local_name(e) == "content"), None)
    if content is None or not content.get("src"):
        return None
    path, fragment = resolve_href(base, content.get("src"))
    title = _text(label) if label is not None else ""
    title = title or clean_field(element.get("value"))
    if path is None or not title:
        return None
    return NavPoint(title, path, fragment, level)


def _ncx_points(base: str, parent: Any, level: int, out: list[NavPoint]) -> None:
    if level >= MAX_DEPTH:
        return
    for point in (c for c in parent if local_name(c) == "navpoint"):
        entry = _ncx_point(base, point, level)
        if entry is not None:
            out.append(entry)
        _ncx_points(base, point, level + 1, out)


def read_ncx(archive: EpubArchive, ncx_path: str) -> Navigation:
    """The navMap and pageList of an EPUB2 NCX file."""
    data = archive.read(ncx_path)
    root = parse_xml_leniently(data) if data else None
    toc: list[NavPoint] = []
    pages: list[NavPoint] = []
    if root is None:
        return Navigation(toc, pages)
    for nav_map in (e for e in root.iter() if local_name(e) == "navmap"):
        _ncx_points(ncx_path, nav_map, 0, toc)
        break
    for page_list in (e for e in root.iter() if local_name(e) == "pagelist"):
        for target in (e for e in page_list if local_name(e) == "pagetarget"):
            entry = _ncx_point(ncx_path, target, 0)
            if entry is not None:
                pages.append(entry)
        break
    return Navigation(toc, pages)
