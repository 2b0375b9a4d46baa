"""Pages with figures in the chat: one-page PDFs for a model that reads PDFs, a note for one that cannot.

Every request goes through the real litellm client to the scripted server, whose recorded request
bodies show exactly what the model was sent.
"""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from reader.app.chat.history import FILE_LEFT_OUT, estimate_tokens, fit_to_window
from reader.config import ChatConfig, Config
from reader.domain.chat import AnswerEvent, ToolInvocationEvent
from reader.domain.models import Book
from reader.services import Services
from tests.chat_helpers import final
from tests.fixtures_books import add_page_labels, write_figure_pdf
from tests.support import scripted_server as scripted

LAYOUTS = ("prose", "captioned", "prose", "figure", "captioned", "prose", "vector", "prose")
"""Page 2 a captioned figure, page 4 a full-page figure whose caption is on page 5, page 7 a chart."""


@pytest.fixture(scope="module")
def figure_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_figure_pdf(tmp_path_factory.mktemp("chat-figures") / "figures.pdf", LAYOUTS)


def library(pdf: Path, server: scripted.ScriptedServer, page: int, **chat: Any) -> tuple[Services, Book]:
    settings: dict[str, Any] = {
        "model": "openai/scripted",
        "api_base": server.base_url,
        "tool_calling": "on",
        "timeout": 10.0,
        "retry_backoff": 0.01,
    }
    services = Services.open(config=Config(chat=ChatConfig(**(settings | chat))))
    outcome = services.importer.import_file(pdf)
    assert outcome.book is not None, outcome.message
    services.books.set_current_page(outcome.book.id, page)
    book = services.books.get(outcome.book.id)
    assert book is not None
    return services, book


def read_then_answer(server: scripted.ScriptedServer, start: str, end: str) -> None:
    server.script_chat(
        scripted.tool_calls(scripted.call("read_pages", {"start_page": start, "end_page": end}, id="read")),
        scripted.text("The figure shows the lamp [p. 2]."),
    )


def file_parts(request: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(the text part before it, the file part) for every file the request carries."""
    found = []
    for message in request["messages"]:
        content = message.get("content")
        if not isinstance(content, list):
            continue
        for before, part in zip([{}, *content], content, strict=False):
            if part.get("type") == "file":
                found.append((before.get("text", ""), part["file"]))
    return found


def pdf_pages(file: dict[str, Any]) -> list[str]:
    """The text of each page of an attached PDF."""
    prefix = "data:application/pdf;base64,"
    assert file["file_data"].startswith(prefix)
    reader = PdfReader(io.BytesIO(base64.b64decode(file["file_data"][len(prefix) :])))
    return [page.extract_text() for page in reader.pages]


def tool_text(request: dict[str, Any]) -> str:
    return next(m["content"] for m in request["messages"] if m.get("role") == "tool")


def test_a_figure_page_is_attached_as_a_one_page_pdf_after_the_tool_result(
    figure_pdf: Path, scripted_server: scripted.ScriptedServer
) -> None:
    services, book = library(figure_pdf, scripted_server, page=3, pdf_input="on")
    read_then_answer(scripted_server, "1", "3")
    events = list(services.chat.ask(book.id, "What does the figure on page 2 show?"))
    assert isinstance(final(events), AnswerEvent)
    first, second = scripted_server.chat_requests()
    assert file_parts(first) == []
    ((label_text, file),) = file_parts(second)
    assert file["filename"] == "page-2.pdf"
    (page_text,) = pdf_pages(file)
    assert "Figure 2. The lamp mechanism" in page_text
    assert "p. 2 of Figures and Prose (page 2 of 8)" in label_text and "Cite it as [p. 2]" in label_text
    messages = second["messages"]
    roles = [m["role"] for m in messages]
    assert roles[-3:] == ["assistant", "tool", "user"]  # the file follows the tool results
    text = tool_text(second)
    assert "[p. 2]" in text and "attached as a PDF after these results (p. 2)" in text
    (invocation,) = [e for e in events if isinstance(e, ToolInvocationEvent)]
    assert invocation.summary == "read_pages pp. 1-3 + p. 2 as PDF"
    services.close()


def test_a_figure_whose_caption_runs_on_brings_the_next_page_within_the_horizon(
    figure_pdf: Path, scripted_server: scripted.ScriptedServer
) -> None:
    services, book = library(figure_pdf, scripted_server, page=6, pdf_input="on")
    read_then_answer(scripted_server, "4", "4")
    list(services.chat.ask(book.id, "What is on page 4?"))
    ((label_text, file),) = file_parts(scripted_server.chat_requests()[1])
    assert file["filename"] == "page-4-5.pdf" and "pp. 4-5" in label_text
    full_page, caption = pdf_pages(file)
    assert full_page.strip() == "" and "Figure 5." in caption
    services.close()


def test_no_page_after_the_readers_page_is_ever_attached(
    figure_pdf: Path, scripted_server: scripted.ScriptedServer
) -> None:
    # the reader is on the full-page figure; its caption (page 5) is past the horizon
    services, book = library(figure_pdf, scripted_server, page=4, pdf_input="on")
    read_then_answer(scripted_server, "1", "8")
    list(services.chat.ask(book.id, "Show me the figures so far"))
    second = scripted_server.chat_requests()[1]
    files = file_parts(second)
    assert [f["filename"] for _, f in files] == ["page-2.pdf", "page-4.pdf"]
    attached = [text for _, f in files for text in pdf_pages(f)]
    assert not any("Figure 5." in text or "Figure 7." in text or "page 6" in text for text in attached)
    assert "Figure 5." not in tool_text(second) and "Stopped at p. 4" in tool_text(second)
    services.close()


def test_printed_labels_name_the_attached_page(
    tmp_path: Path, scripted_server: scripted.ScriptedServer
) -> None:
    pdf = add_page_labels(write_figure_pdf(tmp_path / "labelled.pdf", ("prose", "prose", "captioned")), 2)
    services, book = library(pdf, scripted_server, page=3, pdf_input="on")
    read_then_answer(scripted_server, "1", "1")  # the printed label 1 is the third page
    list(services.chat.ask(book.id, "What is on page 1?"))
    ((label_text, file),) = file_parts(scripted_server.chat_requests()[1])
    assert file["filename"] == "page-1.pdf" and "Cite it as [p. 1]" in label_text
    assert "(page 3 of 3)" in label_text and "Figure 3." in pdf_pages(file)[0]
    services.close()


@pytest.mark.parametrize("setting", ["off", "auto"])  # litellm does not know openai/scripted reads PDFs
def test_a_model_without_pdf_input_gets_the_text_and_a_note(
    setting: str, figure_pdf: Path, scripted_server: scripted.ScriptedServer
) -> None:
    services, book = library(figure_pdf, scripted_server, page=8, pdf_input=setting)
    read_then_answer(scripted_server, "1", "5")
    list(services.chat.ask(book.id, "What do the figures show?"))
    second = scripted_server.chat_requests()[1]
    assert file_parts(second) == []
    assert all(isinstance(m.get("content"), str | None) for m in second["messages"])
    text = tool_text(second)
    assert "Figure 2. The lamp mechanism" in text
    assert "p. 2 has figures (visual importance 4 of 5) that you cannot see" in text
    assert "p. 4 has figures (visual importance 5 of 5) that you cannot see" in text
    assert "[p. 1]\n" in text and "p. 1 has figures" not in text
    services.close()


def test_a_missing_file_falls_back_to_the_note(
    tmp_path: Path, scripted_server: scripted.ScriptedServer
) -> None:
    pdf = write_figure_pdf(tmp_path / "moved.pdf", ("captioned", "prose"))
    services, book = library(pdf, scripted_server, page=2, pdf_input="on")
    pdf.unlink()
    read_then_answer(scripted_server, "1", "1")
    list(services.chat.ask(book.id, "What is the figure?"))
    second = scripted_server.chat_requests()[1]
    assert file_parts(second) == []
    assert "it could not be attached: The file of" in tool_text(second)
    services.close()


def test_attached_files_count_against_the_window_and_are_left_out_first() -> None:
    attachment = {
        "role": "user",
        "content": [
            {"type": "text", "text": "Attached by read_pages: p. 2."},
            {
                "type": "file",
                "file": {"filename": "page-2.pdf", "file_data": "data:application/pdf;base64,AAAA"},
            },
        ],
    }
    assert estimate_tokens(attachment) > 1500
    tool = {"role": "tool", "tool_call_id": "x", "content": "page text " * 50}
    system = {"role": "system", "content": "system"}
    fitted = fit_to_window(system, [], [{"role": "user", "content": "q"}, tool, attachment], window=1200)
    assert fitted[2]["content"] == tool["content"]  # the text stays
    parts = fitted[3]["content"]
    assert [p["type"] for p in parts] == ["text", "text"] and parts[1]["text"] == FILE_LEFT_OUT
    roomy = fit_to_window(system, [], [tool, attachment], window=100_000)
    assert roomy[2] == attachment


def test_pdf_input_is_auto_on_or_off_in_the_config(tmp_path: Path) -> None:
    from reader.config import load_config
    from reader.domain.errors import ReaderError

    path = tmp_path / "config.toml"
    path.write_text('[chat]\npdf_input = "on"\n')
    assert load_config(path).chat.pdf_input == "on"
    path.write_text('[chat]\npdf_input = "sometimes"\n')
    with pytest.raises(ReaderError, match=r"\[chat\] pdf_input must be auto, on or off"):
        load_config(path)
