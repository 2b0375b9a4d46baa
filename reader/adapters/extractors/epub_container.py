"""Opening an EPUB safely: zip checks (bombs, unsafe paths, DRM), container.xml and the OPF package."""

from __future__ import annotations

import posixpath
import re
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from lxml import etree

from reader.adapters.extractors.common import check_file, clean_field, one_line, shown
from reader.adapters.extractors.xhtml import element_text, local_name, parse_xml, strip_doctype
from reader.domain.errors import ExtractionError

MAX_UNPACKED_BYTES = 512 * 1024 * 1024
MAX_RATIO = 200
"""Largest compression ratio accepted for a member over RATIO_MIN_BYTES (deflate tops out near 1032)."""
RATIO_MIN_BYTES = 1024 * 1024
MAX_MEMBERS = 50_000

FONT_OBFUSCATION = frozenset(("http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"))
FONT_SUFFIXES = (".otf", ".ttf", ".woff", ".woff2", ".eot", ".pfb", ".pfm", ".afm")
XML_ENC = "http://www.w3.org/2001/04/xmlenc#"
_DRIVE = re.compile(r"^[A-Za-z]:")


@dataclass(frozen=True)
class ManifestItem:
    """A resource listed in the OPF manifest (its path inside the zip)."""

    id: str
    path: str
    media_type: str
    properties: frozenset[str]


@dataclass
class Package:
    """What the OPF says: metadata, manifest, spine order and where the navigation files are."""

    opf_path: str
    title: str = ""
    author: str = ""
    language: str = ""
    manifest: dict[str, ManifestItem] = field(default_factory=dict)
    spine: list[str] = field(default_factory=list)
    nav_path: str | None = None
    ncx_path: str | None = None
    layout: str = ""
    """The book's rendition:layout: "pre-paginated" for a fixed-layout book, else ""."""
    cover_id: str = ""
    """The manifest id an EPUB 2 `<meta name="cover">` names ("" when none)."""

    @property
    def cover_path(self) -> str | None:
        """The cover picture's path: the EPUB 3 cover-image item, else the EPUB 2 cover meta's item."""
        for item in self.manifest.values():
            if "cover-image" in item.properties:
                return item.path
        named = self.manifest.get(self.cover_id)
        return named.path if named is not None and named.media_type.startswith("image/") else None


def resolve_href(base_file: str, href: str) -> tuple[str | None, str | None]:
    """(zip path, fragment) of a relative link from `base_file`; path None for external or escaping links."""
    parts = urlsplit(href.strip())
    fragment = unquote(parts.fragment) or None
    if parts.scheme or parts.netloc:
        return None, fragment
    target = unquote(parts.path)
    if not target:
        return base_file, fragment
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(base_file), target))
    if joined.startswith("../") or joined in ("..", ".") or joined.startswith("/"):
        return None, fragment
    return joined, fragment


class EpubArchive:
    """A checked EPUB zip: members are looked up leniently and read with the size limits enforced."""

    def __init__(
        self,
        path: Path,
        max_unpacked_bytes: int = MAX_UNPACKED_BYTES,
        max_ratio: float = MAX_RATIO,
        kind: str = "an EPUB",
    ) -> None:
        self.path = path
        check_file(path)
        try:
            self.zip = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError):
            raise ExtractionError(
                f"{shown(path)} is not {kind} (it is not a zip archive, or it is damaged)."
            ) from None
        except OSError as error:
            raise ExtractionError(
                f"{shown(path)}: cannot read the file ({one_line(error.strerror or error)})."
            ) from None
        try:
            self._check_members(max_unpacked_bytes, max_ratio)
        except BaseException:
            self.zip.close()
            raise
        self.names = {info.filename: info for info in self.zip.infolist()}
        self.folded = {name.lower(): name for name in reversed(list(self.names))}

    def __enter__(self) -> EpubArchive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.zip.close()

    def _check_members(self, max_unpacked_bytes: int, max_ratio: float) -> None:
        infos = self.zip.infolist()
        where = shown(self.path)
        if len(infos) > MAX_MEMBERS:
            raise ExtractionError(f"{where} has {len(infos)} files inside; refusing it (possible zip bomb).")
        total = 0
        for info in infos:
            name = info.filename
            parts = re.split(r"[\\/]", name)
            if name.startswith(("/", "\\")) or _DRIVE.match(name) or ".." in parts:
                raise ExtractionError(
                    f"{where} contains an unsafe path ({one_line(name)!r} points outside the archive); "
                    "refusing it."
                )
            if info.flag_bits & 0x1:
                raise ExtractionError(f"{where} contains password-encrypted files; reader cannot import it.")
            total += info.file_size
            ratio = info.file_size / max(info.compress_size, 1)
            if info.file_size > RATIO_MIN_BYTES and ratio > max_ratio:
                raise ExtractionError(
                    f"{where}: {one_line(name)} would expand {ratio:.0f} times; "
                    "refusing it (possible zip bomb)."
                )
        if total > max_unpacked_bytes:
            raise ExtractionError(
                f"{where} would unpack to {total // (1024 * 1024)} MB, over the "
                f"{max_unpacked_bytes // (1024 * 1024)} MB limit; refusing it (possible zip bomb)."
            )

    def find(self, name: str) -> str | None:
        """The member name for `name` (exact, else case-insensitive), or None."""
        if name in self.names:
            return name
        return self.folded.get(name.lower())

    def read(self, name: str) -> bytes | None:
        """A member's bytes, or None when it is missing or cannot be decompressed."""
        member = self.find(name)
        if member is None:
            return None
        try:
            return self.zip.read(member)
        except (
            zipfile.BadZipFile,
            zlib.error,
            EOFError,
            NotImplementedError,
            RuntimeError,
            ValueError,
            OSError,
        ):
            return None


def parse_xml_leniently(data: bytes) -> Any:
    """Parse XML safely; then without its DOCTYPE (entity bombs), then leniently; None when all fail."""
    bare = strip_doctype(data)
    for attempt, recover in ((data, False), (bare, False), (bare, True), (data, True)):
        try:
            root = parse_xml(attempt, recover=recover)
        except (etree.XMLSyntaxError, ValueError):
            continue
        if root is not None:
            return root
    return None


def _children(element: Any, name: str) -> list[Any]:
    return [child for child in element if local_name(child) == name.lower()]


def _descendants(element: Any, name: str) -> list[Any]:
    return [child for child in element.iter() if local_name(child) == name.lower()]


def check_drm(archive: EpubArchive) -> None:
    """ExtractionError when META-INF/encryption.xml encrypts anything but fonts (font obfuscation is fine)."""
    data = archive.read("META-INF/encryption.xml")
    if data is None:
        return
    root = parse_xml_leniently(data)
    if root is None:
        return
    for encrypted in _descendants(root, "EncryptedData"):
        methods = _descendants(encrypted, "EncryptionMethod")
        algorithm = methods[0].get("Algorithm", "") if methods else ""
        if algorithm in FONT_OBFUSCATION:
            continue
        references = _descendants(encrypted, "CipherReference")
        uri = unquote(references[0].get("URI", "")) if references else ""
        if uri.lower().endswith(FONT_SUFFIXES):
            continue
        raise ExtractionError(
            f"{shown(archive.path)} is DRM-protected (encrypted content); reader cannot import it."
        )


def read_package(archive: EpubArchive) -> Package:
    """Find the OPF through META-INF/container.xml and read its metadata, manifest and spine."""
    where = shown(archive.path)
    container = archive.read("META-INF/container.xml")
    if container is None:
        raise ExtractionError(f"{where} is not a valid EPUB: META-INF/container.xml is missing.")
    root = parse_xml_leniently(container)
    rootfiles = _descendants(root, "rootfile") if root is not None else []
    preferred = [r for r in rootfiles if r.get("media-type") == "application/oebps-package+xml"]
    opf_path = next((r.get("full-path") for r in preferred + rootfiles if r.get("full-path")), None)
    if not opf_path:
        raise ExtractionError(
            f"{where} is not a valid EPUB: META-INF/container.xml names no package (OPF) file."
        )
    opf_path = posixpath.normpath(unquote(opf_path).lstrip("/"))
    data = archive.read(opf_path)
    if data is None:
        raise ExtractionError(
            f"{where} is not a valid EPUB: its package file {one_line(opf_path)} is missing."
        )
    opf = parse_xml_leniently(data)
    if opf is None:
        raise ExtractionError(
            f"{where} is not a valid EPUB: its package file {one_line(opf_path)} is not XML."
        )
    package = Package(opf_path=opf_path)
    _read_metadata(opf, package)
    _read_manifest(opf, package)
    return package


def _read_metadata(opf: Any, package: Package) -> None:
    metadata = next(iter(_descendants(opf, "metadata")), None)
    if metadata is None:
        return
    roles: dict[str, str] = {}
    for meta in _descendants(metadata, "meta"):
        if meta.get("name") == "cover" and meta.get("content"):
            package.cover_id = meta.get("content").strip()
        if meta.get("property") == "role" and meta.get("refines"):
            roles[meta.get("refines").lstrip("#")] = clean_field(meta.text)
        elif meta.get("property") == "rendition:layout" and not meta.get("refines"):
            package.layout = clean_field(meta.text).lower()
        elif meta.get("name") == "fixed-layout" and clean_field(meta.get("content")).lower() == "true":
            package.layout = "pre-paginated"  # the older iBooks/Kindle way of saying it
    titles = [clean_field(element_text(t)) for t in _descendants(metadata, "title")]
    package.title = next((t for t in titles if t), "")
    creators: list[tuple[str, str]] = []
    for creator in _descendants(metadata, "creator"):
        name = clean_field(element_text(creator))
        role = next((v for k, v in creator.attrib.items() if k.rsplit("}", 1)[-1] == "role"), "")
        role = role or roles.get(creator.get("id", ""), "")
        if name:
            creators.append((name, role))
    authors = [name for name, role in creators if role in ("aut", "")] or [name for name, _ in creators]
    package.author = ", ".join(dict.fromkeys(authors))
    languages = [clean_field(element_text(t)) for t in _descendants(metadata, "language")]
    package.language = next((lang for lang in languages if lang), "")


def _read_manifest(opf: Any, package: Package) -> None:
    for item in _descendants(opf, "item"):
        ident, href = item.get("id"), item.get("href")
        if not ident or not href:
            continue
        path, _ = resolve_href(package.opf_path, href)
        if path is None:
            continue
        properties = frozenset((item.get("properties") or "").split())
        entry = ManifestItem(ident, path, (item.get("media-type") or "").strip().lower(), properties)
        package.manifest.setdefault(ident, entry)
        if "nav" in properties and package.nav_path is None:
            package.nav_path = path
    spine = next(iter(_descendants(opf, "spine")), None)
    if spine is not None:
        package.spine = [ref.get("idref", "") for ref in _children(spine, "itemref")]
        toc = package.manifest.get(spine.get("toc") or "")
        if toc is not None:
            package.ncx_path = toc.path
    if package.ncx_path is None:
        package.ncx_path = next(
            (i.path for i in package.manifest.values() if i.media_type == "application/x-dtbncx+xml"), None
        )
