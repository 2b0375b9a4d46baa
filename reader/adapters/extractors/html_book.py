"""Single-file HTML and XHTML books: the safe XHTML path, chapters at headings, synthetic pages."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from reader.adapters.extractors.book_images import ImageReader
from reader.adapters.extractors.common import check_file, check_size, clean_field, shown, title_from_filename
from reader.adapters.extractors.epub import page_visuals
from reader.adapters.extractors.epub_pages import FigurePlace, SpineDocument, synthetic_pages
from reader.adapters.extractors.pagination import TARGET_PAGE_CHARS
from reader.adapters.extractors.text_decoding import LANGUAGE_BYTES, text_language
from reader.adapters.extractors.text_metadata import HEADER_CHARS, stated_metadata
from reader.adapters.extractors.xhtml import (
    ANCHOR,
    HEADING,
    TEXT,
    Token,
    element_text,
    local_name,
    parse_xhtml,
    tokens,
)
from reader.domain.errors import ExtractionError
from reader.domain.extracted import ExtractedBook, ExtractedChapter, ExtractedPage
from reader.domain.images import BookImage
from reader.domain.models import NO_VISUALS
from reader.domain.ports import ProgressCallback

HTML_SUFFIXES = (".html", ".htm", ".xhtml")
MAX_HTML_BYTES = 64 * 1024 * 1024
"""A single-file book larger than this is refused (a whole novel is a few MB)."""
AUTHOR_META = frozenset(("author", "dc.creator", "dcterms.creator", "creator"))
SHORT_FRONT_CHARS = 300
"""Text before the first chapter heading shorter than this shares the first chapter's page."""
_MARK = "reader-heading-"
"""Prefix of the ids given to headings before the walk, so their level survives in the token stream."""


@dataclass(frozen=True)
class HtmlMetadata:
    """What a document's head says about the book."""

    title: str
    author: str
    language: str


def read_metadata(root: Any) -> HtmlMetadata:
    """Title from <title>, author from <meta name="author"> (or DC creator), language from lang."""
    title = author = ""
    language = clean_field(root.get("lang") or root.get("{http://www.w3.org/XML/1998/namespace}lang"))
    for element in root.iter():
        name = local_name(element)
        if name == "title" and not title:
            title = clean_field(element_text(element))
        elif name == "meta" and not author:
            if (element.get("name") or "").strip().lower() in AUTHOR_META:
                author = clean_field(element.get("content"))
        elif name == "body":
            break
    return HtmlMetadata(title, author, language)


def with_stated_fields(meta: HtmlMetadata, texts: list[str]) -> HtmlMetadata:
    """The head's metadata with what it lacks taken from the fields the text opens with (Project
    Gutenberg's HTML books keep "Author: ..." and "Language: ..." in a preformatted header, not in
    <meta> tags), the language else from its common words."""
    head, size = [], 0
    for text in texts:
        head.append(text)
        size += len(text) + 1
        if size >= LANGUAGE_BYTES:
            break
    opening = "\n".join(head)
    stated = stated_metadata(opening[:HEADER_CHARS])
    return HtmlMetadata(
        meta.title or stated.get("title", ""),
        meta.author or stated.get("author", ""),
        meta.language or stated.get("language") or text_language(opening.encode("utf-8")) or "",
    )


def mark_headings(root: Any) -> dict[int, int]:
    """Give every h1-h6 a marked id holding its rank; returns how often each level (1-6) occurs."""
    counts: dict[int, int] = {}
    for number, element in enumerate(e for e in root.iter() if local_name(e) in HEADING_NAMES):
        level = int(local_name(element)[1])
        counts[level] = counts.get(level, 0) + 1
        element.set("id", f"{_MARK}{level}-{number}")
    return counts


HEADING_NAMES = frozenset(f"h{n}" for n in range(1, 7))


def split_level(counts: dict[int, int]) -> int | None:
    """The heading level that starts documents: the topmost level seen twice, else the topmost."""
    if not counts:
        return None
    for level in sorted(counts):
        if counts[level] > 1:
            return level
    return min(counts)


def _marked_level(token: Token) -> int | None:
    kind, value = token
    if kind == ANCHOR and value.startswith(_MARK):
        return int(value[len(_MARK)])
    return None


def split_documents(stream: list[Token], level: int | None) -> list[SpineDocument]:
    """The token stream cut before each heading of `level`, as documents "#0", "#1", ..."""
    parts: list[list[Token]] = [[]]
    for index, token in enumerate(stream):
        following = stream[index + 1] if index + 1 < len(stream) else (TEXT, "")
        if token[0] == HEADING and level is not None and _marked_level(following) == level and parts[-1]:
            parts.append([])
        parts[-1].append(token)
    front = sum(len(value) for kind, value in parts[0] if kind == TEXT)
    if len(parts) > 1 and front < SHORT_FRONT_CHARS:
        parts[:2] = [parts[0] + parts[1]]  # a title or a dedication alone: keep it with the first chapter
    return [SpineDocument(f"#{i}", part) for i, part in enumerate(parts) if part]


def heading_chapters(
    docs: list[SpineDocument], places: dict[tuple[str, str | None], int], top: int | None, page_count: int
) -> list[ExtractedChapter]:
    """Chapters at the headings of the split level and the level below it, nested by level."""
    chapters: list[ExtractedChapter] = []
    if top is None:
        return chapters
    for doc in docs:
        heading = ""
        for token in doc.tokens:
            if token[0] == HEADING:
                heading = token[1]
                continue
            level = _marked_level(token)
            if level is None or not heading:
                continue
            if top <= level <= top + 1:
                page = places.get((doc.path, token[1]))
                if page is not None and page_count:
                    chapters.append(ExtractedChapter(heading, min(page, page_count - 1) + 1, level - top))
            heading = ""
    return chapters


class HtmlExtractor:
    """Reads one HTML or XHTML file as a book."""

    def __init__(self, target_chars: int = TARGET_PAGE_CHARS, max_bytes: int = MAX_HTML_BYTES) -> None:
        self.target_chars = target_chars
        self.max_bytes = max_bytes

    def extract(
        self, path: Path, password: str | None = None, progress: ProgressCallback | None = None
    ) -> ExtractedBook:
        """Read the document's text, headings and metadata."""
        size = check_file(path)
        check_size(path, size, self.max_bytes, "a single-file book")
        if progress:
            progress(0, 1)
        book = extract_markup(path.read_bytes(), path, self.target_chars, "html")
        if progress:
            progress(1, 1)
        return book


def extract_markup(data: bytes, path: Path, target_chars: int, book_format: str) -> ExtractedBook:
    """An ExtractedBook from one (X)HTML document's bytes (shared with MOBI's unpacked HTML)."""
    parsed = parse_xhtml(data)
    if parsed.root is None:
        raise ExtractionError(f"{shown(path)} is not readable as HTML or XHTML.")
    meta = read_metadata(parsed.root)
    counts = mark_headings(parsed.root)
    level = split_level(counts)
    docs = split_documents(tokens(parsed.root), level)
    if not any(kind == TEXT and value.strip() for doc in docs for kind, value in doc.tokens):
        raise ExtractionError(f"{shown(path)} contains no readable text.")
    pages = synthetic_pages(docs, target_chars)
    if not (meta.title and meta.author and meta.language):
        meta = with_stated_fields(meta, pages.texts)
    visuals = page_visuals(pages)
    images = html_pictures(pages.figures, path.parent if book_format == "html" else None)
    strict = path.suffix.lower() == ".xhtml"
    warnings = (
        ["Read the malformed XHTML leniently (text may be incomplete)."]
        if parsed.malformed and strict
        else []
    )
    return ExtractedBook(
        title=meta.title or title_from_filename(path),
        author=meta.author,
        language=meta.language,
        format=book_format,
        pages=[
            ExtractedPage(label, text, visuals.get(i, NO_VISUALS))
            for i, (label, text) in enumerate(zip(pages.labels, pages.texts, strict=True))
        ],
        chapters=heading_chapters(docs, pages.places, level, len(pages.texts)),
        warnings=warnings,
        pagination="synthetic",
        images=images,
    )


def html_pictures(figures: list[FigurePlace], folder: Path | None) -> list[BookImage]:
    """Pictures a single-file book carries inside itself (`data:` URLs) or links to beside it, inside its
    folder (`folder`; None: none). External links keep their alt text."""

    def locate(document: str, link: str) -> str | None:
        if link.startswith("data:image/"):
            return link
        if folder is None or ":" in link.split("/", 1)[0]:
            return None
        target = (folder / unquote(link.split("#", 1)[0].split("?", 1)[0])).resolve()
        return str(target) if target.is_relative_to(folder.resolve()) else None

    def load(key: str) -> bytes | None:
        if not key.startswith("data:"):
            try:
                return Path(key).read_bytes() if Path(key).is_file() else None
            except OSError:
                return None
        import base64
        import binascii

        head, _, body = key.partition(",")
        if ";base64" not in head:
            return None
        try:
            return base64.b64decode(body, validate=False)
        except (binascii.Error, ValueError):
            return None

    return ImageReader(locate, load).images(figures)
