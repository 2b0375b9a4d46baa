"""Agent overhead: time per tool round trip spent in our code (dispatch, SQL, formatting, persistence).

A scripted OpenAI-compatible server on 127.0.0.1 answers instantly through the real litellm client.
The model calls are timed from inside (request to last chunk); everything between the end of one
model call and the start of the next is ours: parsing the tool call, the handler (search or page
SQL), formatting, saving the assistant and tool messages, events and fitting the history.

Usage: python benchmarks/agent_overhead.py [--questions 20] [--calls 8] [--workdir DIR]
Target: our code under 10 ms p50 per tool round trip.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

TOOL_SCRIPT = [
    ("search_book", {"query": "Silas Crane and the boat"}),
    ("read_pages", {"start_page": "14", "end_page": "18"}),
    ("search_book", {"query": "who put out the light"}),
    ("get_current_page", {}),
    ("read_pages", {"start_page": "3", "end_page": "4"}),
    ("search_book", {"query": "the sealed letter"}),
    ("set_current_page", {"page": "999"}),
    ("search_book", {"query": "lamp oil ledger"}),
]


class TimedModel:
    """Wraps a ChatModel and records when each call starts and ends."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.spans: list[tuple[float, float]] = []

    @property
    def name(self) -> str:
        return str(self.inner.name)

    def supports_tools(self) -> bool:
        return True

    def supports_pdf_input(self) -> bool:
        return False

    def context_window(self) -> int:
        return int(self.inner.context_window())

    def stream(
        self, messages: Sequence[dict[str, Any]], tools: Sequence[dict[str, Any]] | None = None
    ) -> Iterator[Any]:
        start = time.perf_counter()
        pieces = list(self.inner.stream(messages, tools))  # the server is instant: no overlap lost
        self.spans.append((start, time.perf_counter()))
        yield from pieces


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=20)
    parser.add_argument("--calls", type=int, default=8, help="tool calls per question")
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args()

    from reader.adapters.llm.litellm_chat import LitellmChatModel
    from reader.app.chat.chat_with_book import ChatSettings, ChatWithBookUseCase
    from reader.cli.library_commands import import_sample
    from reader.config import Config
    from reader.domain.chat import AnswerEvent, ToolInvocationEvent
    from reader.domain.endpoint import EndpointSettings
    from reader.services import Services
    from tests.support import scripted_server as scripted

    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="reader-agent-bench-"))
    services = Services.open(workdir / "library.db", Config())
    book = import_sample(services)
    services.books.set_current_page(book.id, 20)

    gaps: list[float] = []
    model_times: list[float] = []
    turn_times: list[float] = []
    with scripted.ScriptedServer() as server:
        base = services.chat
        model = TimedModel(
            LitellmChatModel(EndpointSettings("openai/scripted", api_base=server.base_url, timeout=10))
        )
        chat = ChatWithBookUseCase(
            base.books,
            base.chunks,
            base.store,
            base.searcher,
            model,
            ChatSettings(tool_calling="on", max_tool_calls=args.calls),
        )
        warm = [scripted.tool_calls(scripted.call("get_current_page", {})), scripted.text("warm [p. 1].")]
        server.script_chat(*warm)
        list(chat.ask(book.id, "warm up"))
        for number in range(args.questions):
            replies = [
                scripted.tool_calls(scripted.call(*TOOL_SCRIPT[i % len(TOOL_SCRIPT)]))
                for i in range(args.calls)
            ]
            server.script_chat(*replies, scripted.text("The keeper kept the lamp [p. 3]."))
            model.spans.clear()
            start = time.perf_counter()
            events = list(chat.ask(book.id, f"Question {number}: tell me about the keeper"))
            turn_times.append(time.perf_counter() - start)
            assert isinstance(events[-1], AnswerEvent), events[-1]
            assert sum(isinstance(e, ToolInvocationEvent) for e in events) == args.calls
            spans = model.spans
            model_times += [end - begin for begin, end in spans]
            gaps += [spans[i + 1][0] - spans[i][1] for i in range(len(spans) - 1)]
    services.close()

    ms = 1000
    print(
        f"agent overhead: {args.questions} questions x {args.calls} tool calls on the sample novella (p. 20 of 30)"
    )
    print(
        f"  our code per tool round trip   p50 {statistics.median(gaps) * ms:6.2f} ms   p90 {percentile(gaps, 0.9) * ms:6.2f} ms   max {max(gaps) * ms:6.2f} ms   (target p50 < 10 ms)"
    )
    print(
        f"  model call (litellm + HTTP)    p50 {statistics.median(model_times) * ms:6.2f} ms   p90 {percentile(model_times, 0.9) * ms:6.2f} ms"
    )
    print(f"  whole question ({args.calls + 1} model calls) p50 {statistics.median(turn_times) * ms:6.1f} ms")
    return 0 if statistics.median(gaps) < 0.010 else 1


if __name__ == "__main__":
    sys.exit(main())
