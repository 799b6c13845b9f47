"""A real HTTP LLM server on 127.0.0.1 for tests: OpenAI-compatible and Ollama endpoints.

Tests reach it through the real ``openai`` and ``ollama`` clients, so what is tested is what runs
against vLLM, llama.cpp, LM Studio, OpenAI or Ollama. Answers are deterministic; faults are
injected per request, in order::

    with LLMServer() as srv:
        srv.inject("chat", [Fault.status(429, retry_after=0.1), Fault.wrong_schema()])
        backend = OpenAIChatBackend(model="m", base_url=srv.openai_base_url, api_key="k")
        ...
        assert srv.requests_to("chat")[0].json["model"] == "m"

Endpoints: ``/v1/chat/completions``, ``/v1/embeddings``, ``/v1/audio/transcriptions``,
``/v1/models``; ``/api/chat``, ``/api/embed``, ``/api/embeddings``, ``/api/tags``.
Targets for :meth:`LLMServer.inject`: a path, or a kind — ``chat``, ``embeddings``,
``transcriptions``, ``models`` — or ``*`` for any request.

Answers: chat content comes from ``srv.responder(ChatRequest)`` (default: JSON valid under the
schema the client sent, filled from the prompt's ``<document>``/``<text>``/… block); embeddings
are :func:`~tests.support.llm_replies.hashed_embedding` vectors (``embed_dim``, default 64; the
request's ``dimensions`` wins; base64 float32 when the client asks, as the openai client does by
default); transcripts are registered with :meth:`LLMServer.register_transcript` or default to
"transcript of N bytes". Every reply carries token usage counted from the words sent.
To run it as its own process (benchmarks, runners): ``python -m tests.support --latency 0.2``.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import ThreadingHTTPServer
from typing import Any

from pydantic import BaseModel

from .llm_handler import LLMRequestHandler
from .llm_replies import ChatRequest, default_responder

__all__ = [
    "LLMServer",
    "Fault",
    "RecordedRequest",
    "Transcript",
    "ChatRequest",
    "Responder",
    "LLAMA_CPP_JSON_SCHEMA_ERROR",
]

Responder = Callable[[ChatRequest], "str | dict[str, Any] | BaseModel"]

#: How llama-cpp-python's server (0.3.36) answers ``response_format: {"type": "json_schema"}``:
#: HTTP 500 whose message is FastAPI's request validation error, then where it was raised
#: (the path is the installing machine's), word for word as the real server sends it.
LLAMA_CPP_JSON_SCHEMA_ERROR = (
    500,
    "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', "
    "'type'), 'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema', "
    "'ctx': {'expected': \"'text' or 'json_object'\"}}\n\n  File "
    '"/usr/lib/python3/site-packages/llama_cpp/server/app.py", line 376, in '
    "create_chat_completion\n    POST /v1/chat/completions",
)


@dataclass(frozen=True)
class Fault:
    """What to do instead of (or before) the normal answer for one request.

    kinds: ``latency`` (sleep ``seconds`` then answer), ``status`` (HTTP ``code``, optional
    ``retry_after`` header), ``timeout`` (sleep ``seconds`` — longer than the client waits — then
    answer), ``non_json`` (chat content that is not JSON), ``wrong_schema`` (valid JSON of the
    wrong shape), ``content`` (this exact chat content), ``broken_body`` (HTTP 200 whose body is
    not JSON), ``disconnect`` (close the connection without answering). On endpoints other than
    chat, ``content`` / ``wrong_schema`` / ``non_json`` send their text as the whole HTTP body,
    e.g. ``Fault.reply('{"data": []}')`` for an embeddings reply with no vectors.
    """

    kind: str
    seconds: float = 0.0
    code: int = 0
    retry_after: float | None = None
    content: str = ""

    @classmethod
    def latency(cls, seconds: float) -> Fault:
        return cls("latency", seconds=seconds)

    @classmethod
    def status(cls, code: int, retry_after: float | None = None, message: str = "") -> Fault:
        return cls("status", code=code, retry_after=retry_after, content=message)

    @classmethod
    def rate_limited(cls, retry_after: float | None = 0.1) -> Fault:
        return cls.status(429, retry_after=retry_after, message="Rate limit reached, retry later")

    @classmethod
    def server_error(cls, code: int = 500) -> Fault:
        return cls.status(code, message="internal server error")

    @classmethod
    def timeout(cls, seconds: float = 30.0) -> Fault:
        return cls("timeout", seconds=seconds)

    @classmethod
    def non_json(cls, text: str = "Sure! Here are the memories you asked for.") -> Fault:
        return cls("non_json", content=text)

    @classmethod
    def wrong_schema(cls, content: str = '{"unexpected": ["not", "the", "schema"]}') -> Fault:
        return cls("wrong_schema", content=content)

    @classmethod
    def reply(cls, content: str) -> Fault:
        return cls("content", content=content)

    @classmethod
    def broken_body(cls) -> Fault:
        return cls("broken_body")

    @classmethod
    def disconnect(cls) -> Fault:
        return cls("disconnect")


@dataclass
class RecordedRequest:
    """One request the server received (recorded before any fault is applied)."""

    method: str
    path: str
    kind: str
    json: dict[str, Any] | None
    headers: dict[str, str]
    form: dict[str, str] = field(default_factory=dict)
    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)
    received_at: float = field(default_factory=time.monotonic)


@dataclass
class Transcript:
    """A transcript registered for an audio upload: ``segments`` are (start, end, text)."""

    segments: list[tuple[float, float, str]]
    language: str = "english"

    @property
    def text(self) -> str:
        return " ".join(s[2].strip() for s in self.segments)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # a thread sleeping on an injected timeout must not hold up close()
    request_queue_size = 256  # the default backlog (5) drops bursts of new connections
    owner: LLMServer


class LLMServer:
    """The test server. Use as a context manager; attributes may be changed while it runs.

    ``responder`` builds chat content from a :class:`ChatRequest` (default: schema-valid JSON
    filled from the prompt's data). ``latency`` delays every request. ``json_schema_supported`` /
    ``json_object_supported`` set to False make the server reject those ``response_format``
    types with HTTP 400, as older vLLM / llama.cpp builds do; ``json_schema_rejection`` (a
    status and a message, e.g. :data:`LLAMA_CPP_JSON_SCHEMA_ERROR`) answers ``json_schema``
    with exactly that error instead. ``max_in_flight`` is the most requests seen at once.
    """

    def __init__(
        self, *, embed_dim: int = 64, models: tuple[str, ...] = ("test-model",), port: int = 0
    ) -> None:
        self.embed_dim = embed_dim
        self._port = port
        self.models = list(models)
        self.responder: Responder = default_responder
        self.latency: float = 0.0
        self.json_schema_supported = True
        self.json_object_supported = True
        self.json_schema_rejection: tuple[int, str] | None = None
        self.transcripts: dict[str, Transcript] = {}
        self.requests: list[RecordedRequest] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.stopping = threading.Event()
        self._faults: dict[str, deque[Fault]] = {}
        self._lock = threading.Lock()
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> LLMServer:
        self._httpd = _Server(("127.0.0.1", self._port), LLMRequestHandler)
        self._httpd.owner = self
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.01},
            name="llm-test-server",
            daemon=True,
        )
        self._thread.start()
        from omnireader.llm.openai_backend import forget_json_modes

        forget_json_modes(self.openai_base_url)  # a new server, maybe on an old one's port
        return self

    def stop(self) -> None:
        self.stopping.set()  # wakes handlers sleeping on latency / timeout faults
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> LLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return self._httpd.server_address[1]

    @property
    def ollama_host(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def openai_base_url(self) -> str:
        return f"{self.ollama_host}/v1"

    # -- test controls ---------------------------------------------------------------------
    def inject(self, target: str, faults: list[Fault] | Fault) -> None:
        """Queue faults for the next requests to ``target`` (a path, a kind, or ``*``)."""
        queue = self._faults.setdefault(target, deque())
        queue.extend([faults] if isinstance(faults, Fault) else faults)

    def register_transcript(
        self, key: str | bytes, segments: list[tuple[float, float, str]], language: str = "english"
    ) -> None:
        """Answer transcriptions of this upload (its filename, or its exact bytes) with ``segments``."""
        self.transcripts[_transcript_key(key)] = Transcript(segments, language)

    def requests_to(self, target: str) -> list[RecordedRequest]:
        """Requests received for a path or a kind (see the module docstring)."""
        return [r for r in self.requests if target in (r.path, r.kind, "*")]

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self._faults.clear()
            self.max_in_flight = self.in_flight

    # -- used by the handler ---------------------------------------------------------------
    def record(self, req: RecordedRequest) -> Fault | None:
        """Log a request, count it in flight, and pop the fault queued for it (if any)."""
        with self._lock:
            self.requests.append(req)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            for target in (req.path, req.kind, "*"):
                queue = self._faults.get(target)
                if queue:
                    return queue.popleft()
        return None

    def done(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def transcript_for(self, filename: str, data: bytes) -> Transcript:
        found = self.transcripts.get(_transcript_key(data)) or self.transcripts.get(filename)
        if found:
            return found
        n = len(data)
        return Transcript([(0.0, 1.0, f"transcript of {n} bytes"), (1.0, 2.0, f"from {filename}")])


def _transcript_key(key: str | bytes) -> str:
    if isinstance(key, bytes):
        import hashlib

        return "sha256:" + hashlib.sha256(key).hexdigest()
    return key


def main(argv: list[str] | None = None) -> None:
    """Serve until interrupted: ``python -m tests.support --latency 0.2``.

    Prints the OpenAI base URL and the Ollama host on the first line, so a benchmark or a
    runner can start the server in its own process (no GIL shared with the client).
    """
    import argparse

    ap = argparse.ArgumentParser(description="deterministic OpenAI-compatible / Ollama test server")
    ap.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: any free port)")
    ap.add_argument("--latency", type=float, default=0.0, help="seconds added to every request")
    ap.add_argument("--embed-dim", type=int, default=64)
    args = ap.parse_args(argv)
    srv = LLMServer(embed_dim=args.embed_dim, port=args.port)
    srv.latency = args.latency
    with srv:
        print(f"{srv.openai_base_url} {srv.ollama_host}", flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
