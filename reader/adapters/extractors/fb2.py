"""FictionBook 2 books (.fb2 and .fb2.zip): safe XML, sections as chapters, synthetic pages."""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass, field
from html.entities import html5
from pathlib import Path
from typing import Any

from lxml import etree

from reader.adapters.extractors.book_images import ImageReader
from reader.adapters.extractors.common import check_file, check_size, clean_field, shown, title_from_filename
from reader.adapters.extractors.epub import page_visuals
from reader.adapters.extractors.epub_container import MAX_RATIO, EpubArchive
from reader.adapters.extractors.epub_pages import SpineDocument, synthetic_pages
from reader.adapters.extractors.pagination import TARGET_PAGE_CHARS
from reader.adapters.extractors.text_decoding import decode_text
from reader.adapters.extractors.xhtml import (
    BREAK,
    HEADING,
    IMAGE,
    IMAGE_REF,
    REF_SEPARATOR,
    TEXT,
    UNKNOWN_IMAGE_AREA,
    Token,
    element_text,
    local_name,
    parse_xml,
    strip_doctype,
)
from reader.domain.errors import ExtractionError
from reader.domain.extracted import ExtractedBook, ExtractedChapter, ExtractedPage
from reader.domain.models import NO_VISUALS
from reader.domain.ports import ProgressCallback

MAX_FB2_BYTES = 128 * 1024 * 1024
"""Largest FB2 document read (unpacked); FB2 carries its images inline as base64, so allow room."""
MAX_SECTION_DEPTH = 8
"""Sections nested deeper than this are read as text of their parent, not as chapters."""
_XML_ENCODING = re.compile(rb"""^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._\-]+)["']""")
XLINK = "{http://www.w3.org/1999/xlink}href"
BLOCKS = frozenset(
    "section p v subtitle text-author date epigraph cite poem stanza table tr annotation".split()
)
SKIPPED = frozenset(("binary", "description", "stylesheet"))


@dataclass
class _Walk:
    """The documents a body's sections become, and the chapters that start them."""

    docs: list[SpineDocument] = field(default_factory=list)
    chapters: list[tuple[str, int, str]] = field(default_factory=list)
    """(title, level, document path) per section with a title."""
    images: int = 0
    current: list[Token] = field(default_factory=list)

    def start(self) -> None:
        """Begin a new document (a chapter starts a page)."""
        if any(kind == TEXT and value.strip() for kind, value in self.current):
            self.docs.append(SpineDocument(f"#{len(self.docs)}", self.current))
            self.current = []

    def finish(self) -> None:
        self.start()


def read_fb2_bytes(path: Path, max_bytes: int = MAX_FB2_BYTES, max_ratio: float = MAX_RATIO) -> bytes:
    """The FB2 document's bytes: the file itself, or the one .fb2 inside a checked .fb2.zip."""
    size = check_file(path)
    if not zipfile.is_zipfile(path):
        check_size(path, size, max_bytes, "an FB2 book")
        return path.read_bytes()
    with EpubArchive(path, max_bytes, max_ratio) as archive:
        members = [name for name in archive.names if name.lower().endswith(".fb2")]
        if not members:
            raise ExtractionError(f"{shown(path)} is a zip archive with no .fb2 book inside.")
        data = archive.read(members[0])
    if data is None:
        raise ExtractionError(f"{shown(path)}: the .fb2 inside the zip archive cannot be read.")
    return data


def parse_fb2(data: bytes, path: Path) -> tuple[Any, bool]:
    """The FictionBook root and whether it was malformed; entities are never expanded, DTDs never loaded."""
    data = data.lstrip()
    if not _XML_ENCODING.match(data[:200]):
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            data = decode_text(data, "FB2 book").text.encode("utf-8")
    bare = strip_doctype(data)
    for attempt, recover in ((bare, False), (bare, True)):
        try:
            root = parse_xml(attempt, recover=recover)
        except (etree.XMLSyntaxError, ValueError):
            continue
        if root is not None and local_name(root) == "fictionbook":
            return root, recover
    raise ExtractionError(f"{shown(path)} is not a readable FB2 book (no FictionBook XML).")


def _child(element: Any, *names: str) -> Any:
    for name in names:
        element = next((c for c in element if local_name(c) == name), None) if element is not None else None
    return element


def description(root: Any) -> tuple[str, str, str]:
    """(title, author, language) from description/title-info."""
    info = _child(root, "description", "title-info")
    if info is None:
        return "", "", ""
    title = (
        clean_field(element_text(_child(info, "book-title")))
        if _child(info, "book-title") is not None
        else ""
    )
    authors: list[str] = []
    for author in (c for c in info if local_name(c) == "author"):
        parts = [_child(author, n) for n in ("first-name", "middle-name", "last-name")]
        name = " ".join(clean_field(element_text(p)) for p in parts if p is not None).strip()
        nickname = _child(author, "nickname")
        name = name or (clean_field(element_text(nickname)) if nickname is not None else "")
        if name:
            authors.append(" ".join(name.split()))
    lang = _child(info, "lang")
    language = clean_field(element_text(lang)) if lang is not None else ""
    return title, ", ".join(dict.fromkeys(authors)), language


def _title_text(element: Any) -> str:
    """A title's paragraphs on one line, joined with '. ' when it has several."""
    lines = [element_text(p) for p in element if local_name(p) in ("p", "subtitle")]
    return ". ".join(line for line in lines if line) or element_text(element)


def walk_body(body: Any, walk: _Walk, base_level: int, note_body: bool) -> None:
    """Turn a body's sections into documents of text, heading and image tokens."""

    def text(value: str | None) -> None:
        if value:
            walk.current.append((TEXT, value))

    def visit(element: Any, depth: int) -> None:
        name = local_name(element)
        if isinstance(element, etree._Entity):
            # No DTD is loaded: known HTML names become their character, anything else nothing.
            text(html5.get(f"{element.name};", ""))
            return
        if not name or name in SKIPPED:
            return
        if name == "section" and depth < MAX_SECTION_DEPTH and not note_body:
            title = _child(element, "title")
            heading = _title_text(title) if title is not None else ""
            if heading or depth == 0:
                walk.start()
            if heading:
                walk.chapters.append((heading, base_level + depth, f"#{len(walk.docs)}"))
                walk.current.append((HEADING, heading))
            for child in element:
                visit(child, depth + 1)
                text(child.tail)
            walk.current.append((BREAK, ""))
            return
        if name == "image":
            walk.images += 1
            walk.current.append((IMAGE, str(UNKNOWN_IMAGE_AREA)))
            alt = " ".join((element.get("alt") or element.get("title") or "").split())
            walk.current.append((IMAGE_REF, f"{element.get(XLINK) or ''}{REF_SEPARATOR}{alt}"))
            return
        if name == "a" and element.get("type") == "note":
            text(f"[{element_text(element)}]")
            return
        block = name in BLOCKS or name in ("title", "empty-line")
        if block:
            walk.current.append((BREAK, ""))
        text(element.text)
        for child in element:
            visit(child, depth)
            text(child.tail)
        if block:
            walk.current.append((BREAK, ""))

    if note_body:
        walk.start()
        walk.chapters.append(("Notes", base_level, f"#{len(walk.docs)}"))
        walk.current.append((HEADING, "Notes"))
    for child in body:
        visit(child, 0)


def binaries(root: Any) -> ImageReader:
    """The book's pictures: its base64 `<binary>` elements, found by the id an image's `l:href` names."""
    by_id = {c.get("id"): c for c in root if local_name(c) == "binary" and c.get("id")}

    def load(key: str) -> bytes | None:
        import base64
        import binascii

        element = by_id.get(key)
        if element is None or not element.text:
            return None
        try:
            return base64.b64decode("".join(element.text.split()), validate=False)
        except (binascii.Error, ValueError):
            return None

    def locate(document: str, link: str) -> str | None:
        return link[1:] if link.startswith("#") else None

    return ImageReader(locate, load)


def cover_id(root: Any) -> str | None:
    """The binary id description/title-info/coverpage's image names."""
    page = _child(root, "description", "title-info", "coverpage")
    image = next((c for c in page if local_name(c) == "image"), None) if page is not None else None
    href = image.get(XLINK) if image is not None else None
    return href[1:] if href and href.startswith("#") else None


class Fb2Extractor:
    """Reads FictionBook 2 books, plain or zipped."""

    def __init__(self, target_chars: int = TARGET_PAGE_CHARS, max_bytes: int = MAX_FB2_BYTES) -> None:
        self.target_chars = target_chars
        self.max_bytes = max_bytes

    def extract(
        self, path: Path, password: str | None = None, progress: ProgressCallback | None = None
    ) -> ExtractedBook:
        """Read the description, the bodies (the main text, then notes) and the images' places."""
        if progress:
            progress(0, 1)
        root, malformed = parse_fb2(read_fb2_bytes(path, self.max_bytes), path)
        title, author, language = description(root)
        walk = _Walk()
        bodies = [c for c in root if local_name(c) == "body"]
        for index, body in enumerate(bodies):
            walk_body(body, walk, 0, index > 0 and (body.get("name") or "").lower() in ("notes", "comments"))
        walk.finish()
        if not walk.docs:
            raise ExtractionError(f"{shown(path)} contains no readable text.")
        pages = synthetic_pages(walk.docs, self.target_chars)
        chapters = []
        for heading, level, doc_path in walk.chapters:
            page = pages.page_of((doc_path, None))
            if page is not None:
                chapters.append(ExtractedChapter(heading, page + 1, level))
        warnings = ["Read the malformed FB2 leniently (text may be incomplete)."] if malformed else []
        visuals = page_visuals(pages)
        pictures = binaries(root)
        images = pictures.images(pages.figures, cover_id(root))
        warnings += pictures.warnings()
        if progress:
            progress(1, 1)
        return ExtractedBook(
            title=title
            or title_from_filename(Path(path.stem) if path.stem.lower().endswith(".fb2") else path),
            author=author,
            language=language,
            format="fb2",
            pages=[
                ExtractedPage(label, text, visuals.get(i, NO_VISUALS))
                for i, (label, text) in enumerate(zip(pages.labels, pages.texts, strict=True))
            ],
            chapters=chapters,
            warnings=warnings,
            pagination="synthetic",
            images=images,
        )
