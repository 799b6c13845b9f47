"""Is the LLM server there at all? One TCP connect per endpoint, before a fine-mode run.

Without this, a fine run with the server down would try (and retry) every item, then store
them all fast. Asking once at the start turns that into one clear line: "cannot connect to
127.0.0.1:11434 (is Ollama running?)". Only the connection is checked (no request is
sent): a wrong model name or key still shows up per item, with its reason.
"""

from __future__ import annotations

import os
import socket
from typing import Any
from urllib.parse import urlsplit

from omnireader.errors import LLMError

__all__ = ["endpoint_of", "check_reachable"]

_OLLAMA_DEFAULT = "http://127.0.0.1:11434"
_OPENAI_DEFAULT = "https://api.openai.com/v1"


def endpoint_of(backend: Any) -> tuple[str, int, str]:
    """(host, port, what it is) of a chat backend's server."""
    from omnireader.llm.ollama_backend import OllamaChatBackend

    if isinstance(backend, OllamaChatBackend):
        url = backend.host or os.environ.get("OLLAMA_HOST") or _OLLAMA_DEFAULT
        what, default_port = "Ollama", 11434
    else:
        url = getattr(backend, "base_url", None) or _OPENAI_DEFAULT
        what, default_port = "the OpenAI-compatible server", None
    if "://" not in url:
        url = "http://" + url
    parts = urlsplit(url)
    host = parts.hostname or "127.0.0.1"
    if host in ("0.0.0.0", "::"):  # a server listening everywhere is reached on loopback
        host = "127.0.0.1"
    port = parts.port or default_port or (443 if parts.scheme == "https" else 80)
    return host, port, what


def check_reachable(backend: Any, timeout: float = 3.0) -> None:
    """Raise :class:`LLMError` (reason ``transport``) when a server of ``backend`` (chat,
    vision, speech) does not accept a connection."""
    seen: set[tuple[str, int]] = set()
    for one in (backend, getattr(backend, "vision", None), getattr(backend, "speech", None)):
        if one is None:
            continue
        host, port, what = endpoint_of(one)
        if (host, port) in seen:
            continue
        seen.add((host, port))
        try:
            with socket.create_connection((host, port), timeout=timeout):
                pass
        except OSError as e:
            reason = e.strerror or type(e).__name__
            running = "is Ollama running?" if what == "Ollama" else f"is {what} running?"
            raise LLMError(
                f"cannot connect to {host}:{port} ({running}) for {one.name}: {reason}. "
                "Start it, point the settings at it (OLLAMA_HOST / OPENAI_BASE_URL), or read "
                "in fast mode (no --llm)",
                reason="transport",
            ) from None
