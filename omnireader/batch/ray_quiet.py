"""The environment that keeps a Ray cluster network-quiet (no usage reports, no cloud probes).

Measured on Ray 2.60 with ``strace`` in a network namespace that has only loopback:

* ``RAY_USAGE_STATS_ENABLED=0`` turns usage statistics off, but the cluster's dashboard
  process (started even with ``include_dashboard=False``: it then loads only the usage-stats
  module) still asks the cloud metadata endpoints (``169.254.169.254``,
  ``metadata.google.internal``) which cloud it runs on, and a cluster made by ``ray start``
  even posts a "usage stats are disabled" note to Ray's usage server. Both go through the
  ``requests`` library, which honours proxy variables; there is no setting to skip them.
* So the Ray processes omnireader starts get an HTTP(S) proxy on a closed loopback port
  (``127.0.0.1:9``, the discard port): those requests fail at once, on loopback, and
  loopback itself stays direct (``no_proxy``). The report URL points at loopback as well.
  omnireader's own process keeps its environment (its URL fetches are not redirected), and
  so do fine mode's LLM requests on the workers (:func:`own_proxies`, :func:`use_proxies`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["QUIET_ENV", "quiet_env", "quiet_environment", "own_proxies", "use_proxies"]

_DEAD_END = "http://127.0.0.1:9"

QUIET_ENV: dict[str, str] = {
    "RAY_USAGE_STATS_ENABLED": "0",
    "RAY_USAGE_STATS_REPORT_URL": f"{_DEAD_END}/",
    "RAY_USAGE_STATS_PROMPT_ENABLED": "0",
    "http_proxy": _DEAD_END,
    "https_proxy": _DEAD_END,
    "HTTP_PROXY": _DEAD_END,
    "HTTPS_PROXY": _DEAD_END,
    "no_proxy": "127.0.0.1,localhost,::1",
    "NO_PROXY": "127.0.0.1,localhost,::1",
}


_PROXY_KEYS = ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "no_proxy", "NO_PROXY")


def own_proxies() -> dict[str, str | None]:
    """This process's proxy settings (the driver's), to hand to the workers."""
    return {key: os.environ.get(key) for key in _PROXY_KEYS}


def use_proxies(proxies: dict[str, str | None]) -> None:
    """In a Ray worker that makes requests of its own (fine mode's LLM calls): the driver's
    proxy settings instead of the dead end the cluster's processes inherited."""
    for key, value in proxies.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def quiet_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """``base`` (default: this process's environment) with the quiet settings; a user who
    set ``RAY_USAGE_STATS_ENABLED=1`` keeps usage statistics and the probes it implies."""
    env = dict(os.environ if base is None else base)
    if env.get("RAY_USAGE_STATS_ENABLED") == "1":
        return env
    env.update(QUIET_ENV)
    return env


@contextmanager
def quiet_environment() -> Iterator[None]:
    """Within the block, processes started from here (a local Ray cluster) inherit the quiet
    environment; this process's own environment is restored after."""
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(quiet_env(saved))
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)
