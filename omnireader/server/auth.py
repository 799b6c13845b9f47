"""Who is calling, and how often: API keys map to a user, and every key has a rate.

With keys configured, a request without a valid key is refused (401) and a request with one
is pinned to that key's ``user_id``: the routes overwrite whatever user filter was sent.
Without keys (loopback only, see :mod:`.config`) the caller is anonymous and unpinned.
"""

from __future__ import annotations

import hashlib
import hmac
import threading
import time
from collections import deque
from dataclasses import dataclass

__all__ = ["Caller", "KeyRing", "RateLimiter", "key_id"]

# What a key's webhook secret is derived from (see ``KeyRing.webhook_secret``); a new version
# here would change every secret, so it is fixed.
_SECRET_LABEL = b"omnireader webhook secret v1"


def key_id(key: str) -> str:
    """A key's public name: a hash prefix, safe to record in a job (the key is not)."""
    return hashlib.sha256(key.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Caller:
    """``user_id`` is the user every read, search and delete is forced to (None: not pinned)."""

    user_id: str | None
    bucket: str  # what the rate is counted against: the key's user, or the client address
    key_id: str | None = None  # which key (see ``key_id``); None without keys


class KeyRing:
    def __init__(self, keys: dict[str, str]) -> None:
        self._keys = dict(keys)

    @property
    def enabled(self) -> bool:
        return bool(self._keys)

    def user_for(self, presented: str | None) -> str | None:
        """The user of ``presented``, compared in constant time; None when it is not a key."""
        if not presented:
            return None
        found = None
        for key, user in self._keys.items():
            if hmac.compare_digest(key.encode(), presented.encode()):
                found = user
        return found

    def webhook_secret(self, key_hash: str) -> str | None:
        """The webhook secret of the key named ``key_hash`` (see :func:`key_id`), or None
        when no configured key has that name (it was removed since the job was sent).

        Derived, not stored: HMAC-SHA256 of a fixed label under the key. The holder of a key
        can compute it (or ask ``GET /v1/webhooks/secret``), it changes when the key is
        rotated, and it does not reveal the key to a receiver that learns it."""
        for key in self._keys:
            if hmac.compare_digest(key_id(key), key_hash):
                return hmac.new(key.encode(), _SECRET_LABEL, hashlib.sha256).hexdigest()
        return None


class RateLimiter:
    """A sliding one-minute window per bucket; ``allow`` says whether one more request fits."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def allow(self, bucket: str) -> tuple[bool, float]:
        """(allowed, seconds until the next request would be allowed)."""
        now = time.monotonic()
        with self._lock:
            hits = self._hits.setdefault(bucket, deque())
            while hits and hits[0] <= now - 60.0:
                hits.popleft()
            if len(hits) >= self.per_minute:
                return False, max(0.0, hits[0] + 60.0 - now)
            hits.append(now)
            return True, 0.0
