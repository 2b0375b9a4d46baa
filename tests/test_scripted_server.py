"""The scripted OpenAI-compatible server, exercised through the real litellm client on 127.0.0.1."""

from __future__ import annotations

import json
import math
import threading
import time
import urllib.request
from typing import Any

import litellm
import pytest

from tests.support import scripted_server as scripted
from tests.support.scripted_server import ScriptedServer

litellm.suppress_debug_info = True

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": name,
            "description": name,
            "parameters": {"type": "object", "properties": {}},
        },
    }
    for name in ("search_book", "read_pages")
]
MESSAGES = [{"role": "user", "content": "Who kept the lamp?"}]


def complete(server: ScriptedServer, **kwargs: Any) -> Any:
    """One litellm chat call to the server, never retried."""
    settings: dict[str, Any] = {
        "model": "openai/scripted",
        "api_base": server.base_url,
        "api_key": "test",
        "messages": MESSAGES,
        "max_retries": 0,
        "num_retries": 0,
        "timeout": 10,
    }
    return litellm.completion(**(settings | kwargs))


def embed(server: ScriptedServer, inputs: str | list[str], **kwargs: Any) -> list[list[float]]:
    response = litellm.embedding(
        model="openai/scripted",
        api_base=server.base_url,
        api_key="test",
        input=inputs,
        max_retries=0,
        num_retries=0,
        timeout=10,
        **kwargs,
    )
    return [row["embedding"] if isinstance(row, dict) else row.embedding for row in response.data]


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_a_plain_reply_echoes_the_model_and_counts_usage(scripted_server: ScriptedServer) -> None:
    scripted_server.script_chat(scripted.text("Silas Crane kept it [p. 2]."))
    response = complete(scripted_server)
    assert response.choices[0].message.content == "Silas Crane kept it [p. 2]."
    assert response.choices[0].finish_reason == "stop"
    assert response.model.endswith("scripted")
    assert response.usage.total_tokens == response.usage.prompt_tokens + response.usage.completion_tokens > 0
    (body,) = scripted_server.chat_requests()
    assert body["messages"] == MESSAGES and body["model"] == "scripted" and not body.get("stream")
    assert scripted_server.requests[0]["path"] == "/v1/chat/completions"
    assert scripted_server.chat_replies_left == 0


def test_streamed_text_arrives_in_several_distinct_deltas(scripted_server: ScriptedServer) -> None:
    content = "The keeper " + " ".join(f"very{i}" for i in range(40)) + " tired [p. 9]."
    scripted_server.script_chat(scripted.text(content))
    chunks = list(complete(scripted_server, stream=True))
    deltas = [c.choices[0].delta.content for c in chunks if c.choices and c.choices[0].delta.content]
    assert 3 <= len(deltas) <= scripted.TEXT_PIECES and "".join(deltas) == content
    assert all(a != b for a, b in zip(deltas, deltas[1:], strict=False))
    built = litellm.stream_chunk_builder(chunks, messages=MESSAGES)
    assert built.choices[0].message.content == content
    assert built.choices[0].finish_reason == "stop"
    assert scripted_server.chat_requests()[0]["stream"] is True


def test_the_raw_stream_is_server_sent_events_with_usage_last(scripted_server: ScriptedServer) -> None:
    scripted_server.script_chat(scripted.tool_calls(scripted.call("search_book", {"query": "the lamp"})))
    request = urllib.request.Request(
        scripted_server.base_url + "/chat/completions",
        data=json.dumps({"model": "m", "messages": MESSAGES, "stream": True}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        assert response.headers["Content-Type"] == "text/event-stream"
        lines = [line for line in response.read().decode().splitlines() if line]
    assert all(line.startswith("data: ") for line in lines) and lines[-1] == "data: [DONE]"
    chunks = [json.loads(line[6:]) for line in lines[:-1]]
    assert len({json.dumps(c) for c in chunks}) == len(chunks)  # never the same chunk twice
    assert all(c["object"] == "chat.completion.chunk" and c["model"] == "m" for c in chunks)
    first, *middle, last = chunks
    assert first["choices"][0]["delta"]["role"] == "assistant"
    (opening, *pieces) = [c["choices"][0]["delta"]["tool_calls"][0] for c in middle]
    assert opening == {
        "index": 0,
        "id": "call_1",
        "type": "function",
        "function": {"name": "search_book", "arguments": ""},
    }
    assert len(pieces) > 1 and all(set(p) == {"index", "function"} for p in pieces)
    assert "".join(p["function"]["arguments"] for p in pieces) == '{"query": "the lamp"}'
    assert last["choices"][0]["finish_reason"] == "tool_calls" and last["usage"]["total_tokens"] > 0


def test_streamed_tool_calls_are_split_and_reassembled(scripted_server: ScriptedServer) -> None:
    scripted_server.script_chat(
        scripted.tool_calls(
            scripted.call("search_book", {"query": "Silas Crane and the boat"}, id="call_a"),
            scripted.call("read_pages", '{"start_page": "2'),  # malformed JSON goes out verbatim
        )
    )
    chunks = list(complete(scripted_server, stream=True, tools=TOOLS))
    argument_deltas = [
        call.function.arguments
        for c in chunks
        if c.choices and c.choices[0].delta.tool_calls
        for call in c.choices[0].delta.tool_calls
        if call.function.arguments
    ]
    assert len(argument_deltas) >= 4  # each call's arguments arrive in pieces
    built = litellm.stream_chunk_builder(chunks, messages=MESSAGES)
    choice = built.choices[0]
    assert choice.finish_reason == "tool_calls"
    calls = [(c.id, c.function.name, c.function.arguments) for c in choice.message.tool_calls]
    assert calls == [
        ("call_a", "search_book", '{"query": "Silas Crane and the boat"}'),
        ("call_1", "read_pages", '{"start_page": "2'),
    ]
    assert [t["function"]["name"] for t in scripted_server.chat_requests()[0]["tools"]] == [
        "search_book",
        "read_pages",
    ]


def test_tool_calls_without_streaming(scripted_server: ScriptedServer) -> None:
    scripted_server.script_chat(
        scripted.tool_calls(
            scripted.call("read_pages", {"start_page": 1, "end_page": 2}), content="Let me look."
        )
    )
    message = complete(scripted_server, tools=TOOLS).choices[0].message
    assert message.content == "Let me look."
    (tool_call,) = message.tool_calls
    assert tool_call.function.name == "read_pages"
    assert json.loads(tool_call.function.arguments) == {"start_page": 1, "end_page": 2}


def test_replies_are_used_in_order_and_then_run_out(scripted_server: ScriptedServer) -> None:
    scripted_server.script_chat(scripted.text("one"))
    scripted_server.script_chat(scripted.text("two"))
    assert [complete(scripted_server).choices[0].message.content for _ in range(2)] == ["one", "two"]
    with pytest.raises(litellm.InternalServerError, match="no scripted reply left"):
        complete(scripted_server)


def test_a_reply_can_be_computed_from_the_request(scripted_server: ScriptedServer) -> None:
    scripted_server.script_chat(scripted.respond(lambda body: scripted.text(body["messages"][-1]["content"])))
    assert complete(scripted_server).choices[0].message.content == "Who kept the lamp?"


@pytest.mark.parametrize(
    ("reply", "exception"),
    [
        (scripted.error(400, "Invalid 'messages'"), litellm.BadRequestError),
        (scripted.error(401, "Incorrect API key provided: sk-abc"), litellm.AuthenticationError),
        (scripted.error(401, "Bad token", type_="authentication_error"), litellm.AuthenticationError),
        # litellm 1.106 maps an "invalid_request_error" body to BadRequestError whatever the status;
        # 1.110 maps the 401 to AuthenticationError (the reader's error line is the same for both)
        (scripted.error(401, "Invalid API Key"), (litellm.BadRequestError, litellm.AuthenticationError)),
        (scripted.error(403, "Not allowed"), litellm.APIError),  # litellm has no 403 mapping for openai/
        (scripted.error(404, "The model `scripted` does not exist"), litellm.NotFoundError),
        (scripted.error(429, "Rate limit reached"), litellm.RateLimitError),
        (scripted.error(500, "boom"), litellm.InternalServerError),
        (scripted.error(503, "overloaded"), litellm.ServiceUnavailableError),
    ],
    ids=lambda value: f"{value.status}-{value.type}" if isinstance(value, scripted.Error) else "",
)
@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
def test_errors_map_to_litellm_exceptions(
    scripted_server: ScriptedServer,
    reply: scripted.Error,
    exception: type[Exception] | tuple[type[Exception], ...],
    stream: bool,
) -> None:
    scripted_server.script_chat(reply)
    with pytest.raises(exception, match=reply.message.replace("`", ".").split(":")[0]) as raised:
        complete(scripted_server, stream=stream)
    assert getattr(raised.value, "status_code", None) == reply.status
    assert len(scripted_server.chat_requests()) == 1  # not retried


def test_error_bodies_have_the_openai_shape() -> None:
    assert scripted.error(401, "bad key") == scripted.Error(
        401, "bad key", "invalid_request_error", "invalid_api_key"
    )
    assert scripted.error(404, "gone").code == "model_not_found"
    assert scripted.error(429, "slow").code == "rate_limit_exceeded"
    assert scripted.error(502, "down").type == "server_error"
    assert scripted.error(400, "x", type_="t", code="c") == scripted.Error(400, "x", "t", "c")


def test_a_delay_longer_than_the_timeout_times_out(scripted_server: ScriptedServer) -> None:
    scripted_server.script_chat(scripted.delay(5.0, then=scripted.text("too late")), scripted.text("next"))
    start = time.perf_counter()
    with pytest.raises(litellm.Timeout):
        complete(scripted_server, timeout=0.3)
    assert time.perf_counter() - start < 2
    assert complete(scripted_server).choices[0].message.content == "next"  # the server is still fine


def test_a_short_delay_then_answers(scripted_server: ScriptedServer) -> None:
    scripted_server.script_chat(scripted.delay(0.2, then=scripted.text("a moment later")))
    start = time.perf_counter()
    assert complete(scripted_server, stream=True, timeout=5)
    assert time.perf_counter() - start >= 0.2


def test_stopping_does_not_wait_for_a_pending_delay() -> None:
    server = ScriptedServer().start()
    server.script_chat(scripted.delay(30.0, then=scripted.text("never")))
    failures: list[BaseException] = []

    def ask() -> None:
        try:
            complete(server, timeout=20)
        except Exception as error:  # noqa: BLE001 - recorded for the assertion
            failures.append(error)

    caller = threading.Thread(target=ask, daemon=True)
    caller.start()
    deadline = time.monotonic() + 5
    while not server.chat_requests() and time.monotonic() < deadline:
        time.sleep(0.01)
    start = time.perf_counter()
    server.stop()
    assert time.perf_counter() - start < 1
    caller.join(timeout=5)
    assert not caller.is_alive() and failures  # the client saw the connection drop


def test_models_are_listed(scripted_server: ScriptedServer) -> None:
    with urllib.request.urlopen(scripted_server.base_url + "/models", timeout=5) as response:
        body = json.load(response)
    assert body["object"] == "list" and body["data"][0]["id"] == "scripted"


def test_default_embeddings_are_normalised_bags_of_words() -> None:
    with ScriptedServer(embedding_dim=64) as server:
        rows = embed(server, ["The lamp went out", "the LAMP went out!", "Silas rowed the boat", ""])
        (single,) = embed(server, "The lamp went out")
    assert [len(row) for row in rows] == [64] * 4
    assert all(math.isclose(math.sqrt(sum(x * x for x in row)), 1.0) for row in rows)
    assert rows[0] == rows[1] == single  # lower-cased words, deterministic
    assert cosine(rows[0], rows[1]) > cosine(rows[0], rows[2])
    assert rows[0] == scripted.default_embedding("the lamp went out", 64)
    assert [body["input"] for body in server.embedding_requests()] == [
        ["The lamp went out", "the LAMP went out!", "Silas rowed the boat", ""],
        "The lamp went out",
    ]


def test_a_single_string_input_is_embedded(scripted_server: ScriptedServer) -> None:
    request = urllib.request.Request(
        scripted_server.base_url + "/embeddings",
        data=json.dumps({"model": "m", "input": "the lamp"}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        body = json.load(response)
    assert body["object"] == "list" and body["model"] == "m" and body["usage"]["prompt_tokens"] == 2
    (row,) = body["data"]
    assert row["object"] == "embedding" and row["index"] == 0
    assert row["embedding"] == scripted.default_embedding("the lamp", scripted_server.embedding_dim)


def test_scripted_embedding_replies(scripted_server: ScriptedServer, monkeypatch: pytest.MonkeyPatch) -> None:
    # litellm quirk: embedding() turns max_retries=0 into DEFAULT_MAX_RETRIES (`max_retries or ...`)
    monkeypatch.setattr(litellm, "DEFAULT_MAX_RETRIES", 0)
    scripted_server.script_embeddings(
        scripted.vectors([[1.0, 0.0], [0.0, 1.0]]),
        scripted.embeddings_wrong_dim(3),
        scripted.error(429, "embedding quota"),
    )
    assert embed(scripted_server, ["a", "b"]) == [[1.0, 0.0], [0.0, 1.0]]
    assert [len(row) for row in embed(scripted_server, ["a", "b", "c"])] == [3, 3, 3]
    with pytest.raises(litellm.RateLimitError, match="embedding quota"):
        embed(scripted_server, ["a"])
    assert [len(row) for row in embed(scripted_server, ["a"])] == [scripted_server.embedding_dim]
    assert len(scripted_server.embedding_requests()) == 4 and scripted_server.chat_requests() == []


@pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning")  # litellm passes the string on
def test_base64_embeddings_when_asked(scripted_server: ScriptedServer) -> None:
    (row,) = embed(scripted_server, ["the lamp"], encoding_format="base64")
    if isinstance(row, str):  # litellm hands the encoded string through as asked
        import base64
        import struct

        data = base64.b64decode(row)
        row = list(struct.unpack(f"<{len(data) // 4}f", data))
    expected = scripted.default_embedding("the lamp", scripted_server.embedding_dim)
    assert all(math.isclose(a, b, rel_tol=1e-6) for a, b in zip(row, expected, strict=True))
