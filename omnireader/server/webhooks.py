"""Job webhooks: when a job with a ``callback_url`` ends, its final status is POSTed there.

Delivery never runs on the job's path. The job manager only hands the job id to
:meth:`Webhooks.schedule` (a heap push); one scheduler thread starts each attempt, when it
is due, in a small pool of sender threads, and every attempt is bounded by the timeout. So a
callback that is unreachable, slow or hostile costs a sender thread for at most the timeout,
never the job, which is "done" (or "failed") before the first attempt starts.

Each attempt goes through the URL guard of :mod:`omnireader.net.fetch` (the server's
``allow_private_urls`` decides whether loopback and private addresses may be reached; the
address is checked again at every attempt, so a DNS answer that changes cannot point a
retry at a private address). A 2xx answer is delivered; 408, 429, 5xx, a timeout or a
failed connection is retried with exponential backoff up to ``attempts``; any other answer
(a 4xx: the receiver refused it) fails the delivery at once. The record is in the job
(``GET /v1/jobs/{id}`` → ``callback``) and saved in its ``job.json``, so a restart resumes
deliveries still pending.

Signing: ``X-OmniReader-Signature: sha256=HEX``, the HMAC-SHA256 under the caller's webhook
secret of ``TIMESTAMP + "." + BODY``, where TIMESTAMP is the ``X-OmniReader-Timestamp``
header (Unix seconds): a receiver can refuse an old or replayed call.
"""

from __future__ import annotations

import hashlib
import heapq
import hmac
import json
import os
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from omnireader.errors import InvalidInputError, OmniReaderError
from omnireader.server.schemas import JobState

__all__ = [
    "MAX_URL_CHARS",
    "CallbackURLError",
    "Webhooks",
    "anonymous_secret",
    "check_callback_url",
    "payload",
    "sign",
]

MAX_URL_CHARS = 2048
_MAX_DELAY = 600.0  # no retry waits longer than this
_SENDERS = 4  # attempts in flight at once (each bounded by the timeout)


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The ``X-OmniReader-Signature`` value for ``body`` sent at ``timestamp``."""
    mac = hmac.new(secret.encode(), str(timestamp).encode() + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def anonymous_secret(spool: Path) -> str:
    """The secret of a server without API keys: generated once, kept in the spool
    (``webhook-secret``, mode 600) so it stays the same across restarts."""
    path = spool / "webhook-secret"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    spool.mkdir(parents=True, exist_ok=True)
    value = secrets.token_hex(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: use that one
        return path.read_text().strip()
    with os.fdopen(fd, "w") as f:
        f.write(value + "\n")
    return value


class CallbackURLError(InvalidInputError):
    """A ``callback_url`` the server will not call (400); ``code`` is the URL guard's reason
    (``blocked_url`` for a loopback or private address, ``fetch_failed`` otherwise)."""

    def __init__(self, message: str, code: str = "invalid_callback_url") -> None:
        super().__init__(message)
        self.code = code


def check_callback_url(url: Any, allow_private: bool) -> str | None:
    """``url`` when it may be called back (None when none was given); otherwise a typed error
    (400): not a string, too long, not http(s), a host that does not resolve, or a loopback
    / private address without ``--allow-private-urls``."""
    from omnireader.errors import FetchError
    from omnireader.net.fetch import check_url

    if url is None or url == "":
        return None
    if not isinstance(url, str) or len(url) > MAX_URL_CHARS:
        raise CallbackURLError(
            f"callback_url must be an http(s) URL of at most {MAX_URL_CHARS} characters"
        )
    try:
        check_url(url, allow_private=allow_private)
    except FetchError as e:  # its detail says what is wrong and, when blocked, what to pass
        raise CallbackURLError(f"callback_url {url[:200]!r}: {e.detail}", e.code) from None
    return url


class Webhooks:
    """Sends the final status of finished jobs to their ``callback_url`` (module docstring)."""

    def __init__(
        self,
        jobs: Any,
        secret_for: Callable[[str | None], str | None],
        *,
        allow_private: bool,
        attempts: int,
        timeout: float,
        backoff: float,
    ) -> None:
        self._jobs = jobs
        self._secret_for = secret_for
        self.allow_private = allow_private
        self.attempts, self.timeout, self.backoff = attempts, timeout, backoff
        self._due: list[tuple[float, str]] = []
        self._sending: set[str] = set()  # one attempt per job at a time, however scheduled
        self._wake = threading.Condition()
        self._stopped = False
        self._senders = ThreadPoolExecutor(
            max_workers=_SENDERS, thread_name_prefix="omnireader-webhook"
        )
        self._thread = threading.Thread(target=self._loop, name="omnireader-webhooks", daemon=True)
        self._thread.start()
        jobs.on_finished = self.schedule

    def schedule(self, job_id: str, at: float | None = None) -> None:
        """Send ``job_id``'s status at ``at`` (time.time(); now by default). Never blocks."""
        with self._wake:
            heapq.heappush(self._due, (at or 0.0, job_id))
            self._wake.notify()

    def recover(self) -> int:
        """Schedule the deliveries a stopped server left pending, at once (the time it was
        down counts as the wait); how many."""
        n = 0
        for job in self._jobs.all():
            if (
                job.status in ("done", "failed")
                and job.callback
                and job.callback.state == "pending"
            ):
                self.schedule(job.id)
                n += 1
        return n

    def close(self) -> None:
        with self._wake:
            self._stopped = True
            self._wake.notify()
        self._senders.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ sending

    def _loop(self) -> None:
        while True:
            with self._wake:
                while not self._stopped and (not self._due or self._due[0][0] > time.time()):
                    wait = self._due[0][0] - time.time() if self._due else None
                    self._wake.wait(wait)
                if self._stopped:
                    return
                _, job_id = heapq.heappop(self._due)
            try:
                self._senders.submit(self._attempt, job_id)
            except RuntimeError:  # the pool was shut down under us
                return

    def _attempt(self, job_id: str) -> None:
        with self._wake:
            if job_id in self._sending:
                return
            self._sending.add(job_id)
        try:
            retry_at = self._attempt_one(job_id)
        finally:
            with self._wake:
                self._sending.discard(job_id)
        if retry_at is not None:  # after the guard is released, or the retry could be lost
            self.schedule(job_id, retry_at)

    def _attempt_one(self, job_id: str) -> float | None:
        """One attempt, recorded in the job; when to try again (None: done with it)."""
        job = self._jobs.get(job_id)
        if (
            job is None
            or job.callback is None
            or job.callback.state != "pending"
            or job.status not in ("done", "failed")
        ):
            return None
        record = job.callback.model_copy()
        record.attempts += 1
        record.last_attempt_at = now = time.time()
        record.next_attempt_at = None
        status, error, retry = self._send(job, record.attempts)
        record.last_status, record.last_error = status, error
        if error is None:
            record.state, record.delivered_at = "delivered", time.time()
        elif record.attempts >= self.attempts or not retry:
            record.state = "failed"
        else:
            record.next_attempt_at = now + min(
                _MAX_DELAY, self.backoff * 2 ** (record.attempts - 1)
            )
        self._jobs.record_delivery(job_id, record)
        return record.next_attempt_at if record.state == "pending" else None

    def _send(self, job: JobState, attempt: int) -> tuple[int | None, str | None, bool]:
        """(the receiver's status or None, why it did not count or None, worth retrying)."""
        from omnireader.errors import BlockedURLError
        from omnireader.net.fetch import post_url

        assert job.callback is not None
        secret = self._secret_for(job.key_id)
        if secret is None:
            return (
                None,
                (
                    "the API key this job was sent with is no longer configured, so "
                    "there is no secret to sign the callback with"
                ),
                False,
            )
        body = payload(job)
        stamp = int(time.time())
        headers = {
            "Content-Type": "application/json",
            "X-OmniReader-Event": f"job.{job.status}",
            "X-OmniReader-Job": job.id,
            "X-OmniReader-Attempt": str(attempt),
            "X-OmniReader-Timestamp": str(stamp),
            "X-OmniReader-Signature": sign(secret, stamp, body),
        }
        try:
            status, _ = post_url(
                job.callback.url,
                body,
                headers=headers,
                allow_private=self.allow_private,
                timeout=self.timeout,
            )
        except BlockedURLError as e:  # the address is refused: asking again changes nothing
            return None, " ".join(str(e).split())[:500], False
        except OmniReaderError as e:  # refused connection, timeout, bad answer: may pass
            return None, " ".join(str(e).split())[:500], True
        except Exception as e:
            return None, f"{type(e).__name__}: {e}"[:500], True
        if 200 <= status < 300:
            return status, None, False
        # 408 / 429 / 5xx may pass; any other 4xx is the receiver's refusal, and a redirect
        # is not followed (a POST is not replayed elsewhere), so asking again changes nothing.
        return status, f"the receiver answered HTTP {status}", status in (408, 429) or status >= 500


def payload(job: JobState) -> bytes:
    """The body: the job as ``GET /v1/jobs/{id}`` shows it, without its delivery record (the
    same bytes at every attempt, so a receiver can de-duplicate on the job id; ``version``
    is left out too, since recording each attempt bumps it)."""
    data = job.public()
    data.pop("callback", None)
    data.pop("version", None)
    return json.dumps({"event": f"job.{job.status}", "job": data}, separators=(",", ":")).encode()
