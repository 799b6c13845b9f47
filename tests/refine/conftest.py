"""Fixtures for fine mode: the test LLM server and backends built the way users build them.

Backends come from :func:`omnireader.llm.make_chat_backend` with an ``LLMConfig`` pointing at
the test server, so every request goes through the real ``openai`` / ``ollama`` client over
HTTP on 127.0.0.1. Retries keep their bounded count but back off for milliseconds, not
seconds, so failure tests stay fast.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from omnireader.llm import ChatBackend, LLMConfig, RetryPolicy, make_chat_backend
from omnireader.reading.reader import Reader
from tests.support import ChatRequest, LLMServer, default_responder

KINDS = ["openai", "ollama"]
QUICK_RETRY = RetryPolicy(max_attempts=2, base_delay=0.01, max_delay=0.02)


@pytest.fixture
def server() -> Iterator[LLMServer]:
    with LLMServer() as srv:
        srv.latency = 0.0
        yield srv


def build_backend(
    kind: str, srv: LLMServer, *, timeout: float = 2.0, concurrency: int = 8, **spec: Any
) -> ChatBackend:
    """``openai:test-model`` or ``ollama:test-model`` against ``srv``, as a user configures it."""
    config = LLMConfig(
        openai_base_url=srv.openai_base_url,
        openai_api_key="k",
        ollama_host=srv.ollama_host,
        timeout=timeout,
        max_attempts=2,
        concurrency=concurrency,
    )
    backend = make_chat_backend(f"{kind}:test-model", config=config, **spec)
    assert backend is not None
    for b in (backend, backend.vision, backend.speech):
        if b is not None:
            b.retry = QUICK_RETRY
    return backend


@pytest.fixture(params=KINDS)
def kind(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def make_reader(server: LLMServer) -> Callable[..., Reader]:
    def make(
        kind: str = "openai", *, timeout: float = 2.0, concurrency: int = 8, **options: Any
    ) -> Reader:
        return Reader(
            llm=build_backend(kind, server, timeout=timeout, concurrency=concurrency), **options
        )

    return make


# -- reading the requests the server received ------------------------------------------------

_DATA_TAGS = ("messages", "document", "text", "trajectory", "transcript", "context")


def task_of(req: ChatRequest) -> str:
    """Which prompt a request used, by the data block its user turn carries."""
    text = req.last_user_text
    for tag in _DATA_TAGS:
        if f"<{tag}>" in text:
            return tag
    return "other"


def user_text(body: dict[str, Any] | None) -> str:
    """The last user turn's text in a recorded OpenAI or Ollama request body."""
    for m in reversed((body or {}).get("messages") or []):
        if m.get("role") == "user":
            c = m.get("content")
            if isinstance(c, list):
                return "\n".join(p.get("text", "") for p in c if p.get("type") == "text")
            return c or ""
    return ""


def system_text(body: dict[str, Any] | None) -> str:
    msgs = (body or {}).get("messages") or []
    return msgs[0]["content"] if msgs and msgs[0].get("role") == "system" else ""


def data_block(text: str, tag: str) -> str:
    m = re.search(rf"<{tag}>\n?(.*?)\n?</{tag}>", text, flags=re.S)
    assert m, f"no <{tag}> block in: {text[:300]!r}"
    return m.group(1)


def numbered_lines(block: str) -> list[tuple[int, str]]:
    """The ``[n] ...`` lines of a messages / transcript / trajectory block."""
    return [(int(n), rest) for n, rest in re.findall(r"^\[(\d+)\] (.*)$", block, flags=re.M)]


def by_task(answers: dict[str, Callable[[ChatRequest], Any]]) -> Callable[[ChatRequest], Any]:
    """A responder that answers each prompt kind its own way (others: the server default)."""

    def respond(req: ChatRequest) -> Any:
        fn = answers.get(task_of(req))
        return fn(req) if fn is not None else default_responder(req)

    return respond


def memories(*texts: str, **fields: Any) -> str:
    return json.dumps({"memories": [{"memory": t, **fields} for t in texts], "summary": None})
