"""Decoding a text book's bytes: a BOM, then strict UTF-8, then a detector limited to book encodings.

Order: a byte-order mark (UTF-8, UTF-16 or UTF-32) decides; else strict UTF-8 (ASCII is UTF-8); else
UTF-16 without a BOM when its NUL bytes show it; else `charset-normalizer` over the lines that hold
non-ASCII bytes, limited to the encodings books come in (`BOOK_ENCODINGS`, Windows-1252 preferred on a
tie), with Windows-1252 as the fallback for bytes that are valid in it. What is not text (NUL bytes,
control characters, no plausible encoding) raises ExtractionError with one line.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from reader.adapters.extractors.language_cues import COMMON_WORDS, LETTERS, WORD_PUNCTUATION
from reader.domain.errors import ExtractionError

BOOK_ENCODINGS = (
    "cp1252",
    "latin_1",
    "iso8859_15",
    "cp1250",
    "iso8859_2",
    "cp1251",
    "koi8_r",
    "cp1253",
    "cp1254",
    "cp1257",
    "cp1255",
    "cp1256",
    "gb18030",
    "big5",
    "shift_jis",
    "euc_jp",
    "euc_kr",
    "mac_roman",
)
"""Legacy encodings books are written in, most preferred first (the order breaks a detector's ties)."""

SAMPLE_BYTES = 64 * 1024
"""The detector reads at most this much: the lines that hold non-ASCII bytes, not the whole file."""

CHAOS_TIE = 0.01
COHERENCE_TIE = 0.25
"""Detector answers this close in mess ratio and in language coherence are ties."""

LATIN_CODE_PAGES = frozenset(
    ("cp1252", "latin_1", "iso8859_15", "cp1250", "iso8859_2", "cp1254", "cp1257", "mac_roman")
)
"""Single-byte code pages that share ASCII and differ only in the letters and marks above it."""
LANGUAGE_BYTES = 256 * 1024
"""The language is read from the ASCII words of at most this much of the file."""
LANGUAGE_SHARE = 0.04
"""A language's common words must be at least this share of a text's ASCII words to name it."""
CLOSE_READING = 0.9
"""A code page scoring at least this share of the best reading is named as an alternative weighed."""

_BOMS = (  # UTF-32 before UTF-16: FF FE 00 00 starts with FF FE
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xef\xbb\xbf", "utf-8-sig"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)
_BOM_LABELS = {"utf-32-le": "UTF-32", "utf-32-be": "UTF-32", "utf-16-le": "UTF-16", "utf-16-be": "UTF-16"}
_STRAY_BOM_BYTES = frozenset(b"\xef\xbb\xbf\xfe\xff")
_NAMES = {
    "latin_1": "latin-1",
    "iso8859_15": "iso-8859-15",
    "iso8859_2": "iso-8859-2",
    "koi8_r": "koi8-r",
    "euc_jp": "euc-jp",
    "euc_kr": "euc-kr",
    "mac_roman": "mac-roman",
}
_CONTROL_BYTES = bytes([*range(0x01, 0x09), *range(0x0E, 0x1A), *range(0x1C, 0x20), 0x7F])
_NOT_CONTROL = bytes(b for b in range(256) if b not in _CONTROL_BYTES)
_NOT_C1 = bytes([*range(0x80), *range(0xA0, 0x100)])
# Where a BOM was: a BOM left in the text, one read as Windows-1252, U+FFFD, or a "?" glued to the first
# word or its opening quote (a converter's stand-in for the BOM).
_LEADING_ARTIFACT = re.compile(
    "\\A(?:[\ufeff\ufffd]|\u00ef\u00bb\u00bf|\u00bb\u00bf)*(?:\\?(?=[^\\W_]|[\"'\u2018\u201c\u00ab(\\[]))?"
)


@dataclass(frozen=True)
class DecodedText:
    """A file's text, the encoding it was read as (a Python codec name) and whether that was a guess."""

    text: str
    encoding: str
    guessed: bool = False
    alternatives: tuple[str, ...] = ()
    """Other encodings that read almost as well (an uncertain guess names them)."""


def decode_text(data: bytes, shown_path: str) -> DecodedText:
    """The text of a book file's bytes; ExtractionError (one line) when they are not text."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                text = data[len(bom) :].decode(encoding)
            except UnicodeDecodeError:
                if encoding == "utf-8-sig":
                    break  # a UTF-8 BOM before other bytes: the BOM is stripped after decoding
                raise ExtractionError(
                    f"{shown_path} starts with a {_BOM_LABELS[encoding]} byte-order mark but is not valid "
                    f"{_BOM_LABELS[encoding]} text (damaged?); nothing was imported."
                ) from None
            _check_text(text.encode("utf-8"), shown_path)
            return DecodedText(_strip_artifacts(text), encoding)
    wide = _bomless_utf16(data)
    if wide is not None:
        _check_text(wide.text.encode("utf-8"), shown_path)
        return wide
    _check_text(data, shown_path)
    utf8 = _utf8(data)
    if utf8 is not None:
        return DecodedText(_strip_artifacts(utf8), "utf-8")
    candidates, alternatives = _by_reading(data, _candidates(data))
    for encoding in candidates:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if encoding == "cp1252" and not data.translate(None, _NOT_C1):
            encoding = "latin_1"  # no byte in 0x80-0x9F: the same text, and valid Latin-1
        named = tuple(_NAMES.get(a, a) for a in alternatives if a != encoding)
        return DecodedText(_strip_artifacts(text), _NAMES.get(encoding, encoding), True, named)
    raise ExtractionError(
        f"{shown_path} is not text in any encoding reader recognises (UTF-8, UTF-16, Windows-1252 and "
        "other book encodings); if it is text, convert it to UTF-8, e.g. with `iconv -t utf-8`."
    )


def _check_text(data: bytes, shown_path: str) -> None:
    """Refuse bytes with NULs, or with control characters in more than 1% of them: a binary file."""
    if b"\x00" in data:
        raise ExtractionError(f"{shown_path} looks like a binary file, not text (it contains NUL bytes).")
    if len(data.translate(None, _NOT_CONTROL)) * 100 > len(data):
        raise ExtractionError(
            f"{shown_path} looks like a binary file, not text (it is full of control characters)."
        )


def _utf8(data: bytes) -> str | None:
    """Strict UTF-8, also after up to three stray BOM bytes at the start (a BOM cut short)."""
    start = 0
    while True:
        try:
            return data[start:].decode("utf-8") if start else data.decode("utf-8")
        except UnicodeDecodeError as error:
            stray = data[start : start + error.end]
            if error.start != 0 or start + error.end > 3 or not set(stray) <= _STRAY_BOM_BYTES:
                return None
            start += error.end


def _bomless_utf16(data: bytes) -> DecodedText | None:
    """UTF-16 without a BOM: NUL bytes in one half of the byte pairs (Latin text), none in the other."""
    if len(data) < 2 or len(data) % 2 or b"\x00" not in data:
        return None
    even, odd = data[0::2].count(0), data[1::2].count(0)
    pairs = len(data) // 2
    for nuls, others, encoding in ((odd, even, "utf-16-le"), (even, odd, "utf-16-be")):
        if nuls * 10 >= pairs * 3 and others * 100 <= nuls:
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError:
                return None
            return DecodedText(_strip_artifacts(text), encoding, guessed=True)
    return None


def _sample(data: bytes) -> bytes:
    """The lines holding non-ASCII bytes, up to SAMPLE_BYTES, cut only after a byte below 0x30.

    No multi-byte book encoding uses a byte below 0x30 inside a character, so the cut splits none.
    """
    lines: list[bytes] = []
    size = 0
    for line in data.split(b"\n"):
        if line.isascii():
            continue
        lines.append(line)
        size += len(line) + 1
        if size >= SAMPLE_BYTES:
            break
    sample = b"\n".join(lines)
    if len(sample) > SAMPLE_BYTES:
        cut = max(sample.rfind(bytes([b]), 0, SAMPLE_BYTES) for b in b"\n\r\t ,.;:!?\"'()-")
        if cut > 0:
            sample = sample[: cut + 1]
    return sample


def _candidates(data: bytes) -> list[str]:
    """Book encodings to try in order: the detector's answers, near-ties to the preferred, then cp1252.

    The detector's mess ratio (chaos) tells scripts apart well; its language coherence does not tell
    Latin code pages apart (Windows-1252 text can score higher as Windows-1257). So among the answers
    with the least chaos, the first in BOOK_ENCODINGS wins unless its coherence is far below the best.
    """
    import charset_normalizer  # only here: strict UTF-8 failed

    rank = {name: i for i, name in enumerate(BOOK_ENCODINGS)}
    scored: list[tuple[float, float, str]] = []
    for match in charset_normalizer.from_bytes(_sample(data), cp_isolation=list(BOOK_ENCODINGS)):
        names = [n for n in (match.encoding, *match.could_be_from_charset) if n in rank]
        if names:
            scored.append((match.chaos, match.coherence, min(names, key=rank.__getitem__)))
    scored.sort(key=lambda s: (s[0], -s[1]))
    least_chaos = [s for s in scored if s[0] <= scored[0][0] + CHAOS_TIE] if scored else []
    best_coherence = max((coherence for _, coherence, _ in least_chaos), default=0.0)
    near = [name for _, coherence, name in least_chaos if coherence >= best_coherence - COHERENCE_TIE]
    ordered = sorted(near, key=rank.__getitem__)
    ordered += [name for _, _, name in scored if name not in ordered]
    return [*ordered, *(["cp1252"] if "cp1252" not in ordered else [])]


def text_language(data: bytes) -> str | None:
    """The language whose common words are most of a text's ASCII words, if one clearly is."""
    words = re.findall(rb"[A-Za-z]+", data[:LANGUAGE_BYTES])
    if len(words) < 50:
        return None
    counts: dict[bytes, int] = {}
    for word in words:
        key = word.lower()
        counts[key] = counts.get(key, 0) + 1
    hits = {
        language: sum(counts.get(w.encode(), 0) for w in set(common.split()) if w.isascii())
        for language, common in COMMON_WORDS.items()
    }
    language = max(hits, key=hits.__getitem__)
    return language if hits[language] >= LANGUAGE_SHARE * len(words) else None


def reading_score(text: str, letters: str) -> int:
    """How well a decoded text reads: +1 for each character above ASCII where the language would have
    it (its accented letters inside words, quotes and dashes at word edges), -1 where it would not (a
    letter the language does not write, an upper-case letter after a lower-case one, a mark inside a
    word), -2 for a control character."""
    score = 0
    for i, char in enumerate(text):
        if char < "\x80":
            continue
        before = text[i - 1] if i else " "
        after = text[i + 1] if i + 1 < len(text) else " "
        category = unicodedata.category(char)[0]
        if category == "L":
            fits = char.lower() in letters and not (char.isupper() and before.islower())
            score += 1 if fits else -1
        elif category == "C":
            score -= 2
        elif before.isalpha() and after.isalpha() and char not in WORD_PUNCTUATION:
            score -= 1
        else:
            score += 1
    return score


def _by_reading(data: bytes, candidates: list[str]) -> tuple[list[str], list[str]]:
    """The candidates with the Latin code page that reads best in the text's language first, and the
    others that read almost as well; unchanged when the language is not known."""
    latin = [c for c in candidates if c in LATIN_CODE_PAGES]
    language = text_language(data) if len(latin) > 1 else None
    if language is None:
        return candidates, []
    sample = _sample(data)
    scores: dict[str, int] = {}
    for encoding in latin:
        try:
            scores[encoding] = reading_score(sample.decode(encoding), LETTERS[language])
        except UnicodeDecodeError:
            continue
    if not scores:
        return candidates, []
    rank = {name: i for i, name in enumerate(BOOK_ENCODINGS)}
    best = max(scores, key=lambda e: (scores[e], -rank[e]))  # a tie: the more common code page
    close = [e for e in scores if e != best and scores[e] >= CLOSE_READING * scores[best] > 0]
    return [best, *(c for c in candidates if c != best)], close


def _strip_artifacts(text: str) -> str:
    """The text without what a lost or mangled BOM left before its first word."""
    match = _LEADING_ARTIFACT.match(text)
    return text[match.end() :] if match and match.end() else text
