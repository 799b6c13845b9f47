"""One TLS context for every LLM HTTP client.

Building a TLS context (loading the CA bundle) costs tens of milliseconds, and the sync wrappers
make a fresh client per event loop; sharing the context makes a new client almost free.
``SSL_CERT_FILE`` / ``SSL_CERT_DIR`` are honoured as httpx does.
"""

from __future__ import annotations

import ssl
from functools import lru_cache

__all__ = ["shared_ssl_context"]


@lru_cache(maxsize=1)
def shared_ssl_context() -> ssl.SSLContext:
    import httpx

    if hasattr(httpx, "create_ssl_context"):  # httpx >= 0.28
        return httpx.create_ssl_context()
    import certifi  # older httpx: the same CA bundle it would load

    return ssl.create_default_context(cafile=certifi.where())
