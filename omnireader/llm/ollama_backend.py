"""Chat and vision through Ollama (the ``ollama`` package), with ``format=<JSON schema>``.

Messages arrive OpenAI-shaped; image parts become Ollama's per-message ``images`` list. Ollama
has no speech-to-text endpoint, so :meth:`atranscribe` fails with a clear ``unsupported`` error
unless a speech backend on an OpenAI-compatible server is attached (``--speech-model``).

    >>> backend = OllamaChatBackend("qwen2.5:7b", host="http://127.0.0.1:11434")
    >>> backend.name
    'ollama:qwen2.5:7b'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from omnireader.errors import InvalidInputError, LLMError
from omnireader.llm.base import ChatBackend
from omnireader.llm.http import shared_ssl_context
from omnireader.llm.images import image_bytes
from omnireader.llm.json_reply import json_schema
from omnireader.llm.limits import LoopLocal
from omnireader.llm.replies import ChatReply, Transcript
from omnireader.llm.transport_errors import classify_ollama_error

if TYPE_CHECKING:
    import ollama

__all__ = ["OllamaChatBackend", "to_ollama_messages"]


class OllamaChatBackend(ChatBackend):
    """An Ollama server at ``host`` (default: ``OLLAMA_HOST`` or http://127.0.0.1:11434)."""

    provider = "ollama"

    def __init__(self, model: str, *, host: str | None = None, **kwargs: Any) -> None:
        super().__init__(model, **kwargs)
        self.host = host
        self._clients: LoopLocal[ollama.AsyncClient] = LoopLocal(self._make_client)

    def _make_client(self) -> ollama.AsyncClient:
        import ollama

        return ollama.AsyncClient(host=self.host, timeout=self.timeout, verify=shared_ssl_context())

    @property
    def label(self) -> str:
        return f"{self.name} at {self.host or '$OLLAMA_HOST or http://127.0.0.1:11434'}"

    async def aclose(self) -> None:
        client = self._clients.pop_current()
        if client is not None:
            close = getattr(client, "close", None)  # added in ollama 0.4.x; older: the httpx client
            await (close() if close is not None else client._client.aclose())
        await super().aclose()

    async def _chat(self, messages: list[dict[str, Any]], schema: type[BaseModel]) -> ChatReply:
        try:
            msgs = to_ollama_messages(messages)
        except InvalidInputError as e:
            raise LLMError(f"{self.label}: {e}", reason="unsupported") from None
        options: dict[str, Any] = {}
        if self.temperature is not None:
            options["temperature"] = self.temperature
        if self.max_tokens is not None:
            options["num_predict"] = self.max_tokens
        try:
            resp = await self._clients.get().chat(
                model=self.model,
                messages=msgs,
                stream=False,
                format=json_schema(schema),
                options=options or None,
            )
        except Exception as e:
            mapped = classify_ollama_error(e, self.label)
            if mapped is e:
                raise
            raise mapped from e
        return ChatReply(
            content=resp.message.content,
            prompt_tokens=resp.prompt_eval_count or 0,
            completion_tokens=resp.eval_count or 0,
            truncated=getattr(resp, "done_reason", None) == "length",
        )

    async def _transcribe(self, audio: bytes, filename: str, language: str | None) -> Transcript:
        raise LLMError(
            f"{self.label}: Ollama has no speech-to-text endpoint; transcribe with an "
            "OpenAI-compatible server instead (--speech-model openai:whisper-1 with "
            "OPENAI_BASE_URL pointing at it)",
            reason="unsupported",
        )


def to_ollama_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """OpenAI-shaped messages as Ollama wants them: text content, images as raw bytes."""
    out = []
    for m in messages:
        content = m.get("content")
        msg: dict[str, Any] = {"role": m.get("role", "user")}
        if isinstance(content, list):
            texts, images = [], []
            for part in content:
                if part.get("type") == "text":
                    texts.append(part.get("text", ""))
                elif part.get("type") == "image_url":
                    url = (
                        part["image_url"]["url"]
                        if isinstance(part["image_url"], dict)
                        else part["image_url"]
                    )
                    images.append(image_bytes(url))
            msg["content"] = "\n".join(texts)
            if images:
                msg["images"] = images
        else:
            msg["content"] = content or ""
        out.append(msg)
    return out
