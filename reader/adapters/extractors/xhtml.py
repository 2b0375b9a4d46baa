"""Safe XHTML parsing for EPUB content, and a flat token stream of its readable text."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.entities import html5
from typing import Any

from lxml import etree
from lxml import html as lxml_html

from reader.adapters.extractors.text_decoding import decode_text
from reader.domain.errors import ExtractionError

EPUB_NS = "http://www.idpf.org/2007/ops"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
SVG_PARAGRAPH_STEP = 1.6
"""An svg `<text>` line further below the one before than this many times the usual line step starts a
new paragraph."""

TEXT, BREAK, ANCHOR, PAGEBREAK, HEADING, IMAGE, HEADING_LEVEL, IMAGE_REF = range(8)
Token = tuple[int, str]
"""(kind, value): TEXT raw text, BREAK a block boundary, ANCHOR an element id, PAGEBREAK a page label
(its element's id follows as an ANCHOR), HEADING the text of an h1-h6 about to start (HEADING_LEVEL, its
rank "1"-"6", comes just before it), IMAGE an img or svg with the share of a page it is estimated to
fill (a decimal, e.g. "0.35"), IMAGE_REF right after it the image's link and alt text joined by
REF_SEPARATOR (an empty link for a drawing in SVG). The text of an svg's `<text>` elements is TEXT
like any other."""
REF_SEPARATOR = "\x1f"

SKIPPED = frozenset(
    "script style head title template noscript rt rp svg iframe object embed audio video canvas "
    "button select textarea input annotation annotation-xml".split()
)
BLOCKS = frozenset(
    "address article aside blockquote body caption center dd details dialog div dl dt fieldset "
    "figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html legend li main nav ol p "
    "pre section summary table tbody thead tfoot tr ul".split()
)
HEADINGS = frozenset("h1 h2 h3 h4 h5 h6".split())
CELLS = frozenset(("td", "th"))
_HIDDEN_NAV = frozenset(("page-list", "landmarks"))
_DISPLAY_NONE = re.compile(r"display\s*:\s*none", re.IGNORECASE)
_DOCTYPE = re.compile(rb"<!DOCTYPE[^\[>]*(\[.*?\])?\s*>", re.IGNORECASE | re.DOTALL)
_XML_ENCODING = re.compile(rb"""^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._\-]+)["']""")
_META_CHARSET = re.compile(rb"""<meta\b[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9._\-]+)""", re.IGNORECASE)
_LENGTH = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(px|%)?\s*$")
_STYLE_SIZE = re.compile(r"(?<![-\w])(width|height)\s*:\s*(\d+(?:\.\d+)?\s*(?:px|%)?)", re.IGNORECASE)

PAGE_PIXELS = 600 * 800
"""A page as a reading system shows it, in CSS pixels, to turn an image's size into a share of a page."""
UNKNOWN_IMAGE_AREA = 0.35
"""An image without a usable size: assume a typical figure."""
ICON_PIXELS = 64
"""An image smaller than this on a side is an icon, an ornament or a drop capital."""


def safe_xml_parser(recover: bool = False) -> etree.XMLParser:
    """An XML parser that never loads DTDs, never resolves entities and never touches the network."""
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        recover=recover,
        remove_comments=True,
        remove_pis=True,
    )


def safe_html_parser(encoding: str) -> lxml_html.HTMLParser:
    """lxml's forgiving HTML parser, offline and without comments."""
    return lxml_html.HTMLParser(encoding=encoding, no_network=True, remove_comments=True, remove_pis=True)


def parse_xml(data: bytes, recover: bool = False) -> Any:
    """Parse XML safely; raises etree.XMLSyntaxError (or ValueError) on bad input."""
    return etree.fromstring(data.lstrip(), parser=safe_xml_parser(recover))


def strip_doctype(data: bytes) -> bytes:
    """The document without its DOCTYPE (and so without any entity declarations)."""
    return _DOCTYPE.sub(b"", data, count=1)


@dataclass(frozen=True)
class ParsedDocument:
    """A parsed (X)HTML document: its root element (None if unreadable) and whether it was malformed."""

    root: Any
    malformed: bool


def _as_utf8(data: bytes) -> bytes:
    """A document that declares no encoding in an XML declaration, as UTF-8 bytes: read with its
    `<meta charset>` when it has one that fits, else as a text book is (`decode_text`: a BOM, strict
    UTF-8, then the book encodings). Bytes that are not text are left as they are."""
    meta = _META_CHARSET.search(data[:4096])
    declared = meta.group(1).decode("ascii").lower() if meta else ""
    if declared in ("", "utf-8", "utf8"):
        try:
            data.decode("utf-8")
            return data
        except UnicodeDecodeError:
            pass
    elif declared:
        try:
            return data.decode(declared).encode("utf-8")
        except (LookupError, UnicodeDecodeError):
            pass
    try:
        return decode_text(data, "document").text.encode("utf-8")
    except ExtractionError:
        return data


def parse_xhtml(data: bytes) -> ParsedDocument:
    """Parse XHTML safely, falling back to the HTML parser for malformed markup. A document whose XML
    declaration names no encoding is read as `_as_utf8` says."""
    data = data.lstrip()
    if not _XML_ENCODING.match(data[:200]):
        data = _as_utf8(data)
    try:
        return ParsedDocument(etree.fromstring(data, parser=safe_xml_parser()), False)
    except (etree.XMLSyntaxError, ValueError):
        pass
    match = _XML_ENCODING.match(data[:200])
    encoding = match.group(1).decode("ascii") if match else "utf-8"
    try:
        root = etree.fromstring(strip_doctype(data), parser=safe_html_parser(encoding))
    except (etree.XMLSyntaxError, etree.ParserError, ValueError, LookupError):
        root = None
    return ParsedDocument(root, True)


def local_name(element: Any) -> str:
    """An element's tag without namespace, lower-cased ('' for comments, entities and the like)."""
    tag = element.tag
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1].lower()


def epub_types(element: Any) -> set[str]:
    """The values of an element's epub:type attribute (namespaced or, after HTML parsing, literal)."""
    value = element.get(f"{{{EPUB_NS}}}type") or element.get("epub:type") or ""
    return set(value.split())


def _is_pagebreak(element: Any) -> bool:
    return "pagebreak" in epub_types(element) or element.get("role") == "doc-pagebreak"


def _is_hidden(element: Any, name: str) -> bool:
    if element.get("hidden") is not None or _DISPLAY_NONE.search(element.get("style") or ""):
        return True
    return name == "nav" and bool(epub_types(element) & _HIDDEN_NAV)


def element_text(element: Any) -> str:
    """An element's text content on one line; unexpanded entities become their HTML character or nothing."""
    parts = [element.text or ""] if isinstance(element.tag, str) else []
    for node in element.iterdescendants():
        if isinstance(node, etree._Entity):
            parts.append(html5.get(f"{node.name};", ""))
        elif isinstance(node.tag, str):
            parts.append(node.text or "")
        parts.append(node.tail or "")
    return " ".join("".join(parts).split())


def _pagebreak_label(element: Any) -> str:
    for value in (element.get("title"), element.get("aria-label"), element_text(element)):
        if value and value.strip():
            return " ".join(value.split())
    return ""


def _length(value: str | None) -> tuple[float, str] | None:
    match = _LENGTH.match(value or "")
    return (float(match.group(1)), match.group(2) or "px") if match else None


def image_area(element: Any) -> float:
    """The share of a page an img or svg is estimated to fill, from its width and height (or style)."""
    sizes = {"width": element.get("width"), "height": element.get("height")}
    for name, value in _STYLE_SIZE.findall(element.get("style") or ""):
        sizes[name.lower()] = value
    width, height = _length(sizes["width"]), _length(sizes["height"])
    if width and height and width[1] == height[1] == "px":
        if min(width[0], height[0]) < ICON_PIXELS:
            return 0.01
        return round(min(1.0, width[0] * height[0] / PAGE_PIXELS), 3)
    if width and width[1] == "%":
        tall = height[0] / 100 if height and height[1] == "%" else 0.5
        return round(min(1.0, width[0] / 100 * tall), 3)
    if width and width[0] < ICON_PIXELS or height and height[0] < ICON_PIXELS and height[1] == "px":
        return 0.01
    return UNKNOWN_IMAGE_AREA


def image_ref(element: Any) -> str:
    """An img's source and alt text, or the raster an svg wraps (`<svg><image href>`, as covers are
    made) and its title, joined by REF_SEPARATOR."""
    if local_name(element) == "img":
        source = element.get("src") or element.get("data-src") or ""
        alt = element.get("alt") or element.get("title") or ""
    else:
        source, alt = "", element.get("aria-label") or ""
        for child in element.iterdescendants():
            name = local_name(child)
            if name == "image" and not source:
                source = child.get(XLINK_HREF) or child.get("href") or child.get("xlink:href") or ""
            elif name == "title" and not alt:
                alt = element_text(child)
    return f"{source.strip()}{REF_SEPARATOR}{' '.join(alt.split())}"


def _element_id(element: Any) -> str | None:
    return (
        element.get("id")
        or element.get(XML_ID)
        or (element.get("name") if local_name(element) == "a" else None)
    )


def _svg_y(element: Any) -> float | None:
    """The baseline of an svg `<text>` (its own y, else its first tspan's), or None when not given."""
    for candidate in (element, *element.iter()):
        value = (candidate.get("y") or "").split()
        if value:
            try:
                return float(value[0].rstrip("px"))
            except ValueError:
                return None
    return None


def svg_tokens(svg: Any) -> list[Token]:
    """An svg as tokens: its picture (IMAGE and IMAGE_REF) and the text of its `<text>` elements,
    lines joined into paragraphs where they follow at the usual line step."""
    out: list[Token] = []
    lines: list[tuple[float | None, str]] = []
    pictures = 0
    for element in svg.iter():
        name = local_name(element)
        if name == "image":
            pictures += 1
        elif name == "text" and not any(
            local_name(a) in ("defs", "title", "desc") for a in element.iterancestors()
        ):
            if text := element_text(element):
                lines.append((_svg_y(element), text))
    if pictures or not lines:
        out.append((IMAGE, str(image_area(svg))))
        out.append((IMAGE_REF, image_ref(svg)))
    steps = sorted(
        b[0] - a[0]
        for a, b in zip(lines, lines[1:], strict=False)
        if a[0] is not None and b[0] is not None and b[0] > a[0]
    )
    usual = steps[(len(steps) - 1) // 2] if steps else 0.0  # the lower median: most steps are lines
    out.append((BREAK, ""))
    for index, (y, text) in enumerate(lines):
        before = lines[index - 1][0] if index else None
        if index and (
            y is None or before is None or not usual or y - before > SVG_PARAGRAPH_STEP * usual or y < before
        ):
            out.append((BREAK, ""))
        elif index:
            out.append((TEXT, " "))
        out.append((TEXT, text))
    out.append((BREAK, ""))
    return out


def tokens(root: Any) -> list[Token]:
    """Walk a document into text, block-break, anchor, page-break and heading tokens, in reading order."""
    out: list[Token] = []
    if root is None:
        return out
    in_pre = 0

    def text(value: str | None) -> None:
        if not value:
            return
        if in_pre:
            lines = value.split("\n")
            for i, line in enumerate(lines):
                if i:
                    out.append((BREAK, ""))
                if line:
                    out.append((TEXT, line))
        else:
            out.append((TEXT, value))

    walker = etree.iterwalk(root, events=("start", "end"))
    skipped: set[Any] = set()
    for event, element in walker:
        name = local_name(element)
        if event == "start":
            if isinstance(element, etree._Entity):
                # An entity left unexpanded (no DTD is loaded): known HTML names become their character,
                # anything user-defined (an XXE or an expansion bomb) becomes nothing.
                text(html5.get(f"{element.name};", ""))
                walker.skip_subtree()
                skipped.add(element)
                continue
            if not name:
                walker.skip_subtree()
                skipped.add(element)
                continue
            ident = _element_id(element)
            if _is_pagebreak(element):
                out.append((PAGEBREAK, _pagebreak_label(element)))
            elif _is_hidden(element, name):
                pass
            elif name in SKIPPED:
                if name == "svg":
                    out.extend(svg_tokens(element))
            else:
                if name == "img":
                    out.append((IMAGE, str(image_area(element))))
                    out.append((IMAGE_REF, image_ref(element)))
                if name in BLOCKS or name == "br":
                    out.append((BREAK, ""))
                if name in HEADINGS and (heading := element_text(element)):
                    out.append((HEADING_LEVEL, name[1]))
                    out.append((HEADING, heading))
                if ident is not None:
                    out.append((ANCHOR, ident))
                if name == "pre":
                    in_pre += 1
                text(element.text)
                continue
            # A page break, or content that is never shown: keep its id as a place, skip its text.
            if ident is not None:
                out.append((ANCHOR, ident))
            walker.skip_subtree()
            skipped.add(element)
            continue
        if element in skipped:
            skipped.discard(element)
        else:
            if name == "pre":
                in_pre -= 1
            if name in BLOCKS:
                out.append((BREAK, ""))
            elif name in CELLS:
                out.append((TEXT, " "))
        if element is not root:
            text(element.tail)
    return out
