"""The chat protocol: structured chat, vision and speech behind one backend object.

A backend implements one HTTP round trip (:meth:`ChatBackend._chat`, and for speech
:meth:`ChatBackend._transcribe`); this base class does the shared work — the concurrency limit,
retries with backoff, JSON parsing and pydantic validation, one re-ask when the reply is unusable,
token accounting, routing images to a vision backend and audio to a speech backend, and the
sync wrappers.

Failures surface as :class:`~omnireader.errors.LLMError` with a ``reason``: ``timeout``,
``rate_limited``, ``server_error``, ``transport``, ``bad_response`` (after retries); ``bad_json``,
``wrong_schema`` (after one re-ask); ``auth``, ``not_found``, ``bad_request``, ``unsupported``
(at once: retrying would not help).

    >>> from pydantic import BaseModel
    >>> class Answer(BaseModel):
    ...     city: str
    >>> backend = make_chat_backend("openai:gpt-4o-mini")          # doctest: +SKIP
    >>> answer, usage = backend.complete_json(                      # doctest: +SKIP
    ...     [{"role": "user", "content": "Where is the Louvre?"}], Answer)
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel

from omnireader.errors import LLMError
from omnireader.llm.images import ImageInput, attach_images
from omnireader.llm.json_reply import (
    ReplyError,
    parse_reply,
    parse_truncated,
    retry_instruction,
)
from omnireader.llm.limits import Limiter
from omnireader.llm.replies import ChatReply, Segment, Transcript, Usage
from omnireader.llm.retry import RetryPolicy, call_with_retries

__all__ = ["ChatBackend", "ChatReply", "Usage", "Segment", "Transcript", "ImageInput"]

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")


class ChatBackend(ABC):
    """A chat model behind an HTTP API. Subclasses implement :meth:`_chat` (and maybe speech).

    ``vision`` / ``speech``: other backends that take calls with images / audio (set by
    :func:`omnireader.llm.config.make_chat_backend`); None means this backend handles them.
    ``usage`` adds up every call this backend made.
    """

    provider: ClassVar[str]

    def __init__(
        self,
        model: str,
        *,
        timeout: float = 120.0,
        concurrency: int = 8,
        limiter: Limiter | None = None,
        retry: RetryPolicy | None = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> None:
        self.model = model
        # A bound on each reply: a small local model may otherwise ramble to its context's end.
        self.max_tokens = max_tokens
        self.timeout = timeout
        self.limiter = limiter or Limiter(concurrency)
        self.retry = retry or RetryPolicy()
        self.temperature = temperature
        self.vision: ChatBackend | None = None
        self.speech: ChatBackend | None = None
        self.usage = Usage()
        self._usage_lock = threading.Lock()
        # make_chat_backend's arguments, when it built this backend (see there).
        self.recipe: dict[str, Any] | None = None

    @property
    def name(self) -> str:
        return f"{self.provider}:{self.model}"

    @property
    def label(self) -> str:
        """How errors name this backend: the model spec and, where known, the server."""
        return self.name

    @property
    def total_usage(self) -> Usage:
        """``usage`` plus that of the attached vision and speech backends."""
        total = self.usage
        for other in {
            id(b): b for b in (self.vision, self.speech) if b is not None and b is not self
        }.values():
            total = total + other.usage
        return total

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    # -- what a backend implements -------------------------------------------------------
    @abstractmethod
    async def _chat(self, messages: list[dict[str, Any]], schema: type[BaseModel]) -> ChatReply:
        """One request asking for JSON matching ``schema``; raise RetryableError / LLMError."""

    async def _transcribe(self, audio: bytes, filename: str, language: str | None) -> Transcript:
        """One speech-to-text request. Backends without an endpoint keep this default."""
        raise LLMError(f"{self.label} cannot transcribe audio", reason="unsupported")

    async def aclose(self) -> None:
        """Close this event loop's HTTP clients (and the vision / speech backends').

        Subclasses close their own client, then call this.
        """
        for other in {
            id(b): b for b in (self.vision, self.speech) if b is not None and b is not self
        }.values():
            await other.aclose()

    # -- structured chat and vision ------------------------------------------------------
    async def acomplete_json(
        self,
        messages: Sequence[dict[str, Any]],
        schema: type[M],
        *,
        images: Sequence[ImageInput] = (),
    ) -> tuple[M, Usage]:
        """Ask for JSON matching ``schema``; return the validated instance and what it cost.

        ``messages`` are OpenAI-shaped; ``images`` (bytes, data: or http URLs) are added to the
        last user message and the call goes to the vision backend. An unusable reply (not JSON,
        or the wrong shape) is re-asked once with the error; then ``LLMError`` with reason
        ``bad_json`` / ``wrong_schema``. A reply cut at ``max_tokens`` is first closed after its
        last complete part (``usage.repaired``). Transport failures raise ``LLMError`` after
        retries.
        """
        if images and self.vision is not None and self.vision is not self:
            return await self.vision.acomplete_json(messages, schema, images=images)
        convo = attach_images(messages, images)
        usage = Usage()
        for ask in (1, 2):
            reply = await self._call(lambda: self._chat(convo, schema), usage)
            try:
                return parse_reply(reply.content, schema), usage
            except ReplyError as e:
                closed = parse_truncated(reply.content, schema) if reply.truncated else None
                if closed is not None:
                    self._count(usage, Usage(repaired=1))
                    return closed, usage
                if ask == 2:
                    raise LLMError(
                        f"{self.label}: unusable reply after a re-ask: {e.detail}", reason=e.reason
                    ) from None
                self._count(usage, Usage(reasked=1))
                convo = [
                    *convo,
                    {"role": "assistant", "content": reply.content or ""},
                    {"role": "user", "content": retry_instruction(e)},
                ]
        raise AssertionError("unreachable")  # pragma: no cover

    async def _call(self, fn: Callable[[], Awaitable[ChatReply]], usage: Usage) -> ChatReply:
        async def attempt() -> ChatReply:
            async with self.limiter:
                return await fn()

        def count() -> None:
            self._count(usage, Usage(calls=1))

        reply = await call_with_retries(attempt, self.retry, label=self.label, on_attempt=count)
        tokens = Usage(prompt_tokens=reply.prompt_tokens, completion_tokens=reply.completion_tokens)
        self._count(usage, tokens)
        return reply

    def _count(self, usage: Usage, extra: Usage) -> None:
        """Add ``extra`` to one request's ``usage`` and to the backend's."""
        for field in Usage.model_fields:
            setattr(usage, field, getattr(usage, field) + getattr(extra, field))
        self._add_usage(extra)

    def _add_usage(self, extra: Usage) -> None:
        with self._usage_lock:
            self.usage = self.usage + extra

    # -- speech ----------------------------------------------------------------------------
    async def atranscribe(
        self,
        audio: bytes,
        filename: str = "audio.wav",
        fmt: str | None = None,
        *,
        language: str | None = None,
    ) -> Transcript:
        """Speech to text with segment times, through the speech backend if one is set.

        ``fmt`` (``mp3``, ``wav``…) names the format when ``filename`` has no extension: servers
        pick the decoder by extension. Raises ``LLMError(reason="unsupported")`` when no
        configured server can transcribe.
        """
        if self.speech is not None and self.speech is not self:
            return await self.speech.atranscribe(audio, filename, fmt, language=language)
        if fmt and "." not in filename.rsplit("/", 1)[-1]:
            filename = f"{filename}.{fmt}"

        async def attempt() -> Transcript:
            async with self.limiter:
                return await self._transcribe(audio, filename, language)

        return await call_with_retries(
            attempt,
            self.retry,
            label=self.label,
            on_attempt=lambda: self._add_usage(Usage(calls=1)),
        )

    # -- sync wrappers ---------------------------------------------------------------------
    def complete_json(
        self,
        messages: Sequence[dict[str, Any]],
        schema: type[M],
        *,
        images: Sequence[ImageInput] = (),
    ) -> tuple[M, Usage]:
        """Blocking :meth:`acomplete_json` (safe to call from inside a running event loop)."""
        return self.run_sync(self.acomplete_json(messages, schema, images=images))

    def transcribe(
        self,
        audio: bytes,
        filename: str = "audio.wav",
        fmt: str | None = None,
        *,
        language: str | None = None,
    ) -> Transcript:
        """Blocking :meth:`atranscribe`."""
        return self.run_sync(self.atranscribe(audio, filename, fmt, language=language))

    def run_sync(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` to completion on its own event loop (a worker thread's when called
        from async code), then close this backend's connections, which belong to that loop."""

        async def run_then_close() -> _Boxed[T]:
            try:
                return _Boxed(await coro)
            finally:
                await self.aclose()  # this loop ends here: release its connections with it

        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(run_then_close()).value
        # Called from async code: a nested asyncio.run is not allowed, so use a worker thread.
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(asyncio.run, run_then_close()).result().value


class _Boxed(Generic[T]):
    """A result with a constant repr. asyncio.run formats the repr of its main task, result
    included, when it restores the SIGINT handler (twice, Python 3.11); a list of hundreds of
    pydantic items takes tens of milliseconds to format."""

    __slots__ = ("value",)

    def __init__(self, value: T) -> None:
        self.value = value

    def __repr__(self) -> str:
        return "<result>"
