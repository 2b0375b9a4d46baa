"""Plain-text and Markdown books: decoded as they come, chapters from headings, synthetic pages."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from reader.adapters.extractors.common import check_file, clean_field, one_line, shown, title_from_filename
from reader.adapters.extractors.pagination import TARGET_PAGE_CHARS, paginate
from reader.adapters.extractors.text_cleanup import clean_paragraph
from reader.adapters.extractors.text_decoding import LANGUAGE_BYTES, DecodedText, decode_text, text_language
from reader.adapters.extractors.text_heading_lines import split_blocks
from reader.adapters.extractors.text_headings import find_headings
from reader.adapters.extractors.text_metadata import stated_metadata
from reader.domain.errors import ExtractionError
from reader.domain.extracted import ExtractedBook, ExtractedChapter, ExtractedPage
from reader.domain.ports import ProgressCallback

MARKDOWN_SUFFIXES = frozenset((".md", ".markdown"))
MAX_TEXT_BYTES = 64 * 1024 * 1024

_FRONT_KEYS = {
    "title": "title",
    "author": "author",
    "authors": "author",
    "language": "language",
    "lang": "language",
}
_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_RULE = re.compile(r"^ {0,3}([-*_])([ \t]*\1){2,}[ \t]*$")
_LIST_ITEM = re.compile(r"^ {0,3}(?:[-*+]|\d{1,9}[.)])[ \t]+")
_QUOTE = re.compile(r"^ {0,3}>[ \t]?")
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_EMPHASIS = re.compile(r"(\*\*|\*)(?=\S)(.+?)(?<=\S)\1|(?<!\w)(__|_)(?=\S)(.+?)(?<=\S)\3(?!\w)")
_CODE = re.compile(r"`([^`]+)`")
_UNDERSCORE_ITALICS = re.compile(r"(?<![\w_])_(?=[^\s_])((?:(?!\n[^\S\n]*\n)[^_])+?)(?<=[^\s_])_(?![\w_])")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")


@dataclass
class _Section:
    """A run of paragraphs; a chapter when it has a heading (kept as its first paragraph)."""

    title: str | None
    level: int
    paragraphs: list[str] = field(default_factory=list)


class TextExtractor:
    """Reads .txt and Markdown files in the encodings books come in; each chapter starts a new synthetic page."""

    def __init__(self, target_chars: int = TARGET_PAGE_CHARS) -> None:
        self.target_chars = target_chars

    def extract(
        self, path: Path, password: str | None = None, progress: ProgressCallback | None = None
    ) -> ExtractedBook:
        """Read the file into pages of about `target_chars` characters."""
        decoded = read_text(path)
        text = decoded.text
        markdown = path.suffix.lower() in MARKDOWN_SUFFIXES
        meta: dict[str, str] = {}
        if markdown:
            meta, text = split_front_matter(text)
            sections = markdown_sections(text)
        else:
            meta = stated_metadata(text)
            sections = text_sections(text, meta.get("title", ""))
        title = meta.get("title") or (_single_h1(sections) if markdown else "") or title_from_filename(path)
        pages: list[ExtractedPage] = []
        chapters: list[ExtractedChapter] = []
        for section in sections:
            section_pages = paginate(section.paragraphs, self.target_chars)
            offset = len(pages)
            if section.title is not None and section_pages:
                chapters.append(ExtractedChapter(section.title, offset + 1, section.level))
            pages.extend(ExtractedPage(str(offset + i), page) for i, page in enumerate(section_pages, 1))
        if not pages:
            raise ExtractionError(f"{shown(path)} contains no text.")
        if progress:
            progress(len(pages), len(pages))
        return ExtractedBook(
            title=title,
            author=meta.get("author", ""),
            language=meta.get("language") or text_language(text[:LANGUAGE_BYTES].encode("utf-8")) or "",
            format="markdown" if markdown else "txt",
            pages=pages,
            chapters=chapters,
            pagination="synthetic",
            warnings=[_guess_warning(decoded)] if decoded.guessed else [],
            encoding=decoded.encoding,
        )


def read_text(path: Path) -> DecodedText:
    """A text file's text (newlines as "\\n") and encoding; ExtractionError if it is too big or not text."""
    size = check_file(path)
    if size > MAX_TEXT_BYTES:
        raise ExtractionError(
            f"{shown(path)} is {size >> 20} MB; text files over {MAX_TEXT_BYTES >> 20} MB are not imported."
        )
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ExtractionError(
            f"{shown(path)}: cannot read the file ({one_line(error.strerror or error)})."
        ) from None
    decoded = decode_text(data, shown(path))
    text = decoded.text.replace("\r\n", "\n").replace("\r", "\n")
    return DecodedText(text, decoded.encoding, decoded.guessed, decoded.alternatives)


def _guess_warning(decoded: DecodedText) -> str:
    weighed = f" (it read almost as well as {', '.join(decoded.alternatives)})" if decoded.alternatives else ""
    return (
        f"Not UTF-8: the text encoding was guessed as {decoded.encoding}{weighed}; "
        "if letters look wrong, convert the file to UTF-8 and import it again."
    )


def split_front_matter(text: str) -> tuple[dict[str, str], str]:
    """YAML-ish front matter between `---` lines: (title/author/language values, the rest of the text)."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return {}, text
    for end in range(1, min(len(lines), 200)):
        if lines[end].strip() in ("---", "..."):
            break
    else:
        return {}, text
    meta: dict[str, str] = {}
    for line in lines[1:end]:
        key, sep, value = line.partition(":")
        name = _FRONT_KEYS.get(key.strip().lower())
        value = value.strip().strip("\"'").strip()
        if sep and name and value and name not in meta:
            meta[name] = clean_field(value)
    return meta, "\n".join(lines[end + 1 :])


def strip_inline_markdown(text: str) -> str:
    """Images to their alt text, links to their text, emphasis and code markers removed."""
    text = _IMAGE.sub(r"\1", text)
    text = _LINK.sub(r"\1", text)
    text = _CODE.sub(r"\1", text)
    for _ in range(2):
        text = _EMPHASIS.sub(lambda m: m.group(2) if m.group(1) else m.group(4), text)
    return text


def markdown_sections(text: str) -> list[_Section]:
    """Paragraphs of a Markdown text, grouped under its level-1 and level-2 headings."""
    sections = [_Section(None, 0)]
    block: list[str] = []
    in_fence = in_list = False

    def flush() -> None:
        if block:
            paragraph = clean_paragraph(strip_inline_markdown(" ".join(block)))
            if paragraph:
                sections[-1].paragraphs.append(paragraph)
            block.clear()

    for line in text.split("\n"):
        if _FENCE.match(line):
            flush()
            in_fence = not in_fence
            continue
        if in_fence:
            if line.strip():
                block.append(line)
                flush()
            continue
        heading = _ATX.match(line)
        if heading:
            flush()
            title = clean_paragraph(strip_inline_markdown(heading.group(2)))
            level = len(heading.group(1))
            if level <= 2 and title:
                sections.append(_Section(title, level - 1, [title]))
            elif title:
                sections[-1].paragraphs.append(title)
            continue
        setext = _SETEXT.match(line)
        if setext and block and not in_list:
            title = clean_paragraph(strip_inline_markdown(" ".join(block)))
            block.clear()
            if title:
                sections.append(_Section(title, 0 if setext.group(1)[0] == "=" else 1, [title]))
            continue
        if not line.strip() or _RULE.match(line):
            in_list = False
            flush()
            continue
        quote = _QUOTE.match(line)
        if quote:
            line = line[quote.end() :]
        item = _LIST_ITEM.match(line)
        if item:
            flush()
            in_list = True
            line = line[item.end() :]
        block.append(line)
    flush()
    return [s for s in sections if s.paragraphs]


def _single_h1(sections: list[_Section]) -> str:
    """The title when the text opens with its only level-1 heading."""
    level_one = [s for s in sections if s.title is not None and s.level == 0]
    if len(level_one) == 1 and sections and sections[0] is level_one[0]:
        return level_one[0].title or ""
    return ""


def without_underscores(text: str) -> str:
    """Plain text with the underscores that mark italics in Project Gutenberg texts (`_Pequod_`,
    `--_continued_`) taken off, so the words read, search and quote as the book prints them."""
    return _UNDERSCORE_ITALICS.sub(r"\1", text) if "_" in text else text


def text_sections(text: str, book_title: str = "") -> list[_Section]:
    """Paragraphs of plain text (blank-line separated), split into chapters where `find_headings` finds
    headings (on the text as it comes: an italic line under a heading is a letter's, not a title); a
    heading's lines stay the first paragraphs of its chapter; italics underscores are taken off."""
    blocks = split_blocks(text)
    paragraphs = [clean_paragraph(without_underscores(block.text)) for block in blocks]
    headings = {heading.block: heading for heading in find_headings(blocks, book_title)}
    sections = [_Section(None, 0)]
    for index, paragraph in enumerate(paragraphs):
        heading = headings.get(index)
        if heading is not None:
            sections.append(_Section(without_underscores(heading.title), heading.level))
        if paragraph:
            sections[-1].paragraphs.append(paragraph)
    return [s for s in sections if s.paragraphs]
