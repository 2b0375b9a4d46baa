"""Importing files and folders into the library: idempotent, atomic, with progress."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

from reader.app.knowledge.concept_map import build_concept_map
from reader.app.pages.chunking import make_chunks
from reader.app.pages.story_pages import find_story_pages
from reader.domain.errors import ExtractionError, ReaderError, StorageError
from reader.domain.extracted import ExtractedBook, ExtractedChapter
from reader.domain.images import BookImage
from reader.domain.models import Book, Chapter, Page
from reader.domain.ports import BookExtractor, BookRepository, ProgressCallback

ExtractorFor = Callable[[Path], BookExtractor]
Reanchor = Callable[[str, int], str]
"""Called after a book already in the library was stored again, with its id and its old page count;
finds the reader's highlights again in the new pages and returns a note for the reader ("" if none)."""


@dataclass(frozen=True)
class ImportOutcome:
    """What happened to one file: status is imported, reindexed, unchanged or failed."""

    path: Path
    status: str
    message: str
    book: Book | None = None
    warnings: tuple[str, ...] = field(default=())
    stops: bool = False
    """The library file cannot take books now (a full disk, a read-only file): the files after this one
    would fail the same way."""

    @property
    def ok(self) -> bool:
        return self.status != "failed"


def file_hash(path: Path) -> str:
    """The book id: sha256 of the file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def chapter_ranges(chapters: list[ExtractedChapter], page_count: int) -> list[Chapter]:
    """Give each TOC entry an inclusive page range ending where the next entry of its level or above starts."""
    ordered = sorted(
        (c for c in chapters if 1 <= c.start_page <= page_count),
        key=lambda c: c.start_page,
    )
    result: list[Chapter] = []
    for i, chapter in enumerate(ordered):
        end = page_count
        for later in ordered[i + 1 :]:
            if later.level <= chapter.level and later.start_page > chapter.start_page:
                end = later.start_page - 1
                break
        result.append(
            Chapter(
                index=i, title=chapter.title, start_page=chapter.start_page, end_page=end, level=chapter.level
            )
        )
    return result


def kept_page_texts(
    stored: Mapping[int, tuple[str, str]], extracted: ExtractedBook
) -> dict[int, tuple[str, str]]:
    """The recognised page texts (OCR, a model's transcription) a re-import keeps: those of pages that
    still have no text layer. The book's id is its file's hash, so a page read again is the same picture
    (its source is unchanged); a page that now has a text layer (a better extractor) takes that instead."""
    count = len(extracted.pages)
    return {
        number: found
        for number, found in stored.items()
        if 1 <= number <= count and not extracted.pages[number - 1].text.strip()
    }


def scan_folder(folder: Path, suffixes: Iterable[str]) -> list[Path]:
    """Every file under `folder` (recursively) whose name ends in a supported suffix, in a stable order."""
    wanted = tuple(s.lower() for s in suffixes)
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.name.lower().endswith(wanted))


class ImportBooksUseCase:
    """Imports books; the id is the content hash, so an unchanged file is a no-op."""

    def __init__(
        self,
        books: BookRepository,
        extractor_for: ExtractorFor,
        index_version: int,
        supported_suffixes: Iterable[str] = (),
        reanchor: Reanchor | None = None,
    ) -> None:
        self.books = books
        self.reanchor = reanchor
        self.extractor_for = extractor_for
        self.index_version = index_version
        self.supported_suffixes = tuple(supported_suffixes)

    def stale_books(self) -> list[Book]:
        """Books indexed by an older version of this import pipeline (`reader reindex` redoes them)."""
        return self.books.stale(self.index_version)

    def expand(self, paths: Iterable[Path]) -> list[Path]:
        """Files to import: folders are scanned recursively for supported books."""
        files: list[Path] = []
        for path in paths:
            if path.is_dir():
                files.extend(scan_folder(path, self.supported_suffixes))
            else:
                files.append(path)
        return files

    def import_paths(
        self,
        paths: Iterable[Path],
        *,
        force: bool = False,
        password: str | None = None,
        progress: Callable[[Path, int, int], None] | None = None,
    ) -> Iterator[ImportOutcome]:
        """Import each file (folders expanded), yielding one outcome per file."""
        for path in self.expand(paths):

            def on_page(done: int, total: int, _path: Path = path) -> None:
                if progress:
                    progress(_path, done, total)

            yield self.import_file(path, force=force, password=password, progress=on_page)

    def import_file(
        self,
        path: Path,
        *,
        force: bool = False,
        password: str | None = None,
        progress: ProgressCallback | None = None,
    ) -> ImportOutcome:
        """Import one file; every expected failure becomes a failed outcome with a one-line message."""
        try:
            return self._import(path, force=force, password=password, progress=progress)
        except StorageError as error:
            return ImportOutcome(path, "failed", f"{path}: not imported. {error}", stops=True)
        except ReaderError as error:
            return ImportOutcome(path, "failed", str(error))
        except OSError as error:
            reason = error.strerror or str(error)
            return ImportOutcome(path, "failed", f"{path}: cannot read the file ({reason}).")
        except Exception as error:  # noqa: BLE001 - one bad file must not stop a folder import
            detail = " ".join(str(error).split())[:200] or type(error).__name__
            return ImportOutcome(
                path, "failed", f"{path}: could not be read as a book ({detail}); nothing was imported."
            )

    def _import(
        self, path: Path, *, force: bool, password: str | None, progress: ProgressCallback | None
    ) -> ImportOutcome:
        if not path.exists():
            raise ExtractionError(f"{path}: no such file or folder.")
        if path.is_dir():
            raise ExtractionError(f"{path} is a folder; import it as a folder, not a file.")
        if not path.is_file():
            raise ExtractionError(
                f"{path} is not a regular file (a pipe or a device?); nothing was imported."
            )
        book_id = file_hash(path)
        stored = self.books.index_version(book_id)
        reindex = stored is not None
        if stored == self.index_version and not force:
            book = self.books.get(book_id)
            title = book.title if book else path.name
            return ImportOutcome(path, "unchanged", f"{title}: already in the library, unchanged.", book)
        extracted = self.extractor_for(path).extract(path, password=password, progress=progress)
        old = self.books.get(book_id) if reindex else None
        recognised = kept_page_texts(self.books.page_texts(book_id), extracted) if reindex else {}
        book = self._store(book_id, path, extracted, recognised)
        status = "reindexed" if reindex else "imported"
        verb = "Reindexed" if reindex else "Imported"
        message = f"{verb} {book.title} ({book.page_count} page{'s' * (book.page_count != 1)})."
        if old is not None and self.reanchor is not None:
            message = " ".join(filter(None, [message, self.reanchor(book_id, old.page_count)]))
        return ImportOutcome(path, status, message, book, tuple(extracted.warnings))

    def _store(
        self, book_id: str, path: Path, extracted: ExtractedBook, recognised: Mapping[int, tuple[str, str]]
    ) -> Book:
        if not extracted.pages:
            raise ExtractionError(f"{path}: no pages could be read from this file.")
        page_texts = [page.text for page in extracted.pages]
        for number, (_, text) in recognised.items():
            page_texts[number - 1] = text
        pages = [
            Page(number=i, label=p.label or str(i), visuals=p.visuals)
            for i, p in enumerate(extracted.pages, start=1)
        ]
        book = Book(
            id=book_id,
            title=extracted.title.strip() or path.stem,
            author=extracted.author.strip(),
            language=extracted.language.strip(),
            format=extracted.format,
            source_path=str(path.resolve()),
            page_count=len(pages),
            current_page=1,
            pagination=extracted.pagination,
            # to the microsecond: caches of what an import makes are keyed by it (a second import within
            # the same second is a new import too)
            imported_at=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
            warnings=tuple(extracted.warnings),
            encoding=extracted.encoding,
        )
        chapters = chapter_ranges(extracted.chapters, len(pages))
        story = find_story_pages(page_texts, chapters, book.title)
        book = replace(book, story_start=story.first, story_end=story.last)
        chunks = make_chunks(book_id, page_texts)
        headings: dict[int, list[str]] = {}
        for chapter in chapters:
            headings.setdefault(chapter.start_page, []).append(chapter.title)
        concepts = build_concept_map(story.texts, headings)
        kept = [(number, source, text) for number, (source, text) in sorted(recognised.items())]
        self.books.replace(
            book,
            path.stat().st_size,
            self.index_version,
            pages,
            chapters,
            chunks,
            concepts,
            kept,
            [*extracted.images, *page_pictures(extracted)],
        )
        stored = self.books.get(book_id)
        assert stored is not None
        return stored


def page_pictures(extracted: ExtractedBook) -> list[BookImage]:
    """The pages that are pictures (comics, fixed-layout EPUBs), as pictures standing for their whole page."""
    return [
        BookImage(
            number,
            0,
            page.picture.data,
            page.picture.media_type,
            width=page.picture.width,
            height=page.picture.height,
            whole_page=True,
        )
        for number, page in enumerate(extracted.pages, start=1)
        if page.picture is not None
    ]
