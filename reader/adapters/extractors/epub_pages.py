"""Cutting EPUB spine documents into pages: at print page markers, or synthetic pages per document."""

from __future__ import annotations

from dataclasses import dataclass, field

from reader.adapters.extractors.pagination import paginate_with_index
from reader.adapters.extractors.text_cleanup import clean_paragraph
from reader.adapters.extractors.xhtml import (
    ANCHOR,
    BREAK,
    HEADING,
    HEADING_LEVEL,
    IMAGE,
    IMAGE_REF,
    PAGEBREAK,
    TEXT,
    Token,
)

Target = tuple[str, str | None]
"""A place in the book: (document path, element id or None for the document's start)."""


@dataclass(frozen=True)
class FigurePlace:
    """Where an image stands: its 0-based page, the character of the page's text it comes before, the
    document it is linked from and its IMAGE_REF value (link and alt text)."""

    page: int
    offset: int
    document: str
    ref: str


@dataclass(frozen=True)
class SpineDocument:
    """One readable spine document as a token stream."""

    path: str
    tokens: list[Token]


@dataclass
class BookPages:
    """Pages (label, text), the 0-based page where each place starts, and each document's first heading.

    `images` holds the (0-based page, estimated share of a page) of every image, in reading order.
    """

    labels: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    places: dict[Target, int] = field(default_factory=dict)
    headings: dict[str, str] = field(default_factory=dict)
    markers_found: int = 0
    images: list[tuple[int, float]] = field(default_factory=list)
    heading_places: list[tuple[int, str, int]] = field(default_factory=list)
    """Every h1-h6 heading: (0-based page, text, level); synthetic pages only."""
    figures: list[FigurePlace] = field(default_factory=list)
    """Every image with a link or alt text, in reading order."""

    def page_of(self, target: Target) -> int | None:
        """The 0-based page of a place (falling back to its document's start), or None if not in the book."""
        page = self.places.get(target)
        if page is None and target[1] is not None:
            page = self.places.get((target[0], None))
        if page is None or not self.texts:
            return None
        return min(page, len(self.texts) - 1)


@dataclass
class DocumentText:
    """A document's paragraphs, the paragraph index at each anchor id, its first heading, its images
    (index of the paragraph each comes before, estimated share of a page) and its h1-h6 headings
    (paragraph index, text, level)."""

    paragraphs: list[str] = field(default_factory=list)
    anchors: dict[str, int] = field(default_factory=dict)
    heading: str = ""
    images: list[tuple[int, float]] = field(default_factory=list)
    headings: list[tuple[int, str, int]] = field(default_factory=list)
    refs: list[str] = field(default_factory=list)
    """Each image's IMAGE_REF value ("" when it had none), in the order of `images`."""


def document_paragraphs(stream: list[Token]) -> DocumentText:
    """A document's text as paragraphs, with where its anchors, images and headings are."""
    doc = DocumentText()
    buffer: list[str] = []
    level = 0

    def flush() -> None:
        if buffer:
            paragraph = clean_paragraph("".join(buffer))
            if paragraph:
                doc.paragraphs.append(paragraph)
            buffer.clear()

    for kind, value in stream:
        if kind == TEXT:
            buffer.append(value)
        elif kind == BREAK:
            flush()
        elif kind == ANCHOR:
            doc.anchors.setdefault(value, len(doc.paragraphs))
        elif kind == HEADING_LEVEL:
            level = int(value) if value.isdigit() else 0
        elif kind == HEADING:
            doc.heading = doc.heading or value
            doc.headings.append((len(doc.paragraphs), value, level))
            level = 0
        elif kind == IMAGE:
            doc.images.append((len(doc.paragraphs), _area(value)))
            doc.refs.append("")
        elif kind == IMAGE_REF and doc.refs:
            doc.refs[-1] = value
    flush()
    return doc


def _area(value: str) -> float:
    try:
        return max(0.0, min(1.0, float(value)))
    except ValueError:
        return 0.0


def _paginate_from(
    paragraphs: list[str], cuts: set[int], target_chars: int
) -> tuple[list[str], list[int]]:
    """Pages of `paragraphs` where a new page also starts at every paragraph index in `cuts`, and the
    page each paragraph starts on."""
    pages: list[str] = []
    starts: list[int] = []
    bounds = sorted(c for c in cuts if 0 < c < len(paragraphs))
    for begin, end in zip([0, *bounds], [*bounds, len(paragraphs)], strict=True):
        part_pages, part_starts = paginate_with_index(paragraphs[begin:end], target_chars)
        starts += [len(pages) + start for start in part_starts]
        pages += part_pages
    return pages, starts


def synthetic_pages(
    docs: list[SpineDocument],
    target_chars: int,
    breaks: dict[str, set[str]] | None = None,
    heading_levels: frozenset[int] = frozenset(),
) -> BookPages:
    """Pages of about `target_chars`, paginated per document so a change in one never moves the others.

    A new page also starts at each anchor named in `breaks` (document path -> ids: the contents'
    chapters, so a chapter opens on its heading) and at each heading of `heading_levels`.
    """
    book = BookPages()
    for doc in docs:
        text = document_paragraphs(doc.tokens)
        cuts = {text.anchors[a] for a in (breaks or {}).get(doc.path, ()) if a in text.anchors}
        cuts |= {index for index, _, level in text.headings if level in heading_levels}
        pages, starts = _paginate_from(text.paragraphs, cuts, target_chars)
        offset = len(book.texts)
        book.places.setdefault((doc.path, None), offset)
        for anchor, index in text.anchors.items():
            within = starts[index] if index < len(starts) else max(len(pages) - 1, 0)
            book.places.setdefault((doc.path, anchor), offset + within)
        # an image belongs to the page of the paragraph after it (the last page after the last one);
        # a document without text (a full-page illustration) gives its images to the next page
        for (index, area), ref in zip(text.images, text.refs, strict=True):
            within = starts[index] if index < len(starts) else max(len(pages) - 1, 0)
            book.images.append((offset + within, area))
            if ref:
                first = starts.index(within) if within in starts else index
                at = _paragraph_offset(pages[within], text.paragraphs, first, index) if pages else 0
                book.figures.append(FigurePlace(offset + within, at, doc.path, ref))
        if pages:
            for index, title, level in text.headings:
                within = starts[index] if index < len(starts) else len(pages) - 1
                book.heading_places.append((offset + within, title, level))
        if text.heading and pages:
            book.headings.setdefault(doc.path, text.heading)
        book.texts.extend(pages)
    book.labels = [str(i) for i in range(1, len(book.texts) + 1)]
    book.images = [(min(page, len(book.texts) - 1), area) for page, area in book.images if book.texts]
    book.figures = _clamped(book.figures, book.texts)
    return book


def _paragraph_offset(page: str, paragraphs: list[str], first: int, index: int) -> int:
    """Where paragraph `index` starts in the text of the page it starts on, `first` being the page's
    first paragraph (the page's end after the last); found in order, so repeated paragraphs are told apart."""
    if index >= len(paragraphs):
        return len(page)
    position = 0
    for number in range(min(first, index), index + 1):
        found = page.find(paragraphs[number][:60], position)
        if found < 0:
            return position
        position = found if number == index else found + len(paragraphs[number][:60])
    return position


def _clamped(figures: list[FigurePlace], texts: list[str]) -> list[FigurePlace]:
    """Figures past the last page moved to its end (an illustration closing the book)."""
    if not texts:
        return []
    last = len(texts) - 1
    return [
        f if f.page <= last else FigurePlace(last, len(texts[last]), f.document, f.ref) for f in figures
    ]


class _PrintPager:
    """Accumulates text into pages that start at print page markers."""

    def __init__(self) -> None:
        self.pages: list[list[str]] = [[]]
        self.labels: list[str] = [""]
        self.buffer: list[str] = []
        self.marked = False
        self.pending: list[Target] = []
        self.places: dict[Target, int] = {}
        self.images: list[tuple[int, float]] = []
        self.figures: list[FigurePlace] = []
        self.document = ""

    def flush(self) -> None:
        if self.buffer:
            paragraph = clean_paragraph("".join(self.buffer))
            if paragraph:
                self.pages[-1].append(paragraph)
            self.buffer.clear()

    def mark(self, label: str) -> None:
        """A page starts here (text before the first marker belongs to the first page)."""
        if not self.marked:
            self.marked = True
            self.labels[-1] = label
            return
        self.flush()
        self.pages.append([])
        self.labels.append(label)

    def place(self, target: Target) -> None:
        """A place whose page is the one its next text lands on."""
        self.pending.append(target)

    def image(self, area: float) -> None:
        """An image on the page being filled."""
        self.images.append((len(self.pages) - 1, area))

    def image_ref(self, ref: str) -> None:
        """The link and alt text of the image just met: it stands before the paragraph being filled."""
        page = self.pages[-1]
        offset = sum(len(p) for p in page) + 2 * len(page)
        self.figures.append(FigurePlace(len(self.pages) - 1, offset, self.document, ref))

    def text(self, value: str) -> None:
        if self.pending and value.strip():
            self.settle()
        self.buffer.append(value)

    def settle(self) -> None:
        for target in self.pending:
            self.places.setdefault(target, len(self.pages) - 1)
        self.pending.clear()


def print_pages(docs: list[SpineDocument], page_list: dict[Target, str] | None) -> BookPages:
    """Pages between consecutive print markers: page-list targets, else epub:type="pagebreak" markers."""
    pager = _PrintPager()
    headings: dict[str, str] = {}
    found: set[Target] = set()
    pagebreaks = 0
    for doc in docs:
        pager.flush()
        pager.document = doc.path
        start: Target = (doc.path, None)
        if page_list is not None and start in page_list:
            found.add(start)
            pager.mark(page_list[start])
        pager.place(start)
        for kind, value in doc.tokens:
            if kind == TEXT:
                pager.text(value)
            elif kind == BREAK:
                pager.flush()
            elif kind == ANCHOR:
                target = (doc.path, value)
                if page_list is not None and target in page_list and target not in found:
                    found.add(target)
                    pager.mark(page_list[target])
                pager.place(target)
            elif kind == PAGEBREAK and page_list is None:
                pagebreaks += 1
                pager.mark(value)
            elif kind == HEADING and doc.path not in headings:
                headings[doc.path] = value
            elif kind == IMAGE:
                pager.image(_area(value))
            elif kind == IMAGE_REF:
                pager.image_ref(value)
    pager.flush()
    pager.settle()
    texts = ["\n\n".join(page) for page in pager.pages]
    labels = [label or str(i) for i, label in enumerate(pager.labels, start=1)]
    book = BookPages(
        labels,
        texts,
        pager.places,
        headings,
        len(found) if page_list is not None else pagebreaks,
        pager.images,
    )
    book.figures = [
        FigurePlace(f.page, min(f.offset, len(texts[f.page])), f.document, f.ref) for f in pager.figures
    ]
    return book
