"""EPUB books: checked zip, safe XML, print page-list when present, else stable synthetic pages.

ebooklib is not used for reading: its reader loads every manifest item eagerly (one missing image fails the
whole book) and decompresses members without limits. The OPF, navigation and content are read here with
zipfile and a safe lxml parser instead.
"""

from __future__ import annotations

from pathlib import Path

from reader.adapters.extractors.book_images import ImageReader, split_ref
from reader.adapters.extractors.common import plural, shown, title_from_filename
from reader.adapters.extractors.epub_container import (
    MAX_RATIO,
    MAX_UNPACKED_BYTES,
    EpubArchive,
    Package,
    check_drm,
    read_package,
    resolve_href,
)
from reader.adapters.extractors.epub_nav import Navigation, NavPoint, read_nav, read_ncx
from reader.adapters.extractors.epub_pages import (
    BookPages,
    SpineDocument,
    Target,
    print_pages,
    synthetic_pages,
)
from reader.adapters.extractors.epub_picture_book import is_picture_book, picture_book
from reader.adapters.extractors.pagination import TARGET_PAGE_CHARS
from reader.adapters.extractors.xhtml import HEADING_LEVEL, IMAGE_REF, TEXT, parse_xhtml, tokens
from reader.domain.book_matter import matter_title
from reader.domain.errors import ExtractionError
from reader.domain.extracted import ExtractedBook, ExtractedChapter, ExtractedPage
from reader.domain.models import NO_VISUALS, PageVisuals
from reader.domain.ports import ProgressCallback
from reader.domain.visuals import score_visual_importance

GENERIC_NAV_TITLES = frozenset(("start", "begin", "beginning", "begin reading", "cover", "title", "text"))
"""Navigation entries that name no part of the story."""
FLAT_NAV_HEADINGS = 4
FLAT_NAV_RATIO = 3
"""Navigation is too flat when the book has this many headings and this many times its story entries."""
CONTENT_TYPES = frozenset(("application/xhtml+xml", "text/html", "application/xml", "text/xml", ""))
SVG_TYPE = "image/svg+xml"
"""An SVG content document: EPUB 3 allows it in the spine (its `<text>` is the page's text)."""
NOT_CONTENT_SUFFIXES = tuple(".css .jpg .jpeg .png .gif .svg .webp .ncx .otf .ttf .woff .woff2".split())


def _names(items: list[str], limit: int = 5) -> str:
    return ", ".join(items[:limit]) + (f" and {len(items) - limit} more" if len(items) > limit else "")


class EpubExtractor:
    """Reads EPUB 2 and 3 books."""

    def __init__(
        self,
        target_chars: int = TARGET_PAGE_CHARS,
        max_unpacked_bytes: int = MAX_UNPACKED_BYTES,
        max_ratio: float = MAX_RATIO,
    ) -> None:
        self.target_chars = target_chars
        self.max_unpacked_bytes = max_unpacked_bytes
        self.max_ratio = max_ratio

    def extract(
        self, path: Path, password: str | None = None, progress: ProgressCallback | None = None
    ) -> ExtractedBook:
        """Read metadata, spine text, pages and chapters."""
        with EpubArchive(path, self.max_unpacked_bytes, self.max_ratio) as archive:
            check_drm(archive)
            package = read_package(archive)
            warnings: list[str] = []
            docs = read_spine(archive, package, warnings, progress)
            missing = missing_resources(archive, package)
            navigation = read_navigation(archive, package)
            if is_picture_book(docs, package):
                pictured = picture_book(path, archive, package, docs, navigation, warnings)
                if not any(page.picture for page in pictured.pages):
                    raise ExtractionError(
                        f"{shown(path)}: its pages are pictures, but none is in the archive."
                    )
                return pictured
            pictures = read_pictures(archive, docs, package.cover_path)
        if not any(kind == TEXT and value.strip() for doc in docs for kind, value in doc.tokens):
            reason = warnings[0].rstrip(".") if warnings else "image-only or empty?"
            raise ExtractionError(f"{shown(path)} contains no readable text ({reason}).")
        if missing:
            resources = plural(len(missing), "resource", "resources")
            warnings.append(
                f"{resources} listed in the book {'is' if len(missing) == 1 else 'are'} missing from the "
                f"archive (figures or styles will not show; the text is complete): {_names(missing)}."
            )
        levels = heading_levels(docs, navigation.toc)
        breaks = {} if levels else toc_breaks(navigation.toc)
        book, pagination = self._pages(docs, navigation, warnings, breaks, levels)
        chapters = (
            (headed_chapters(book, levels) if levels and pagination == "synthetic" else [])
            or toc_chapters(book, navigation.toc, warnings)
            or heading_chapters(book, docs)
        )
        visuals = page_visuals(book)
        pages = [
            ExtractedPage(label, text, visuals.get(i, NO_VISUALS))
            for i, (label, text) in enumerate(zip(book.labels, book.texts, strict=True))
        ]
        images = pictures.images(book.figures, package.cover_path)
        warnings += pictures.warnings()
        return ExtractedBook(
            title=package.title or title_from_filename(path),
            author=package.author,
            language=package.language,
            format="epub",
            pages=pages,
            chapters=chapters,
            warnings=warnings,
            pagination=pagination,
            images=images,
        )

    def _pages(
        self,
        docs: list[SpineDocument],
        navigation: Navigation,
        warnings: list[str],
        breaks: dict[str, set[str]],
        levels: frozenset[int],
    ) -> tuple[BookPages, str]:
        if navigation.pages:
            page_list: dict[Target, str] = {}
            for point in navigation.pages:
                page_list.setdefault((point.path, point.fragment), point.title)
            book = print_pages(docs, page_list)
            if book.markers_found:
                missing = len(page_list) - book.markers_found
                if missing:
                    warnings.append(
                        f"{missing} of {len(page_list)} page-list entries point to places missing from the "
                        "text."
                    )
                return book, "print"
            warnings.append("The page-list points nowhere in the text; using synthetic pages instead.")
        else:
            book = print_pages(docs, None)
            if book.markers_found:
                return book, "print"
        return synthetic_pages(docs, self.target_chars, breaks, levels), "synthetic"


def read_pictures(archive: EpubArchive, docs: list[SpineDocument], cover: str | None) -> ImageReader:
    """Every picture the spine links to (and the cover), read while the archive is open."""
    pictures = ImageReader(lambda document, link: resolve_href(document, link)[0], archive.read)
    for doc in docs:
        for kind, value in doc.tokens:
            if kind == IMAGE_REF and (link := split_ref(value)[0]):
                if (key := pictures.locate(doc.path, link)) is not None:
                    pictures.read(key)
    if cover is not None:
        pictures.read(cover)
    return pictures


def page_visuals(book: BookPages) -> dict[int, PageVisuals]:
    """Visuals of the 0-based pages that have images, scored from the markup's sizes and the page's text."""
    found: dict[int, tuple[int, float]] = {}
    for page, area in book.images:
        count, total = found.get(page, (0, 0.0))
        found[page] = (count + 1, total + area)
    visuals: dict[int, PageVisuals] = {}
    for page, (count, total) in found.items():
        area = round(min(1.0, total), 3)
        importance = score_visual_importance(area, len(book.texts[page]), area)
        visuals[page] = PageVisuals(count, area, 0.0, importance)
    return visuals


def read_spine(
    archive: EpubArchive, package: Package, warnings: list[str], progress: ProgressCallback | None
) -> list[SpineDocument]:
    """The spine's readable documents as token streams; what cannot be read is named in `warnings`."""
    docs: list[SpineDocument] = []
    unreadable: list[str] = []
    malformed: list[str] = []
    seen: set[str] = set()
    total = len(package.spine)
    for number, idref in enumerate(package.spine, start=1):
        if progress:
            progress(number - 1, total)
        item = package.manifest.get(idref)
        if item is None:
            unreadable.append(f"{idref or '(empty idref)'} (not in the manifest)")
            continue
        svg = item.media_type == SVG_TYPE
        if (
            item.path in seen
            or not svg
            and (item.media_type not in CONTENT_TYPES or item.path.lower().endswith(NOT_CONTENT_SUFFIXES))
        ):
            continue
        seen.add(item.path)
        data = archive.read(item.path)
        if data is None:
            unreadable.append(f"{item.path} (missing from the archive)")
            continue
        parsed = parse_xhtml(data)
        if parsed.root is None:
            unreadable.append(f"{item.path} (not readable as XHTML or HTML)")
            continue
        if parsed.malformed:
            malformed.append(item.path)
        docs.append(SpineDocument(item.path, tokens(parsed.root)))
    if progress:
        progress(total, total)
    if not package.spine:
        warnings.append("The EPUB has no spine (reading order); no text could be read.")
    if unreadable:
        left_out = plural(len(unreadable), "spine document", "spine documents")
        warnings.append(f"Left out {left_out} that could not be read: {_names(unreadable)}.")
    if malformed:
        documents = plural(len(malformed), "malformed XHTML document", "malformed XHTML documents")
        warnings.append(f"Read {documents} leniently (text may be incomplete): {_names(malformed)}.")
    return docs


def missing_resources(archive: EpubArchive, package: Package) -> list[str]:
    """The manifest's images, styles and fonts that the archive lacks (the text does not need them)."""
    spine = set(package.spine)
    return sorted(
        item.path
        for item in package.manifest.values()
        if item.id not in spine and archive.find(item.path) is None
    )


def read_navigation(archive: EpubArchive, package: Package) -> Navigation:
    """The toc and page-list: EPUB3 nav first, the NCX for whatever the nav lacks."""
    navigation = read_nav(archive, package.nav_path) if package.nav_path else Navigation([], [])
    if (not navigation.toc or not navigation.pages) and package.ncx_path:
        ncx = read_ncx(archive, package.ncx_path)
        navigation.toc = navigation.toc or ncx.toc
        navigation.pages = navigation.pages or ncx.pages
    return navigation


def toc_chapters(book: BookPages, toc: list[NavPoint], warnings: list[str]) -> list[ExtractedChapter]:
    """Chapters from toc entries, each on the page where its document or anchor starts."""
    chapters: list[ExtractedChapter] = []
    missing = 0
    for point in toc:
        page = book.page_of((point.path, point.fragment))
        if page is None:
            missing += 1
            continue
        chapters.append(ExtractedChapter(point.title, page + 1, point.level))
    if missing and chapters:
        entries = plural(missing, "table-of-contents entry", "table-of-contents entries")
        warnings.append(f"Left out {entries} pointing outside the text.")
    return chapters


def toc_breaks(toc: list[NavPoint]) -> dict[str, set[str]]:
    """The places inside documents where contents entries start (each opens a new synthetic page)."""
    breaks: dict[str, set[str]] = {}
    for point in toc:
        if point.fragment:
            breaks.setdefault(point.path, set()).add(point.fragment)
    return breaks


def heading_levels(docs: list[SpineDocument], toc: list[NavPoint]) -> frozenset[int]:
    """The h1-h3 levels to take chapters from when the navigation names too little of the book (none,
    only "Start" or "Cover", or a few entries over many headings); empty when the navigation serves.

    The levels are the topmost heading level used often enough (twice without navigation, else several
    times as often as the navigation has entries) and the one under it.
    """
    counts: dict[int, int] = {}
    for doc in docs:
        for kind, value in doc.tokens:
            if kind == HEADING_LEVEL and value in "123":
                counts[int(value)] = counts.get(int(value), 0) + 1
    story = [
        p for p in toc if not matter_title(p.title) and p.title.strip().lower() not in GENERIC_NAV_TITLES
    ]
    least = 2 if len(story) < 2 else max(FLAT_NAV_HEADINGS, FLAT_NAV_RATIO * len(story))
    top = next((level for level in sorted(counts) if counts[level] >= least), None)
    if top is None:
        return frozenset()
    return frozenset(level for level in (top, top + 1) if level in counts)


def headed_chapters(book: BookPages, levels: frozenset[int]) -> list[ExtractedChapter]:
    """Chapters at the headings of `levels`, nested by level."""
    top = min(levels)
    return [
        ExtractedChapter(title, page + 1, level - top)
        for page, title, level in book.heading_places
        if level in levels
    ]


def heading_chapters(book: BookPages, docs: list[SpineDocument]) -> list[ExtractedChapter]:
    """One chapter per spine document that has a heading, when the book has no usable toc."""
    chapters: list[ExtractedChapter] = []
    for doc in docs:
        heading = book.headings.get(doc.path)
        page = book.page_of((doc.path, None))
        if heading and page is not None:
            chapters.append(ExtractedChapter(heading, page + 1, 0))
    return chapters
