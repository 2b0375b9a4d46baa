"""Pictures on the page in the app: drawn in half-block cells where they stand, alt text for what cannot
be drawn (a broken picture, a decompression bomb, an SVG drawing), a PDF page drawn whole with `p`."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader.services import Services
from reader.tui.app import ReaderApp
from reader.tui.images.cells import UPPER_HALF
from reader.tui.images.illustrated_text import CAPTION_MARK, SCALED, IllustratedPageText
from tests.fixtures_books import write_figure_pdf
from tests.fixtures_images import BROKEN_PNG, bomb_png, write_illustrated_epub, write_illustrated_fb2
from tests.support.scripted_server import ScriptedServer
from tests.tui_helpers import wait_until

SIZE = (120, 40)


def imported(path: Path) -> tuple[Services, str]:
    services = Services.open()
    book = services.importer.import_file(path).book
    assert book is not None
    return services, book.id


def lines(app: ReaderApp) -> list[str]:
    return [strip.text for strip in app.query_one(IllustratedPageText)._strips]


def picture_rows(app: ReaderApp) -> list[int]:
    return [n for n, line in enumerate(lines(app)) if UPPER_HALF * 4 in line]


async def test_an_epub_picture_is_drawn_in_cells_between_its_paragraphs(tmp_path: Path) -> None:
    services, book_id = imported(write_illustrated_epub(tmp_path / "alice.epub"))
    async with ReaderApp(services, book_id=book_id).run_test(size=SIZE, notifications=True) as pilot:
        app = pilot.app
        text = app.query_one(IllustratedPageText)
        assert app.picture_protocol == "cells"
        await wait_until(pilot, lambda: text.settled() and len(text.failed) == 1)
        shown = lines(app)
        rows = [n for n in picture_rows(app) if n > shown.index("Down the Rabbit-Hole")]
        assert rows, shown
        caption = next(n for n, line in enumerate(shown) if "The White Rabbit checks his watch" in line)
        assert shown[caption].startswith(CAPTION_MARK)
        assert caption == rows[-1] + 1
        # the picture stands after the first paragraph and before the second
        first = next(n for n, line in enumerate(shown) if line.startswith("Alice sat"))
        second = next(n for n, line in enumerate(shown) if line.startswith("Alice sat") and n > first)
        assert first < rows[0] < second
        # the picture keeps its shape: 320 x 240 pixels in cells twice as tall as wide
        strip = text._strips[rows[0]]
        columns = strip.text.count(UPPER_HALF)
        assert abs(len(rows) - columns * 240 / 320 / 2) <= 1
        # its colours are the picture's: red in the middle
        middle = text._strips[rows[len(rows) // 2]]
        colours = {seg.style.color.triplet for seg in middle if seg.style and seg.style.color}
        assert any(c is not None and c.red > 200 and c.green < 60 for c in colours)
        # a picture the book lacks shows its alt text in a frame, with one notice
        await pilot.pause()
        assert any("A picture the book lost" in line and line.lstrip().startswith("│") for line in lines(app))
        assert sum("A picture the book lost" in n.message for n in app._notifications) == 1


async def test_text_selection_still_maps_to_the_text_around_a_picture(tmp_path: Path) -> None:
    services, book_id = imported(write_illustrated_epub(tmp_path / "alice.epub"))
    async with ReaderApp(services, book_id=book_id).run_test(size=SIZE) as pilot:
        text = pilot.app.query_one(IllustratedPageText)
        await wait_until(pilot, lambda: text.settled() and bool(text.failed))
        page = text.lines()
        shown = lines(pilot.app)
        rows = [n for n in picture_rows(pilot.app) if n > shown.index("Down the Rabbit-Hole")]
        below = rows[-1] + 2  # the caption, then the next paragraph's first line
        start = page.starts[below + 1]
        assert text.text[start:].startswith("Alice sat")


@pytest.mark.parametrize("kind", ["fb2"])
async def test_fb2_pictures_are_drawn(tmp_path: Path, kind: str) -> None:
    services, book_id = imported(write_illustrated_fb2(tmp_path / "atlas.fb2"))
    async with ReaderApp(services, book_id=book_id).run_test(size=SIZE) as pilot:
        text = pilot.app.query_one(IllustratedPageText)
        await wait_until(pilot, lambda: text.settled() and bool(text.figures))
        assert picture_rows(pilot.app)
        assert any("A map of the steppe" in line for line in lines(pilot.app))


async def test_a_broken_picture_and_a_bomb_show_their_alt_text_and_one_notice_each(tmp_path: Path) -> None:
    book = write_illustrated_epub(
        tmp_path / "odd.epub",
        extra_pictures=[("bomb.png", bomb_png(), "A vast plain"), ("broken.png", BROKEN_PNG, "A torn plate")],
    )
    services, book_id = imported(book)
    services.books.set_current_page(book_id, 3)
    async with ReaderApp(services, book_id=book_id).run_test(size=SIZE, notifications=True) as pilot:
        app = pilot.app
        text = app.query_one(IllustratedPageText)
        await wait_until(pilot, lambda: len(text.failed) >= 2)
        await pilot.pause()
        shown = lines(app)
        framed = [line for line in shown if line.lstrip().startswith("│")]
        assert any("A vast plain" in line for line in framed)
        assert any("A torn plate" in line for line in framed)
        assert any("too large" in line for line in framed)
        notices = [n.message for n in app._notifications]
        assert sum("A vast plain" in m for m in notices) == 1
        assert sum("A torn plate" in m for m in notices) == 1
        # turning away and back draws the same alt text without a second notice
        await pilot.press("left")
        await pilot.press("right")
        await pilot.pause()
        notices = [n.message for n in app._notifications]
        assert sum("A vast plain" in m for m in notices) == 1


async def test_p_shows_a_pdf_page_as_printed_and_p_again_the_text(tmp_path: Path) -> None:
    services, book_id = imported(write_figure_pdf(tmp_path / "figures.pdf", ("prose", "captioned", "prose")))
    services.books.set_current_page(book_id, 2)
    async with ReaderApp(services, book_id=book_id).run_test(size=SIZE) as pilot:
        app = pilot.app
        text = app.query_one(IllustratedPageText)
        # the page's figure is found and drawn in its text
        await wait_until(pilot, lambda: bool(text.figures) and text.settled())
        assert picture_rows(app), text.failed
        assert "Figure on this page" in "\n".join(lines(app))
        await pilot.press("p")
        await wait_until(pilot, lambda: any("as printed" in line for line in lines(app)) and text.settled())
        assert text.text == ""
        assert len(picture_rows(app)) > 20
        await pilot.press("p")
        await pilot.pause()
        assert "as printed" not in "\n".join(lines(app))
        assert text.text.strip()


async def test_the_library_shows_the_highlighted_books_cover(tmp_path: Path) -> None:
    from reader.tui.images.cover_view import CoverView

    services, book_id = imported(write_illustrated_fb2(tmp_path / "atlas.fb2"))
    async with ReaderApp(services, book_id=book_id).run_test(size=(140, 44)) as pilot:
        app = pilot.app
        await wait_until(pilot, lambda: bool(app.query(CoverView)))
        cover = app.query_one(CoverView)
        await wait_until(pilot, lambda: cover.display and bool(cover._cover))
        first = cover.render_line(0).text
        assert UPPER_HALF in first
        assert "The Steppe Atlas"[:6] in first


def test_reader_info_says_whether_a_book_has_a_cover(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from reader.cli.main import main

    fb2 = write_illustrated_fb2(tmp_path / "atlas.fb2")
    plain = write_figure_pdf(tmp_path / "plain.pdf", ("prose",), title="Plain Prose")
    assert main(["import", str(fb2), str(plain)]) == 0
    capsys.readouterr()
    assert main(["info", "The Steppe Atlas"]) == 0
    assert "pictures  cover yes; 2 pages with pictures" in capsys.readouterr().out
    assert main(["info", "Plain Prose"]) == 0
    assert "cover none" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("setting", "answer", "env", "expected"),
    [
        ("auto", "\x1b_Gi=31;OK\x1b\\\x1b[?62;22c", {"TERM": "xterm-kitty"}, "kitty"),
        ("auto", "\x1b_Gi=31;OK\x1b\\\x1b[?62;4;22c", {"TERM": "xterm", "TMUX": "/tmp/t"}, "sixel"),
        ("auto", "\x1b[?62;4;6;22c", {"TERM": "foot"}, "sixel"),
        ("auto", "\x1b[?1;2c", {"TERM": "xterm-256color"}, "cells"),
        ("auto", "", {"TERM": "xterm-256color"}, "cells"),
        ("auto", "", {"TERM": "dumb"}, "off"),
        ("off", "\x1b_Gi=31;OK\x1b\\", {"TERM": "xterm-kitty"}, "off"),
        ("cells", "\x1b[?62;4c", {"TERM": "foot"}, "cells"),
    ],
)
def test_the_protocol_follows_the_terminals_answers_unless_configured(
    setting: str, answer: str, env: dict[str, str], expected: str
) -> None:
    from reader.tui.images.protocol import choose_protocol

    assert choose_protocol(setting, answer, env) == expected


def test_a_bad_images_setting_is_one_clear_line(tmp_path: Path) -> None:
    from reader.config import load_config
    from reader.domain.errors import ReaderError

    path = tmp_path / "config.toml"
    path.write_text('[ui]\nimages = "ascii"\n', encoding="utf-8")
    with pytest.raises(ReaderError, match=r"\[ui\] images must be one of auto, kitty, sixel, cells, off"):
        load_config(path)
    path.write_text('[ui]\nimages = "off"\n', encoding="utf-8")
    assert load_config(path).ui.images == "off"


async def test_images_off_shows_alt_text_frames_and_draws_nothing(tmp_path: Path) -> None:
    services, book_id = imported(write_illustrated_epub(tmp_path / "alice.epub"))
    async with ReaderApp(services, book_id=book_id).run_test(size=SIZE, notifications=True) as pilot:
        app = pilot.app
        text = app.query_one(IllustratedPageText)
        text.protocol = "off"
        await pilot.press("right")
        await pilot.press("left")
        await pilot.pause(0.2)
        shown = lines(app)
        assert not picture_rows(app)
        assert any("The White Rabbit checks his watch" in line and "│" in line for line in shown)
        assert not app._notifications


async def test_memory_stays_bounded_over_200_illustrated_pages(tmp_path: Path) -> None:
    from tests.fixtures_images import write_picture_book

    services, book_id = imported(write_picture_book(tmp_path / "plates.epub", 200))
    async with ReaderApp(services, book_id=book_id).run_test(size=SIZE) as pilot:
        text = pilot.app.query_one(IllustratedPageText)
        cache = text.cache
        cache.max_cells = 20_000  # a small bound, so the test turns past it quickly
        cache._entries.clear()
        cache.cells = 0
        pilot.app.query_one("#viewer").focus()
        for _ in range(1, 200):
            drawn = text.pictures_drawn
            await pilot.press("right")
            await wait_until(pilot, lambda drawn=drawn: text.pictures_drawn > drawn or bool(text.failed))
            assert cache.cells <= cache.max_cells
        assert not text.failed
        assert text.pictures_drawn >= 199
        assert len(cache) < 40  # of 200 drawn
        assert SCALED.bytes <= SCALED.max_bytes


async def test_kitty_pictures_are_sent_once_and_drawn_into_placeholder_cells(tmp_path: Path) -> None:
    import base64
    import io
    import re

    from PIL import Image

    from reader.tui.images.kitty import PLACEHOLDER, ROW_DIACRITICS

    services, book_id = imported(write_illustrated_epub(tmp_path / "alice.epub"))
    async with ReaderApp(services, book_id=book_id).run_test(size=SIZE) as pilot:
        app = pilot.app
        text = app.query_one(IllustratedPageText)
        sent: list[str] = []
        text.write_terminal = sent.append  # type: ignore[method-assign]
        text.protocol, text.cell_pixels = "kitty", (8, 16)
        text.cache.clear()
        app.query_one("#viewer").focus()
        await pilot.press("right")
        await pilot.press("left")
        await wait_until(pilot, lambda: text.pictures_drawn >= 2 and len(sent) >= 2)
        placed = [strip for strip in text._strips if PLACEHOLDER in strip.text]
        colour = next(seg.style.color.triplet for seg in placed[0] if seg.style and seg.style.color)
        image_id = (colour.red << 16) | (colour.green << 8) | colour.blue
        ours = [strip for strip in placed if any(seg.style and seg.style.color and seg.style.color.triplet == colour for seg in strip)]
        sending = next(data for data in sent if f",i={image_id}," in data)
        first = re.match(r"\x1b_Ga=T,U=1,f=100,q=2,i=(\d+),c=(\d+),r=(\d+),m=\d;", sending)
        assert first, sending[:80]
        columns, rows = int(first.group(2)), int(first.group(3))
        payload = "".join(re.findall(r"\x1b_G[^;]*;([^\x1b]*)\x1b\\", sending))
        picture = Image.open(io.BytesIO(base64.b64decode(payload)))
        assert picture.size == (columns * 8, rows * 16)  # drawn at the terminal's cell size
        assert len(ours) == rows
        assert ours[1].text.strip().startswith(PLACEHOLDER + ROW_DIACRITICS[1] + ROW_DIACRITICS[0])
        assert ours[0].text.count(PLACEHOLDER) == columns
        # turning back and forth draws from the cache: nothing is sent again
        count = len(sent)
        await pilot.press("right")
        await pilot.press("left")
        await pilot.pause(0.2)
        assert len(sent) == count
        # dropping the pictures frees them in the terminal
        text.cache.clear()
        assert f"\x1b_Ga=d,d=I,q=2,i={image_id}\x1b\\" in sent


async def test_an_answer_citing_a_page_with_a_picture_offers_to_show_it(
    tmp_path: Path, scripted_server: ScriptedServer
) -> None:
    from textual.widgets import Button

    from reader.config import ChatConfig, Config
    from reader.tui.panes.chat_pane import ChatPane
    from tests.support import scripted_server as scripted
    from tests.test_tui_chat import answered

    scripted_server.script_chat(scripted.text("The tea-party is drawn [p. 2]; the bank is only told of [p. 1]."))
    chat = ChatConfig(model="openai/scripted", api_base=scripted_server.base_url, tool_calling="on", max_retries=0)
    services = Services.open(config=Config(chat=chat))
    book = services.importer.import_file(write_illustrated_epub(tmp_path / "alice.epub")).book
    assert book is not None
    services.books.set_current_page(book.id, 3)
    async with ReaderApp(services, book_id=book.id).run_test(size=SIZE) as pilot:
        app = pilot.app
        pane = app.query_one(ChatPane)
        await answered(pilot, pane, "what is on the pages")
        offers = [b for b in pane.query(Button) if "figure-show" in b.classes]
        assert [str(b.label) for b in offers] == ["show p. 2", "show p. 1"]
        offers[0].press()
        await wait_until(pilot, lambda: app.session.number == 2)
        await wait_until(pilot, lambda: any("The tea-party" in line for line in lines(app)))


async def test_sixel_pictures_draw_each_line_after_the_frame_that_blanks_it(tmp_path: Path) -> None:
    import re

    services, book_id = imported(write_illustrated_epub(tmp_path / "alice.epub"))
    async with ReaderApp(services, book_id=book_id).run_test(size=SIZE) as pilot:
        app = pilot.app
        text = app.query_one(IllustratedPageText)
        sent: list[str] = []
        text.write_terminal = sent.append  # type: ignore[method-assign]
        text.protocol, text.cell_pixels = "sixel", (8, 16)
        text.cache.clear()
        app.query_one("#viewer").focus()
        await pilot.press("right")
        await wait_until(pilot, lambda: text.pictures_drawn >= 2 and bool(text._sixel_rows) and bool(sent))
        output = "".join(sent)
        images = re.findall(r"\x1b\[(\d+);(\d+)H\x1bP0;1;0q\"1;1;(\d+);(\d+)", output)
        assert output.startswith("\x1b7") and output.endswith("\x1b8")  # the cursor is put back
        # one sixel image per picture line, each 16 pixels (a cell) tall, on consecutive screen rows
        rows = sorted({int(row) for row, _, _, height in images if height == "16"})
        first = [row for n, row in enumerate(rows) if row == rows[0] + n]  # the first picture's lines
        tea = next(key for key in text.cache._entries if key[1:] == (50, 19, "sixel"))  # 400 x 300 pixels
        assert len(first) == len(text.cache.get(tea).sixels) == 19
        region = text.content_region
        first_line = min(text._sixel_rows) - text.scroll_offset.y
        assert rows[0] == region.y + first_line + 1  # 1-based screen rows
        # the page's lines under the picture hold blanks, not half-blocks: the terminal draws the picture
        assert not picture_rows(app)
        # scrolling repaints the lines, and the picture's lines are drawn again where they now are
        sent.clear()
        await pilot.press("down")
        await wait_until(pilot, lambda: bool(sent))
        again = sorted({int(row) for row, *_ in re.findall(r"\x1b\[(\d+);(\d+)H\x1bP", "".join(sent))})
        assert again and again[0] == rows[0] - 1


def test_scaled_pictures_are_bounded_by_their_bytes_least_recently_used_first() -> None:
    from PIL import Image

    from reader.tui.images.picture_cache import ScaledPictures

    scaled = ScaledPictures(max_bytes=3 * 40 * 40 * 3)
    for n in range(5):
        scaled.put(("image", n), Image.new("RGB", (40, 40), (n, n, n)))
        if n == 2:
            assert scaled.get(("image", 0)) is not None  # used: kept over ("image", 1) and ("image", 2)
    assert len(scaled) == 3
    assert scaled.bytes <= scaled.max_bytes
    assert scaled.get(("image", 0)) is not None
    assert scaled.get(("image", 1)) is None and scaled.get(("image", 2)) is None
    assert scaled.get(("image", 4)).getpixel((0, 0)) == (4, 4, 4)


def test_half_block_cells_share_one_style_per_colour_pair() -> None:
    from PIL import Image

    from reader.tui.images.cells import halfblock_strips

    image = Image.new("RGB", (4, 4), (255, 0, 0))
    image.putpixel((1, 0), (0, 0, 255))  # the second cell of the first row: blue over red
    image.putpixel((3, 2), (0, 0, 255))  # the last cell of the second row: the same pair
    first, second = halfblock_strips(image, 4, 2, pad_left=2)
    segments = [s for s in first if s.text.strip()], [s for s in second if s.text.strip()]
    assert [s.text for s in segments[0]] == [UPPER_HALF, UPPER_HALF, UPPER_HALF * 2]
    assert [s.text for s in segments[1]] == [UPPER_HALF * 3, UPPER_HALF]
    assert segments[0][1].style is segments[1][1].style
    assert segments[0][1].style.color.triplet == (0, 0, 255)
    assert segments[0][1].style.bgcolor.triplet == (255, 0, 0)
    assert first.cell_length == second.cell_length == 6
