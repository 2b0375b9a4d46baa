"""Text books decoded as they come: BOMs, UTF-8, UTF-16, Windows-1252, Latin-1, stray leading bytes."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from reader.adapters.extractors.text import TextExtractor
from reader.adapters.extractors.text_decoding import decode_text
from reader.cli.main import main
from reader.domain.errors import ExtractionError


def novel(curly: bool = True) -> str:
    """A short novel; with `curly`, typographic quotes, dashes and an ellipsis (Windows-1252 has them)."""
    lq, rq, ap, dash, ellipsis = (
        ("\u201c", "\u201d", "\u2019", "\u2014", "\u2026") if curly else ('"', '"', "'", "--", "...")
    )
    chapter = (
        f"{lq}Where is Zoë?{rq} asked Renée{dash}and Françoise answered that José Núñez had gone to Malmö "
        f"with the keeper{ap}s lamp. The naïve señor waited by the façade of the inn{ellipsis} "
    )
    parts = ["The Keeper of Gull Rock\n\nby Ann Writer"]
    for number in ("I", "II", "III"):
        parts.append(f"CHAPTER {number}.\n\n" + "\n\n".join(chapter * 3 for _ in range(4)))
    return "\r\n".join("\n\n".join(parts).split("\n")) + "\r\n"


CURLY = novel(curly=True)
STRAIGHT = novel(curly=False)

# (file name, bytes, expected recorded encoding, guessed?, the text it must read as)
FILES = [
    ("utf8.txt", CURLY.encode("utf-8"), "utf-8", False, CURLY),
    ("utf8-bom.txt", b"\xef\xbb\xbf" + CURLY.encode("utf-8"), "utf-8-sig", False, CURLY),
    ("utf16-le.txt", b"\xff\xfe" + CURLY.encode("utf-16-le"), "utf-16-le", False, CURLY),
    ("utf16-be.txt", b"\xfe\xff" + CURLY.encode("utf-16-be"), "utf-16-be", False, CURLY),
    ("cp1252.txt", CURLY.encode("cp1252"), "cp1252", True, CURLY),
    ("latin1.txt", STRAIGHT.encode("latin-1"), "latin-1", True, STRAIGHT),
    ("stray-question-mark.txt", b"?" + CURLY.encode("cp1252"), "cp1252", True, CURLY),
    ("bom-before-cp1252.txt", b"\xef\xbb\xbf" + CURLY.encode("cp1252"), "cp1252", True, CURLY),
    ("cut-bom-utf8.txt", b"\xbb\xbf" + CURLY.encode("utf-8"), "utf-8", False, CURLY),
    ("utf16-le-no-bom.txt", CURLY.encode("utf-16-le"), "utf-16-le", True, CURLY),
]


@pytest.mark.parametrize(("name", "data", "encoding", "guessed", "source"), FILES, ids=[f[0] for f in FILES])
def test_each_encoding_reads_as_the_same_pages(
    tmp_path: Path, name: str, data: bytes, encoding: str, guessed: bool, source: str
) -> None:
    reference = tmp_path / "reference.txt"
    reference.write_bytes(source.encode("utf-8"))
    expected = TextExtractor().extract(reference)
    path = tmp_path / name
    path.write_bytes(data)
    book = TextExtractor().extract(path)
    assert [page.text for page in book.pages] == [page.text for page in expected.pages]
    assert [(c.title, c.start_page) for c in book.chapters] == [
        ("CHAPTER I.", 2),
        ("CHAPTER II.", 3),
        ("CHAPTER III.", 4),
    ]
    assert book.pages[0].text.startswith("The Keeper of Gull Rock")
    assert book.encoding == encoding
    if guessed:
        assert len(book.warnings) == 1 and encoding in book.warnings[0] and "\n" not in book.warnings[0]
    else:
        assert book.warnings == []
    if source is CURLY:
        text = book.pages[1].text
        assert "\u201cWhere is Zoë?\u201d asked Renée\u2014and" in text and "keeper\u2019s" in text
        assert "inn\u2026" in text
    else:
        assert '"Where is Zoë?" asked Renée--and Françoise' in book.pages[1].text


def test_windows_1252_dashes_and_quotes_become_unicode() -> None:
    decoded = decode_text(b"\x93Quoted\x94 \x91single\x92 en\x96dash em\x97dash \x85", "x.txt")
    assert decoded.text == "\u201cQuoted\u201d \u2018single\u2019 en\u2013dash em\u2014dash \u2026"
    assert (decoded.encoding, decoded.guessed) == ("cp1252", True)


@pytest.mark.parametrize(
    ("text", "encoding", "recorded"),
    [
        ("Война и мир. Лев Толстой написал роман о жизни, о войне и о мире. " * 5, "cp1251", "cp1251"),
        ("Война и мир. Лев Толстой написал роман о жизни, о войне и о мире. " * 5, "koi8_r", "koi8-r"),
        ("Příliš žluťoučký kůň úpěl ďábelské ódy. Zažil jsem mnoho dobrých dní. " * 5, "cp1250", "cp1250"),
        (
            "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。\n" * 5,
            "shift_jis",
            "shift_jis",
        ),
        ("道可道，非常道。名可名，非常名。无名天地之始；有名万物之母。\n" * 5, "gb18030", "gb18030"),
    ],
)
def test_other_book_encodings_are_detected(text: str, encoding: str, recorded: str) -> None:
    decoded = decode_text(text.encode(encoding), "x.txt")
    assert (decoded.text, decoded.encoding, decoded.guessed) == (text, recorded, True)


def test_windows_1252_wins_latin_ties_the_detector_scores_otherwise() -> None:
    # charset-normalizer rates this Windows-1252 text as more coherent in Windows-1257 (ë -> ė, ç -> ē)
    rng = random.Random(5)
    words = "the keeper lamp rock gull harbour letter island night storm tide inn boat cove".split()
    names = ["Zoë", "Renée", "José", "Françoise", "Malmö", "Núñez", "Ann", "Tom"]
    paragraphs = []
    for _ in range(60):
        line = [rng.choice(words) for _ in range(rng.randint(40, 120))]
        line[3] = rng.choice(names)
        if rng.random() < 0.3:
            line[0], line[8] = "\u201c" + line[0], line[8] + "\u201d\u2014"
        paragraphs.append(" ".join(line).capitalize() + ".")
    text = "\n\n".join(paragraphs)
    decoded = decode_text(text.encode("cp1252"), "x.txt")
    assert (decoded.text, decoded.encoding) == (text, "cp1252")


def test_a_long_line_of_a_multibyte_encoding_is_sampled_whole_characters() -> None:
    text = "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。" * 3000  # no newline, > 64 KB
    decoded = decode_text(text.encode("shift_jis"), "x.txt")
    assert (decoded.text, decoded.encoding) == (text, "shift_jis")


def test_leading_artifacts_are_stripped_only_before_the_first_word() -> None:
    assert decode_text(b"?The Project Gutenberg eBook", "x").text == "The Project Gutenberg eBook"
    assert decode_text("\ufeff\ufeffHello".encode(), "x").text == "Hello"
    assert decode_text("ï»¿Hello".encode(), "x").text == "Hello"
    assert decode_text("\ufffdHello".encode(), "x").text == "Hello"
    for kept in ("??? said the sign.", "? is a question mark.", "Hello?", "\u00bfQu\u00e9 pasa?"):
        assert decode_text(kept.encode(), "x").text == kept


def extract_error(path: Path) -> str:
    with pytest.raises(ExtractionError) as caught:
        TextExtractor().extract(path)
    message = str(caught.value)
    assert "\n" not in message and str(path) in message
    return message


def test_what_is_not_text_is_refused(tmp_path: Path) -> None:
    nul = tmp_path / "nul.txt"
    nul.write_bytes(b"\x00" * 4096)
    assert "binary file, not text (it contains NUL bytes)" in extract_error(nul)
    binary = tmp_path / "binary.txt"
    binary.write_bytes(os.urandom(8192) + bytes(range(256)))
    assert "binary file, not text" in extract_error(binary)
    controls = tmp_path / "controls.txt"
    controls.write_bytes(bytes(range(1, 256)) * 20)
    assert "binary file, not text (it is full of control characters)" in extract_error(controls)
    undecodable = tmp_path / "undecodable.txt"
    undecodable.write_bytes(bytes(range(0x80, 0x100)) * 40)  # no control bytes, but no text either
    assert "is not text in any encoding reader recognises" in extract_error(undecodable)
    broken = tmp_path / "broken-utf16.txt"
    broken.write_bytes(b"\xff\xfe" + "Hello".encode("utf-16-le") + b"\x00\xd8")  # a lone surrogate
    assert "UTF-16 byte-order mark but is not valid UTF-16" in extract_error(broken)


def test_a_contents_list_one_entry_per_paragraph_is_not_chapters(tmp_path: Path) -> None:
    prose = "Left Munich at 8:35 P.M. on the first of May, arriving at Vienna early next morning. " * 4
    entries = [f"CHAPTER {n}. Jonathan Harker's Journal" for n in ("I", "II", "III", "IV")]
    path = tmp_path / "dracula.txt"
    path.write_text(
        "DRACULA\n\nby Bram Stoker\n\nContents\n\n"
        + "\n\n".join(entries)
        + "\n\nDRACULA\n\n"
        + "\n\n".join(
            f"CHAPTER {n}\n\nJONATHAN HARKER'S JOURNAL\n\n{prose}" for n in ("I", "II", "III", "IV")
        )
        + "\n"
    )
    book = TextExtractor().extract(path)
    assert [(c.title, c.start_page) for c in book.chapters] == [  # the line under each heading titles it
        (f"CHAPTER {n}. JONATHAN HARKER'S JOURNAL", page) for n, page in (("I", 3), ("II", 4), ("III", 5), ("IV", 6))
    ]
    assert book.pages[0].text == "DRACULA\n\nby Bram Stoker"
    contents = book.pages[1].text  # a contents heading starts a page of its own
    assert contents.startswith("Contents\n\nCHAPTER I. Jonathan Harker's Journal\n\nCHAPTER II.")
    assert contents.endswith("CHAPTER IV. Jonathan Harker's Journal\n\nDRACULA")
    assert book.pages[2].text.startswith("CHAPTER I\n\nJONATHAN HARKER'S JOURNAL\n\nLeft Munich")


def test_part_headings_over_chapters_still_start_sections(tmp_path: Path) -> None:
    prose = "The tide came in and the keeper watched the grey water rise over the rocks. " * 4
    path = tmp_path / "parts.txt"
    path.write_text(
        "Contents\n\nPART ONE\n\nPART TWO\n\n"
        f"PART ONE\n\nCHAPTER 1\n\n{prose}\n\nCHAPTER 2\n\n{prose}\n\n"
        f"PART TWO\n\nCHAPTER 3\n\n{prose}\n"
    )
    book = TextExtractor().extract(path)
    assert [c.title for c in book.chapters] == ["PART ONE", "CHAPTER 1", "CHAPTER 2", "PART TWO", "CHAPTER 3"]
    assert book.pages[0].text == "Contents\n\nPART ONE\n\nPART TWO"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_import_records_the_encoding_and_reimport_is_a_no_op(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "gull-rock.txt"
    path.write_bytes(b"?" + CURLY.encode("cp1252"))
    code, out, _ = run(capsys, "import", str(path))
    assert code == 0 and "Imported The Keeper of Gull Rock" in out  # its own title line, not the file name
    warnings = [line for line in out.splitlines() if "warning:" in line]
    assert len(warnings) == 1 and "guessed as cp1252" in warnings[0]
    code, out, _ = run(capsys, "import", str(path))
    assert code == 0 and "already in the library, unchanged" in out and "warning" not in out
    code, out, _ = run(capsys, "info", "gull rock", "--json")
    info = json.loads(out)
    assert info["encoding"] == "cp1252" and info["chapters"] == 3
    code, out, _ = run(capsys, "info", "gull rock")
    assert "  encoding  cp1252\n" in out and "guessed as cp1252" in out
    code, out, _ = run(capsys, "search-page", "gull rock", "2", "--json")
    assert "\u201cWhere is Zoë?\u201d" in json.loads(out)["text"]


def test_a_binary_txt_file_imports_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "image.txt"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    code, out, err = run(capsys, "import", str(path))
    assert code == 1 and len(err.strip().splitlines()) == 1 and "not text" in err
    code, out, _ = run(capsys, "list", "--json")
    assert out == ""


def test_the_detector_is_loaded_only_when_strict_utf8_fails(tmp_path: Path) -> None:
    utf8, cp1252 = tmp_path / "utf8.txt", tmp_path / "cp1252.txt"
    utf8.write_bytes(CURLY.encode("utf-8"))
    cp1252.write_bytes(CURLY.encode("cp1252"))
    code = (
        "import sys; from pathlib import Path\n"
        "import reader.cli.main, reader.services\n"
        "from reader.adapters.extractors.text import TextExtractor\n"
        f"TextExtractor().extract(Path({str(utf8)!r}))\n"
        "print('charset_normalizer' in sys.modules)\n"
        f"TextExtractor().extract(Path({str(cp1252)!r}))\n"
        "print('charset_normalizer' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]


@pytest.mark.parametrize(
    ("name", "declaration"),
    [("no-charset", ""), ("meta-charset", '<meta charset="windows-1252"/>')],
)
def test_epub_documents_without_a_declared_encoding_are_decoded_as_text_books_are(
    tmp_path: Path, name: str, declaration: str
) -> None:
    from reader.adapters.extractors.epub import EpubExtractor
    from tests.fixtures_books import nav_document, write_hand_epub

    paragraph = CURLY.split("CHAPTER I.")[1].split("\r\n\r\n")[1]
    markup = (
        f'<html xmlns="http://www.w3.org/1999/xhtml"><head>{declaration}<title>t</title></head>'
        f"<body><h1>Chapter 1</h1><p>{paragraph}</p></body></html>"
    )
    path = write_hand_epub(
        tmp_path / f"{name}.epub",
        {"c1.xhtml": ""},
        extra_files={
            "c1.xhtml": markup.encode("cp1252"),
            "nav.xhtml": nav_document([("Chapter 1", "c1.xhtml")]),
        },
        nav="nav.xhtml",
    )
    text = EpubExtractor().extract(path).pages[0].text
    assert "\u201cWhere is Zoë?\u201d asked Renée\u2014and Françoise" in text and "\ufffd" not in text
