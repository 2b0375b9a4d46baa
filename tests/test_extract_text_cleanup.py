"""Text normalisation, safe XHTML parsing (XXE, entity bombs) and synthetic pagination."""

from __future__ import annotations

import re
import time
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from reader.adapters.extractors.pagination import paginate, paginate_with_index, split_long_paragraph
from reader.adapters.extractors.text_cleanup import html_to_paragraphs, normalize_text, split_paragraphs
from reader.adapters.extractors.xhtml import parse_xhtml
from tests.fixtures_books import billion_laughs_doctype, xhtml, xxe_doctype


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_normalize_text_separates_paragraphs_by_one_blank_line() -> None:
    raw = "  First  line\nstill first.\r\n\r\n\n  Second\u00a0para\u00adgraph \t\n \n\n\nThird\x00. \n"
    assert normalize_text(raw) == "First line still first.\n\nSecond paragraph\n\nThird ."
    assert split_paragraphs("\n \n") == []


def test_html_blocks_become_paragraphs_and_inline_text_joins() -> None:
    body = (
        "<h1>Title <em>one</em></h1><p>Hello <b>bold</b>\n   world.</p>"
        "<div>Line one<br/>Line two</div><ul><li>item a</li><li>item b</li></ul>"
        "<blockquote>quoted</blockquote><pre>code 1\ncode 2</pre>"
        "<table><tr><td>cell a</td><td>cell b</td></tr></table>"
        "<script>var x = 1;</script><style>p {}</style><p hidden=''>hidden text</p>"
        "<p style='display: none'>invisible</p><p>a&#160;b &amp; c</p>"
    )
    assert html_to_paragraphs(xhtml(body).encode()) == [
        "Title one",
        "Hello bold world.",
        "Line one",
        "Line two",
        "item a",
        "item b",
        "quoted",
        "code 1",
        "code 2",
        "cell a cell b",
        "a b & c",
    ]


def test_head_and_hidden_nav_are_dropped() -> None:
    body = (
        '<nav epub:type="toc"><ol><li><a href="#c">Contents entry</a></li></ol></nav>'
        '<nav epub:type="page-list" hidden=""><ol><li><a href="#p1">1</a></li></ol></nav>'
        '<nav epub:type="landmarks"><ol><li><a href="#c">Start</a></li></ol></nav><p>Body</p>'
    )
    assert html_to_paragraphs(xhtml(body, title="Head title").encode()) == ["Contents entry", "Body"]


def test_malformed_xhtml_falls_back_to_the_html_parser() -> None:
    data = b"<html><body><p>unclosed <b>bold<p>next &nbsp; para</body>"
    parsed = parse_xhtml(data)
    assert parsed.malformed and parsed.root is not None
    assert html_to_paragraphs(data) == ["unclosed bold", "next para"]
    assert html_to_paragraphs(xhtml("<p>fine</p>").encode()) == ["fine"]
    assert not parse_xhtml(xhtml("<p>fine</p>").encode()).malformed


def test_xxe_never_reads_a_local_file(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-XXE-CONTENT")
    documents = [
        xhtml("<p>before &xxe; after</p>", xxe_doctype(secret)),
        xhtml('<p title="&xxe;">before &xxe; after</p>', xxe_doctype(secret)),
        xhtml("<p>before &xxe; after<b></p>", xxe_doctype(secret)),  # malformed: HTML fallback
    ]
    for document in documents:
        text = "\n".join(html_to_paragraphs(document.encode()))
        assert "TOP-SECRET" not in text
        assert "before" in text and "after" in text


def test_billion_laughs_returns_quickly_without_expanding() -> None:
    for body in ("<p>A &lol9; B</p>", '<p title="&lol9;">A &lol9; B</p>', "<p>A &lol9; B<i></p>"):
        start = time.perf_counter()
        paragraphs = html_to_paragraphs(xhtml(body, billion_laughs_doctype()).encode())
        assert time.perf_counter() - start < 1.0
        assert "lollollol" not in "".join(paragraphs)
        assert paragraphs and paragraphs[0].startswith("A")


def test_pagination_cuts_at_paragraph_boundaries_near_the_target() -> None:
    paragraphs = [f"Paragraph {i} " + "word " * (20 + i % 50) for i in range(200)]
    paragraphs = [p.strip() for p in paragraphs]
    pages = paginate(paragraphs)
    assert "\n\n".join(pages) == "\n\n".join(paragraphs)
    assert all(1000 < len(page) < 3000 for page in pages[:-1])
    assert paginate(paragraphs) == pages
    assert paginate([]) == []


def test_a_long_paragraph_is_split_at_sentence_ends() -> None:
    sentence = "The keeper climbed the stair and lit the lamp again. "
    paragraph = (sentence * 200).strip()
    pages = paginate([paragraph], 2000)
    assert len(pages) > 2
    assert all(page.endswith(".") for page in pages)
    assert squash("".join(pages)) == squash(paragraph)
    assert " ".join(pages) == paragraph


def test_text_without_spaces_is_cut_hard() -> None:
    paragraph = "x" * 7000
    pieces = split_long_paragraph(paragraph, 2000)
    assert [len(text) for _, text in pieces] == [2000, 2000, 2000, 1000]
    assert "".join(joiner + text for joiner, text in pieces) == paragraph
    cjk = "日本語の文です。" * 600
    assert "".join(paginate([cjk])) == cjk


def test_paragraph_start_pages_are_reported() -> None:
    paragraphs = ["a" * 1500, "b" * 1500, "c" * 100]
    pages, starts = paginate_with_index(paragraphs, 2000)
    assert starts == [0, 1, 1]
    assert pages[starts[1]].startswith("b") and pages[starts[2]].endswith("c" * 100)


paragraph_text = st.text(alphabet=st.sampled_from("abc xyz.!?"), min_size=0, max_size=5000)


@settings(max_examples=60, deadline=None)
@given(st.lists(paragraph_text, max_size=30), st.integers(min_value=50, max_value=3000))
def test_pagination_properties(raw: list[str], target: int) -> None:
    paragraphs = [p for p in (" ".join(r.split()) for r in raw) if p]
    pages, starts = paginate_with_index(paragraphs, target)
    assert paginate(paragraphs, target) == pages
    assert all(page.strip() == page and page for page in pages)
    assert squash("".join(pages)) == squash("".join(paragraphs))
    assert len(starts) == len(paragraphs) and starts == sorted(starts)
    assert all(len(page) <= 2 * target + 2 for page in pages)
    if all(len(p) <= target * 1.5 for p in paragraphs):
        assert "\n\n".join(pages) == "\n\n".join(paragraphs)
