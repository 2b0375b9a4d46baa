"""EPUBs whose pages are pictures (fixed-layout picture books, manga): one page per spine document,
its picture kept in the library, its text (if any) the page's text."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from reader.adapters.extractors.book_images import declared_size, split_ref
from reader.adapters.extractors.common import plural, title_from_filename
from reader.adapters.extractors.epub_container import EpubArchive, Package, resolve_href
from reader.adapters.extractors.epub_nav import Navigation
from reader.adapters.extractors.epub_pages import SpineDocument
from reader.adapters.extractors.picture_pages import ocr_warning, picture_type, picture_visuals
from reader.adapters.extractors.text_cleanup import join_paragraphs, paragraphs_from_tokens
from reader.adapters.extractors.xhtml import IMAGE, IMAGE_REF, TEXT
from reader.domain.extracted import ExtractedBook, ExtractedChapter, ExtractedPage
from reader.domain.models import PagePicture

FIXED_LAYOUT = "pre-paginated"
CAPTION_CHARS = 300
"""A document with at most this much text beside its picture is a picture page (a caption, a credit)."""
PICTURE_SHARE = 0.8
"""A fixed-layout book is a picture book when this share of its documents are picture pages."""


def document_text(doc: SpineDocument) -> str:
    return join_paragraphs(paragraphs_from_tokens(doc.tokens))


def main_picture(doc: SpineDocument) -> str | None:
    """The link of the document's largest picture (the first of equals), as written in it."""
    best: tuple[float, str] | None = None
    area: float | None = None
    for kind, value in doc.tokens:
        if kind == IMAGE:
            try:
                area = float(value)
            except ValueError:
                area = 0.0
        elif kind == IMAGE_REF and area is not None:
            source = split_ref(value)[0]
            if source and (best is None or area > best[0]):
                best = (area, source)
            area = None
    return best[1] if best else None


def is_picture_book(docs: Sequence[SpineDocument], package: Package) -> bool:
    """Whether the book's pages are pictures: no text at all but pictures, or a fixed-layout book whose
    documents are nearly all a picture with at most a caption."""
    if not docs:
        return False
    pictured = [main_picture(doc) is not None for doc in docs]
    has_text = [any(kind == TEXT and value.strip() for kind, value in doc.tokens) for doc in docs]
    if not any(has_text):
        return any(pictured)
    if package.layout != FIXED_LAYOUT:
        return False
    pages = sum(
        1
        for doc, picture in zip(docs, pictured, strict=True)
        if picture and len(document_text(doc)) <= CAPTION_CHARS
    )
    return pages >= PICTURE_SHARE * len(docs)


def picture_book(
    path: Path,
    archive: EpubArchive,
    package: Package,
    docs: Sequence[SpineDocument],
    navigation: Navigation,
    warnings: list[str],
) -> ExtractedBook:
    """The book with one page per spine document that has a picture or text, pictures read from the archive."""
    by_path = {item.path: item for item in package.manifest.values()}
    page_labels = {point.path: point.title for point in navigation.pages if point.fragment is None}
    pages: list[ExtractedPage] = []
    first_page: dict[str, int] = {}
    missing: list[str] = []
    for doc in docs:
        text = document_text(doc)
        source = main_picture(doc)
        picture = None
        if source is not None:
            target, _ = resolve_href(doc.path, source)
            data = archive.read(target) if target else None
            if data:
                item = by_path.get(archive.find(target) or target) if target else None
                kind = picture_type(target or source, item.media_type if item else "")
                picture = PagePicture(kind, data, *declared_size(data))
            else:
                missing.append(target or source)
        if picture is None and not text:
            continue
        first_page[doc.path] = len(pages) + 1
        label = page_labels.get(doc.path) or str(len(pages) + 1)
        visuals = picture_visuals(text) if picture else ExtractedPage("", "").visuals
        pages.append(ExtractedPage(label, text, visuals, picture))
    chapters = [
        ExtractedChapter(point.title, first_page[point.path], point.level)
        for point in navigation.toc
        if point.path in first_page and point.title
    ]
    if missing:
        shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        warnings.append(
            f"{plural(len(missing), 'page picture is', 'page pictures are')} missing from the archive: {shown}."
        )
    blank = sum(1 for page in pages if page.picture is not None and not page.text)
    if blank:
        warnings.append(ocr_warning(blank, len(pages)))
    return ExtractedBook(
        title=package.title or title_from_filename(path),
        author=package.author,
        language=package.language,
        format="epub",
        pages=pages,
        chapters=chapters,
        warnings=warnings,
        pagination="physical",
    )
