"""A scripted OpenAI-compatible server on 127.0.0.1 for tests (standard library only).

Tests queue the replies the "model" gives, then talk to it through the real litellm client::

    with ScriptedServer() as server:
        server.script_chat(
            tool_calls(call("read_pages", {"start_page": "2", "end_page": "3"})),
            text("She met the boatman [p. 2]."),
        )
        ...  # litellm.completion(model="openai/scripted", api_base=server.base_url, api_key="x", ...)
        server.chat_requests()  # the JSON bodies the client sent

- POST /v1/chat/completions pops one scripted reply per request (500 "no scripted reply left" when
  the queue is empty). `"stream": true` gets server-sent events: text split into a few deltas, each
  tool call's arguments split across several deltas, a last chunk with the finish reason and usage.
- POST /v1/embeddings pops from its own queue; when that is empty every input gets a deterministic
  hashed bag-of-words vector of `embedding_dim` (L2-normalised, so texts sharing words are close).
- GET /v1/models lists one model.

litellm raises when a stream repeats the same chunk 100 times; streams here have at most a handful
of content pieces, so that can never happen.
"""

from __future__ import annotations

import base64
import itertools
import json
import math
import re
import socket
import struct
import sys
import threading
import time
import zlib
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = [
    "Call",
    "Delay",
    "Error",
    "Reply",
    "Respond",
    "ScriptedServer",
    "Text",
    "ToolCalls",
    "Vectors",
    "WrongDim",
    "call",
    "default_embedding",
    "delay",
    "embeddings_wrong_dim",
    "error",
    "respond",
    "text",
    "text_pieces",
    "tool_calls",
    "vectors",
]

TEXT_PIECES = 4
"""At most this many content deltas per streamed text."""
ARGUMENT_PIECES = 3
"""At most this many argument deltas per streamed tool call (after the one naming the tool)."""
NO_REPLY_LEFT = "no scripted reply left"


# -- replies -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Text:
    """An assistant message with text content."""

    content: str
    finish_reason: str = "stop"
    pieces: tuple[str, ...] = ()
    """The content deltas to stream, exactly (joined they are `content`); empty: split at words."""


@dataclass(frozen=True)
class Call:
    """One tool call; `arguments` is sent verbatim (it may be malformed JSON on purpose)."""

    name: str
    arguments: str
    id: str | None = None


@dataclass(frozen=True)
class ToolCalls:
    """An assistant message calling tools (optionally with some text before the calls)."""

    calls: tuple[Call, ...]
    content: str = ""


@dataclass(frozen=True)
class Error:
    """An HTTP error with an OpenAI-style error body."""

    status: int
    message: str
    type: str
    code: str | None = None


@dataclass(frozen=True)
class Delay:
    """Wait `seconds` (cut short when the server stops), then send `then` (None: hang up)."""

    seconds: float
    then: Reply | None


@dataclass(frozen=True)
class Respond:
    """Compute the reply from the request's JSON body when the request arrives."""

    fn: Callable[[dict[str, Any]], Reply]


@dataclass(frozen=True)
class Vectors:
    """An embeddings reply with exactly these vectors."""

    vectors: tuple[tuple[float, ...], ...]


@dataclass(frozen=True)
class WrongDim:
    """An embeddings reply with one vector of dimension `dim` per input (not the server's)."""

    dim: int


Reply = Text | ToolCalls | Error | Delay | Respond | Vectors | WrongDim


def text(content: str, finish_reason: str = "stop") -> Text:
    """The model answers with `content`."""
    return Text(content, finish_reason)


def text_pieces(*pieces: str) -> Text:
    """The model answers with these exact stream deltas (a word or a name may be cut between them)."""
    return Text("".join(pieces), pieces=tuple(pieces))


def tool_calls(*calls: Call, content: str = "") -> ToolCalls:
    """The model calls these tools (in order, in one reply)."""
    return ToolCalls(tuple(calls), content)


def call(name: str, arguments: str | dict[str, Any], id: str | None = None) -> Call:
    """One tool call: a dict is JSON-encoded, a str sent as is; the id is "call_N" when None."""
    encoded = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return Call(name, encoded, id)


_DEFAULT_ERRORS: dict[int, tuple[str, str | None]] = {
    400: ("invalid_request_error", None),
    401: ("invalid_request_error", "invalid_api_key"),
    403: ("permission_error", None),
    404: ("invalid_request_error", "model_not_found"),
    413: ("invalid_request_error", "request_too_large"),
    422: ("invalid_request_error", None),
    429: ("requests", "rate_limit_exceeded"),
}


def error(status: int, message: str, type_: str | None = None, code: str | None = None) -> Error:
    """An HTTP `status` with an OpenAI error body; type and code default by status (as OpenAI sends them).

    litellm quirk: for `openai/...` models it maps any body whose type is "invalid_request_error" to
    BadRequestError (keeping `status_code`), except code "model_not_found" (NotFoundError) and a 401
    whose message holds "Incorrect API key provided" (AuthenticationError, as OpenAI words it).
    Pass ``type_="authentication_error"`` for a 401 that litellm maps by its status.
    """
    default_type, default_code = _DEFAULT_ERRORS.get(
        status, ("server_error", None) if status >= 500 else ("invalid_request_error", None)
    )
    return Error(status, message, type_ or default_type, code if code is not None else default_code)


def delay(seconds: float, then: Reply | None = None) -> Delay:
    """Wait, then reply with `then` (or close the connection without a reply when it is None)."""
    return Delay(seconds, then)


def respond(fn: Callable[[dict[str, Any]], Reply]) -> Respond:
    """A reply computed from the request body, e.g. ``respond(lambda body: text(str(len(body["messages"]))))``."""
    return Respond(fn)


def vectors(rows: list[list[float]]) -> Vectors:
    """An embeddings reply holding exactly these vectors."""
    return Vectors(tuple(tuple(float(x) for x in row) for row in rows))


def embeddings_wrong_dim(dim: int) -> WrongDim:
    """An embeddings reply whose vectors have dimension `dim` (one per input)."""
    return WrongDim(dim)


def default_embedding(value: str, dim: int) -> list[float]:
    """A hashed bag of lower-cased words, L2-normalised (stable across runs: crc32, not hash())."""
    counts = [0.0] * dim
    for word in re.findall(r"\w+", value.lower()):
        counts[zlib.crc32(word.encode("utf-8")) % dim] += 1.0
    norm = math.sqrt(sum(x * x for x in counts))
    if norm == 0.0:
        return [1.0 / math.sqrt(dim)] * dim
    return [x / norm for x in counts]


# -- the server ----------------------------------------------------------------------------------


class _HTTPServer(ThreadingHTTPServer):
    """Tracks open connections so stopping can close idle keep-alive ones at once."""

    daemon_threads = True

    def __init__(self, owner: ScriptedServer) -> None:
        self.owner = owner
        self.connections: set[socket.socket] = set()
        self.connections_lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), _Handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        with self.connections_lock:
            self.connections.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self.connections_lock:
            self.connections.discard(request)
        super().shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Clients hanging up (timeouts, cancelled streams) are expected; anything else is printed."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)

    def close_connections(self) -> None:
        with self.connections_lock:
            open_now = list(self.connections)
        for connection in open_now:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class ScriptedServer:
    """An OpenAI-compatible server on 127.0.0.1 that answers from queued, scripted replies."""

    def __init__(self, embedding_dim: int = 8) -> None:
        self.embedding_dim = embedding_dim
        self._lock = threading.Lock()
        self._chat: deque[Reply] = deque()
        self._embeddings: deque[Reply] = deque()
        self._requests: list[dict[str, Any]] = []
        self._stopping = threading.Event()
        self._ids = itertools.count(1)
        self._call_ids = itertools.count(1)
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    # life cycle

    def start(self) -> ScriptedServer:
        if self._httpd is None:
            self._stopping.clear()
            self._httpd = _HTTPServer(self)
            self._thread = threading.Thread(
                target=self._httpd.serve_forever,
                kwargs={"poll_interval": 0.05},
                name=f"scripted-server-{self.port}",
                daemon=True,
            )
            self._thread.start()
        return self

    def stop(self) -> None:
        httpd, thread = self._httpd, self._thread
        if httpd is None:
            return
        self._stopping.set()  # wakes pending delays
        httpd.shutdown()
        httpd.close_connections()
        httpd.server_close()
        if thread is not None:
            thread.join(timeout=2)
        self._httpd = self._thread = None

    def __enter__(self) -> ScriptedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("the scripted server is not running; use it as a context manager")
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # scripting

    def script_chat(self, *replies: Reply) -> None:
        """Queue replies for chat completions, one per request, first in first out."""
        with self._lock:
            self._chat.extend(replies)

    def script_embeddings(self, *replies: Reply) -> None:
        """Queue replies for embeddings requests; when none are left the default vectors answer."""
        with self._lock:
            self._embeddings.extend(replies)

    @property
    def chat_replies_left(self) -> int:
        with self._lock:
            return len(self._chat)

    # what the clients sent

    @property
    def requests(self) -> list[dict[str, Any]]:
        """Every request so far: {"method", "path", "json"} (json is None for bodies that are not JSON)."""
        with self._lock:
            return list(self._requests)

    def chat_requests(self) -> list[dict[str, Any]]:
        """The JSON bodies of the chat completion requests, in order."""
        return [r["json"] for r in self.requests if r["path"].endswith("/chat/completions")]

    def embedding_requests(self) -> list[dict[str, Any]]:
        """The JSON bodies of the embeddings requests, in order."""
        return [r["json"] for r in self.requests if r["path"].endswith("/embeddings")]

    # used by the handler

    def _record(self, method: str, path: str, body: Any) -> None:
        with self._lock:
            self._requests.append({"method": method, "path": path, "json": body})

    def _next(self, queue: deque[Reply]) -> Reply | None:
        with self._lock:
            return queue.popleft() if queue else None

    def _next_id(self, prefix: str) -> str:
        return f"{prefix}_{next(self._ids)}"


def _route(path: str) -> str:
    path = path.split("?", 1)[0].rstrip("/")
    for name in ("/chat/completions", "/embeddings", "/models"):
        if path.endswith(name):
            return name
    return path


def _split_words(value: str, pieces: int) -> list[str]:
    """`value` cut at word starts into at most `pieces` parts that join back exactly."""
    starts = [m.start() for m in re.finditer(r"\S+", value)]
    if len(starts) <= 1:
        return [value] if value else []
    count = min(pieces, len(starts))
    cuts = [0] + [starts[len(starts) * i // count] for i in range(1, count)] + [len(value)]
    return [value[a:b] for a, b in itertools.pairwise(cuts) if b > a]


def _split_chars(value: str, pieces: int) -> list[str]:
    """`value` cut into at most `pieces` non-empty parts of similar length."""
    if not value:
        return []
    count = max(1, min(pieces, len(value)))
    cuts = [len(value) * i // count for i in range(count + 1)]
    return [value[a:b] for a, b in itertools.pairwise(cuts) if b > a]


def _tokens(value: Any) -> int:
    """A rough token count for usage figures."""
    return len(re.findall(r"\w+|[^\w\s]", json.dumps(value) if not isinstance(value, str) else value))


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _HTTPServer

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet in tests
        pass

    @property
    def owner(self) -> ScriptedServer:
        return self.server.owner

    # dispatch

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        self.owner._record("GET", self.path, None)
        if _route(self.path) == "/models":
            self._send_json(
                200,
                {
                    "object": "list",
                    "data": [{"id": "scripted", "object": "model", "created": 0, "owned_by": "scripted"}],
                },
            )
        else:
            self._send_error(error(404, f"Unknown path {self.path}"))

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else {}
        except ValueError:
            self.owner._record("POST", self.path, None)
            self._send_error(error(400, "The request body is not valid JSON"))
            return
        self.owner._record("POST", self.path, body)
        route = _route(self.path)
        try:
            if route == "/chat/completions":
                self._chat(body)
            elif route == "/embeddings":
                self._embeddings(body)
            else:
                self._send_error(error(404, f"Unknown path {self.path}"))
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout, cancel)
            self.close_connection = True

    def _resolve(self, reply: Reply | None, body: dict[str, Any]) -> Reply | None:
        """Run delays and dynamic replies down to a plain reply (None: hang up)."""
        while isinstance(reply, Delay | Respond):
            if isinstance(reply, Respond):
                reply = reply.fn(body)
            else:
                if self.owner._stopping.wait(reply.seconds):
                    return None
                reply = reply.then
        return reply

    def _hang_up(self) -> None:
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    # chat completions

    def _chat(self, body: dict[str, Any]) -> None:
        queued = self.owner._next(self.owner._chat)
        if queued is None:
            queued = error(500, f"ScriptedServer: {NO_REPLY_LEFT} for this chat request")
        reply = self._resolve(queued, body)
        if reply is None:
            self._hang_up()
        elif isinstance(reply, Error):
            self._send_error(reply)
        elif isinstance(reply, Text | ToolCalls):
            model = str(body.get("model") or "scripted")
            if body.get("stream"):
                self._send_stream(self._chunks(reply, model, body))
            else:
                self._send_json(200, self._completion(reply, model, body))
        else:
            self._send_error(error(500, f"ScriptedServer: {type(reply).__name__} is not a chat reply"))

    def _calls(self, reply: ToolCalls) -> list[Call]:
        return [Call(c.name, c.arguments, c.id or f"call_{next(self.owner._call_ids)}") for c in reply.calls]

    @staticmethod
    def _usage(reply: Text | ToolCalls, body: dict[str, Any]) -> dict[str, int]:
        prompt = _tokens(body.get("messages", []))
        completion = _tokens(reply.content) + sum(
            _tokens(c.name) + _tokens(c.arguments) for c in getattr(reply, "calls", ())
        )
        return {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }

    def _completion(self, reply: Text | ToolCalls, model: str, body: dict[str, Any]) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": reply.content or None}
        if isinstance(reply, ToolCalls):
            message["tool_calls"] = [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                for c in self._calls(reply)
            ]
            finish = "tool_calls"
        else:
            finish = reply.finish_reason
        return {
            "id": self.owner._next_id("chatcmpl-scripted"),
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "system_fingerprint": None,
            "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
            "usage": self._usage(reply, body),
        }

    def _chunks(self, reply: Text | ToolCalls, model: str, body: dict[str, Any]) -> Iterator[dict[str, Any]]:
        ident = self.owner._next_id("chatcmpl-scripted")
        created = int(time.time())

        def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> dict[str, Any]:
            choice = {"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}
            return {
                "id": ident,
                "object": "chat.completion.chunk",
                "created": created,
                "model": model,
                "system_fingerprint": None,
                "choices": [choice],
                **extra,
            }

        is_calls = isinstance(reply, ToolCalls)
        yield chunk({"role": "assistant", "content": None if is_calls and not reply.content else ""})
        given = reply.pieces if isinstance(reply, Text) else ()
        for piece in given or _split_words(reply.content, TEXT_PIECES):
            yield chunk({"content": piece})
        if isinstance(reply, ToolCalls):
            for index, c in enumerate(self._calls(reply)):
                yield chunk(
                    {
                        "tool_calls": [
                            {
                                "index": index,
                                "id": c.id,
                                "type": "function",
                                "function": {"name": c.name, "arguments": ""},
                            }
                        ]
                    }
                )
                for piece in _split_chars(c.arguments, ARGUMENT_PIECES):
                    yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
            finish = "tool_calls"
        else:
            finish = reply.finish_reason
        yield chunk({}, finish, usage=self._usage(reply, body))

    # embeddings

    def _embeddings(self, body: dict[str, Any]) -> None:
        raw = body.get("input", [])
        inputs = [raw] if isinstance(raw, str) else list(raw)
        if inputs and all(isinstance(x, int) for x in inputs):  # one input given as token ids
            inputs = [inputs]
        texts = [x if isinstance(x, str) else " ".join(map(str, x)) for x in inputs]
        reply = self._resolve(self.owner._next(self.owner._embeddings), body)
        if isinstance(reply, Error):
            self._send_error(reply)
            return
        if reply is None and self.owner._stopping.is_set():
            self._hang_up()
            return
        if reply is None:
            rows = [default_embedding(t, self.owner.embedding_dim) for t in texts]
        elif isinstance(reply, WrongDim):
            rows = [default_embedding(t, reply.dim) for t in texts]
        elif isinstance(reply, Vectors):
            rows = [list(row) for row in reply.vectors]
        else:
            self._send_error(error(500, f"ScriptedServer: {type(reply).__name__} is not an embeddings reply"))
            return
        as_base64 = body.get("encoding_format") == "base64"
        tokens = sum(_tokens(t) for t in texts)
        self._send_json(
            200,
            {
                "object": "list",
                "data": [
                    {
                        "object": "embedding",
                        "index": i,
                        "embedding": (
                            base64.b64encode(struct.pack(f"<{len(row)}f", *row)).decode("ascii")
                            if as_base64
                            else row
                        ),
                    }
                    for i, row in enumerate(rows)
                ],
                "model": str(body.get("model") or "scripted"),
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            },
        )

    # writing

    def _send_json(self, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _send_error(self, reply: Error) -> None:
        payload = {"error": {"message": reply.message, "type": reply.type, "param": None, "code": reply.code}}
        data = json.dumps(payload).encode("utf-8")
        self.send_response(reply.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _send_stream(self, chunks: Iterator[dict[str, Any]]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for payload in chunks:
            self._write_chunk(f"data: {json.dumps(payload)}\n\n".encode())
        self._write_chunk(b"data: [DONE]\n\n")
        self.wfile.write(b"0\r\n\r\n")

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):X}\r\n".encode("ascii") + data + b"\r\n")
