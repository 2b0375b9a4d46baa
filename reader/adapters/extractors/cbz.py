"""Comic books as `.cbz` (a zip of page images): one page per image in natural name order, metadata and
bookmarks from ComicInfo.xml when there is one, else a chapter per folder."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from reader.adapters.extractors.book_images import declared_size
from reader.adapters.extractors.common import clean_field, shown, title_from_filename
from reader.adapters.extractors.epub_container import EpubArchive, parse_xml_leniently
from reader.adapters.extractors.picture_pages import PICTURE_TYPES, ocr_warning, picture_type, picture_visuals
from reader.adapters.extractors.xhtml import element_text, local_name
from reader.domain.errors import ExtractionError
from reader.domain.extracted import ExtractedBook, ExtractedChapter, ExtractedPage
from reader.domain.models import PagePicture
from reader.domain.ports import ProgressCallback

CBZ_SUFFIXES = (".cbz",)
COMIC_INFO = "comicinfo.xml"
_DIGITS = re.compile(r"(\d+)")


def natural_key(name: str) -> list[object]:
    """Sort key that puts page2 before page10."""
    return [int(part) if part.isdigit() else part.lower() for part in _DIGITS.split(name)]


def _listed(name: str) -> bool:
    """A file of the archive's own (not a folder, a hidden file or a macOS resource fork)."""
    return not name.endswith("/") and not any(p.startswith(".") or p == "__MACOSX" for p in name.split("/"))


def page_members(names: list[str]) -> list[str]:
    """The archive's page images in reading order."""
    pages = [
        name for name in names if _listed(name) and "." + name.rsplit(".", 1)[-1].lower() in PICTURE_TYPES
    ]
    return sorted(pages, key=natural_key)


def is_comic_archive(names: list[str]) -> bool:
    """Whether a zip holds page images and little else (a ComicInfo.xml, a text note)."""
    files = [n for n in names if _listed(n) and not n.lower().endswith((".xml", ".txt", ".nfo"))]
    return bool(files) and len(page_members(names)) >= 0.9 * len(files)


class CbzExtractor:
    """Reads comic book archives into pages that are pictures."""

    def extract(
        self, path: Path, password: str | None = None, progress: ProgressCallback | None = None
    ) -> ExtractedBook:
        """One page per image; title, writer, language and bookmarks from ComicInfo.xml."""
        with EpubArchive(path, kind="a comic book archive (CBZ)") as archive:
            names = list(archive.names)
            members = page_members(names)
            if not members:
                raise ExtractionError(
                    f"{shown(path)} holds no page images (JPEG, PNG, GIF, WebP); nothing to import."
                )
            info_name = next((n for n in names if posixpath.basename(n).lower() == COMIC_INFO), None)
            info = comic_info(archive.read(info_name) if info_name else None)
            pages: list[ExtractedPage] = []
            unreadable: list[str] = []
            for number, member in enumerate(members, start=1):
                if progress:
                    progress(number - 1, len(members))
                data = archive.read(member)
                if not data:
                    unreadable.append(member)
                    continue
                picture = PagePicture(picture_type(member), data, *declared_size(data))
                pages.append(ExtractedPage(str(len(pages) + 1), "", picture_visuals(""), picture))
            if progress:
                progress(len(members), len(members))
        if not pages:
            raise ExtractionError(
                f"{shown(path)}: none of its page images could be read; the archive is damaged."
            )
        kept = [m for m in members if m not in unreadable]
        warnings = [ocr_warning(len(pages), len(pages))]
        if unreadable:
            warnings.append(
                f"{len(unreadable)} page images could not be read and were left out: {', '.join(unreadable[:5])}."
            )
        return ExtractedBook(
            title=info.get("title") or title_from_filename(path),
            author=info.get("author", ""),
            language=info.get("language", ""),
            format="cbz",
            pages=pages,
            chapters=info_chapters(info, len(pages)) or folder_chapters(kept),
            warnings=warnings,
            pagination="physical",
        )


def comic_info(data: bytes | None) -> dict[str, str]:
    """title, author, language and bookmarks ("index:title;...") from a ComicInfo.xml."""
    root = parse_xml_leniently(data) if data else None
    if root is None:
        return {}
    fields: dict[str, str] = {}
    for element in root.iter():
        name = local_name(element)
        if name in ("title", "series", "number", "writer", "languageiso") and name not in fields:
            fields[name] = clean_field(element_text(element))
    title = fields.get("title") or " ".join(filter(None, (fields.get("series"), fields.get("number"))))
    marks = [
        f"{element.get('Image')}:{clean_field(element.get('Bookmark'))}"
        for element in root.iter()
        if local_name(element) == "page"
        and element.get("Bookmark")
        and (element.get("Image") or "").isdigit()
    ]
    return {
        "title": title,
        "author": fields.get("writer", ""),
        "language": fields.get("languageiso", ""),
        "bookmarks": ";".join(marks),
    }


def info_chapters(info: dict[str, str], count: int) -> list[ExtractedChapter]:
    """Chapters at ComicInfo's page bookmarks (its Image numbers count pages from 0)."""
    chapters = []
    for mark in filter(None, info.get("bookmarks", "").split(";")):
        index, _, title = mark.partition(":")
        if title and 0 <= int(index) < count:
            chapters.append(ExtractedChapter(title, int(index) + 1, 0))
    return chapters


def folder_chapters(members: list[str]) -> list[ExtractedChapter]:
    """A chapter per folder when the pages are in several folders (volume1/, volume2/ ...)."""
    folders = [posixpath.dirname(member) for member in members]
    if len(set(folders)) < 2:
        return []
    chapters = []
    for number, folder in enumerate(folders, start=1):
        if number == 1 or folder != folders[number - 2]:
            chapters.append(ExtractedChapter(posixpath.basename(folder) or "Pages", number, 0))
    return chapters
