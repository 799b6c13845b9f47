"""Chat, vision and speech through any OpenAI-compatible server (the ``openai`` package).

Works with OpenAI, vLLM, llama.cpp server, LM Studio… Structured output is asked for with
``response_format`` ``json_schema`` (strict); a server that rejects it (told by what its error
says, whatever the status: llama-cpp-python answers HTTP 500) is asked with ``json_object``
carrying the schema (which llama.cpp servers enforce as a grammar, and others ignore), then with
the schema in the prompt only. The step down is remembered per server for the process's life
(:func:`known_json_mode`), so later calls and later backends do not pay for the refusal again. The client runs with
``max_retries=0``: retries are ours (:mod:`omnireader.llm.retry`), so they are bounded once.

    >>> backend = OpenAIChatBackend("gpt-4o-mini", base_url="http://127.0.0.1:8000/v1", api_key="x")
    >>> backend.name
    'openai:gpt-4o-mini'
"""

from __future__ import annotations

import functools
import json
import os
from typing import TYPE_CHECKING, Any, NoReturn

from pydantic import BaseModel

from omnireader.errors import BadReplyError, ConfigError, LLMError
from omnireader.llm.base import ChatBackend
from omnireader.llm.http import shared_ssl_context
from omnireader.llm.json_reply import (
    grammar_json_schema,
    schema_instruction,
    strict_json_schema,
)
from omnireader.llm.limits import LoopLocal
from omnireader.llm.replies import ChatReply, Segment, Transcript
from omnireader.llm.sent import mark_sent
from omnireader.llm.transport_errors import classify_openai_error, is_format_rejection

if TYPE_CHECKING:
    import openai

__all__ = ["OpenAIChatBackend", "JSON_MODES", "known_json_mode", "forget_json_modes"]

#: Ways to ask for JSON, most to least enforced; a server's refusal moves one step right.
JSON_MODES = ("json_schema", "json_object", "plain")
_OPENAI_URL = "https://api.openai.com/v1"

# The mode each server (base URL) accepted after refusing a stronger one, for this process.
_SERVER_MODES: dict[str, str] = {}


def known_json_mode(base_url: str | None) -> str | None:
    """The JSON mode a server stepped down to earlier in this process, or None."""
    return _SERVER_MODES.get((base_url or _OPENAI_URL).rstrip("/"))


def forget_json_modes(base_url: str | None = None) -> None:
    """Forget the step down of the server at ``base_url`` (None: of every server), e.g. when
    a new server now listens where one was, or a server was upgraded in place."""
    if base_url is None:
        _SERVER_MODES.clear()
    else:
        _SERVER_MODES.pop(base_url.rstrip("/"), None)


class OpenAIChatBackend(ChatBackend):
    """An OpenAI-compatible server. ``base_url`` / ``api_key`` as for ``openai.AsyncOpenAI``
    (None: ``OPENAI_BASE_URL`` / ``OPENAI_API_KEY``, then OpenAI itself)."""

    provider = "openai"

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        json_mode: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(model, **kwargs)
        if json_mode is not None and json_mode not in JSON_MODES:
            raise ConfigError(f"json_mode must be one of {JSON_MODES}, not {json_mode!r}")
        self.base_url = base_url
        self.api_key = api_key
        # None: what this server accepted earlier in the process, else the strongest mode.
        self.json_mode = json_mode or known_json_mode(base_url) or JSON_MODES[0]
        self.verbose_transcripts = True  # set False when the server refuses verbose_json
        self._clients: LoopLocal[openai.AsyncOpenAI] = LoopLocal(self._make_client)

    def _make_client(self) -> openai.AsyncOpenAI:
        import openai

        # A local server needs no key, but the client insists on one.
        api_key = self.api_key or os.environ.get("OPENAI_API_KEY") or "not-needed"
        ssl, hooks = shared_ssl_context(), {"request": [mark_sent]}
        client = openai.AsyncOpenAI(
            base_url=self.base_url,
            api_key=api_key,
            timeout=self.timeout,
            max_retries=0,
            # mark_sent: a caller can work while its request is out (refine/asking.py).
            http_client=openai.DefaultAsyncHttpxClient(verify=ssl, event_hooks=hooks),
        )
        # A new client looks its platform up (for a header) in a worker thread on its first
        # request, once per request already waiting: a cold event loop with 16 calls in flight
        # started 16 threads before the first byte was sent. It is one value per process.
        if getattr(client, "_platform", "") is None:
            client._platform = _platform()
        return client

    @property
    def label(self) -> str:
        return f"{self.name} at {self.base_url or _OPENAI_URL}"

    def _step_down(self, refused: str) -> None:
        """``refused`` was rejected: ask with the next mode from now on, here and for every
        later backend talking to this server."""
        if self.json_mode != refused:  # another task stepped down already
            return
        self.json_mode = JSON_MODES[JSON_MODES.index(refused) + 1]
        _SERVER_MODES[(self.base_url or _OPENAI_URL).rstrip("/")] = self.json_mode

    async def aclose(self) -> None:
        client = self._clients.pop_current()
        if client is not None:
            await client.close()
        await super().aclose()

    def _request(
        self, messages: list[dict[str, Any]], schema: type[BaseModel], mode: str
    ) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages}
        if mode == "json_schema":
            kwargs["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": schema.__name__,
                    "schema": strict_json_schema(schema),
                    "strict": True,
                },
            }
        else:
            # The server may not enforce the shape (and json_object requires "JSON" in the
            # prompt), so the schema travels in the prompt too.
            kwargs["messages"] = _with_system_note(messages, schema_instruction(schema))
            if mode == "json_object":
                # llama.cpp servers turn "schema" into a grammar: the reply has the shape, and
                # its bounded strings and lists end, so a looping small model still closes it.
                kwargs["response_format"] = {
                    "type": "json_object",
                    "schema": grammar_json_schema(schema),
                }
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        if self.max_tokens is not None:
            kwargs["max_tokens"] = self.max_tokens
        return kwargs

    async def _chat(self, messages: list[dict[str, Any]], schema: type[BaseModel]) -> ChatReply:
        import openai

        client = self._clients.get()
        while True:
            mode = self.json_mode
            try:
                # client.post, not chat.completions.create: create() walks the body through
                # openai's type-driven transform (the strict JSON schema included), ~2 ms of
                # CPU a call that delays every other call in flight; for these plain-dict
                # bodies it is the identity (tests/llm/test_chat_backends.py checks that).
                # The raw response, read here: openai's model construction for a
                # ChatCompletion (~1 ms of CPU a reply) is more than the two fields used.
                resp = await client.post(
                    "/chat/completions",
                    cast_to=_raw_response_type(),
                    body=self._request(messages, schema, mode),
                )
                reply = _chat_reply(await resp.aread())
                break
            except openai.APIStatusError as e:
                mapped = classify_openai_error(e, self.label)
                if mode != "plain" and is_format_rejection(e.status_code, str(mapped)):
                    self._step_down(mode)
                    continue
                raise mapped from e
            except Exception as e:
                _raise_classified(e, self.label)
        return reply

    async def _transcribe(self, audio: bytes, filename: str, language: str | None) -> Transcript:
        import openai

        client = self._clients.get()
        while True:
            verbose = self.verbose_transcripts
            kwargs: dict[str, Any] = {"model": self.model, "file": (filename, audio)}
            if verbose:
                kwargs |= {
                    "response_format": "verbose_json",
                    "timestamp_granularities": ["segment"],
                }
            if language:
                kwargs["language"] = language
            try:
                resp = await client.audio.transcriptions.create(**kwargs)
                break
            except openai.APIStatusError as e:
                mapped = classify_openai_error(e, self.label)
                text = str(mapped).lower()
                if (
                    verbose
                    and e.status_code in (400, 422)
                    and ("verbose_json" in text or "response_format" in text or "timestamp" in text)
                ):
                    self.verbose_transcripts = False  # e.g. gpt-4o-transcribe: text only
                    continue
                if e.status_code == 404:
                    raise LLMError(
                        f"{self.label}: the server has no speech-to-text model {self.model!r} "
                        f"({e.status_code}); set --speech-model to one it serves",
                        reason="unsupported",
                    ) from e
                raise mapped from e
            except Exception as e:
                _raise_classified(e, self.label)
        return _transcript(resp)


@functools.lru_cache(maxsize=1)
def _raw_response_type() -> Any:
    """The HTTP response class the installed ``openai`` returns as is for ``cast_to``."""
    try:
        from openai._httpx2 import http_response_types
    except ImportError:  # openai releases built on httpx
        import httpx

        return httpx.Response
    return http_response_types()[0]


@functools.lru_cache(maxsize=1)
def _platform() -> Any:
    from openai._base_client import get_platform

    return get_platform()


def _chat_reply(raw: bytes) -> ChatReply:
    """The content and token counts of a chat completion body; ``ValueError`` (a reply that
    could not be read, retried) when it is not one."""
    data = json.loads(raw)
    if not isinstance(data, dict):
        raise BadReplyError(f"expected a chat completion object, got {type(data).__name__}")
    choices = data.get("choices") or []
    choice = choices[0] if isinstance(choices, list) and choices else None
    message = choice.get("message") if isinstance(choice, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    finish = choice.get("finish_reason") if isinstance(choice, dict) else None
    if content is not None and not isinstance(content, str):
        raise BadReplyError(f"the reply's content is {type(content).__name__}, not text")
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    return ChatReply(
        content=content,
        prompt_tokens=int(usage.get("prompt_tokens") or 0),
        completion_tokens=int(usage.get("completion_tokens") or 0),
        truncated=finish == "length",
    )


def _raise_classified(exc: Exception, label: str) -> NoReturn:
    """Re-raise an ``openai`` client error as the retry layer's error (or as itself)."""
    mapped = classify_openai_error(exc, label)
    if mapped is exc:
        raise exc
    raise mapped from exc


def _with_system_note(messages: list[dict[str, Any]], note: str) -> list[dict[str, Any]]:
    """``note`` appended to the first system message (some chat templates allow only one)."""
    out = list(messages)
    if out and out[0].get("role") == "system" and isinstance(out[0].get("content"), str):
        out[0] = {**out[0], "content": f"{out[0]['content']}\n\n{note}"}
    else:
        out.insert(0, {"role": "system", "content": note})
    return out


def _transcript(resp: Any) -> Transcript:
    text = resp if isinstance(resp, str) else (getattr(resp, "text", "") or "")
    raw_segments = getattr(resp, "segments", None) or []
    segments = [
        Segment(start=float(s.start), end=float(s.end), text=s.text.strip()) for s in raw_segments
    ]
    if not segments and text.strip():
        segments = [Segment(start=0.0, end=getattr(resp, "duration", None), text=text.strip())]
    return Transcript(
        text=text.strip(),
        segments=segments,
        language=getattr(resp, "language", None),
        duration=getattr(resp, "duration", None),
    )
