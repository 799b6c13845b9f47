"""Network cases: URLs to internal addresses refused, slow and endless downloads cut.

A hostile HTTP server runs on 127.0.0.1 for each case and records every request, so a
refusal can be shown to happen before any connection. URLs come in the way agents send
them: an ``image_url`` or ``file`` part in a chat message, next to text that must be kept.
"""

from __future__ import annotations

import io
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

from .checks import Readable, check_batch
from .harness import Outcome, RunEnv, fault
from .reading import read_batch

__all__ = ["hostile_server", "HostileServer"]

MiB = 1 << 20
TEXT = "Here is the chart of the plum harvest, see attached."
CONTROL = "Control: the apricot order ships on Monday."


def _png() -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (32, 16), (10, 200, 90)).save(buf, "PNG")
    return buf.getvalue()


class _Handler(BaseHTTPRequestHandler):
    server: HostileServer

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
        pass

    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        self.server.seen.append(self.path)
        url = urlparse(self.path)
        try:
            if url.path == "/ok.png":
                self._send(200, self.server.png, "image/png")
            elif url.path == "/redirect":
                self.send_response(302)
                self.send_header("Location", parse_qs(url.query)["to"][0])
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif url.path == "/endless":  # a byte every 10 ms, for ever (10 min)
                self._stream((b"\x89" for _ in range(60_000)), pause=0.01)
            elif url.path == "/stall":  # headers, then nothing
                self.send_response(200)
                self.end_headers()
                self.wfile.flush()
                self.server.release.wait(600)
            elif url.path == "/huge-declared":
                self.send_response(200)
                self.send_header("Content-Length", str(10 * 1024 * MiB))
                self.end_headers()
                self.server.release.wait(600)
            elif url.path == "/huge-unsized":  # no length given: 1 GB as fast as it goes
                self._stream(bytes(64 * 1024) for _ in range(16 * 1024))
            else:
                self._send(404, b"no such thing", "text/plain")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up, as it should

    def _send(self, status: int, body: bytes, mime: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", mime)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _stream(self, chunks: Iterator[bytes], pause: float = 0.0) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.end_headers()
        for chunk in chunks:
            if self.server.release.is_set():
                return
            self.wfile.write(chunk)
            self.wfile.flush()
            if pause:
                time.sleep(pause)


class HostileServer(ThreadingHTTPServer):
    daemon_threads = True
    seen: list[str]
    release: threading.Event
    png: bytes

    def url(self, path: str, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.server_address[1]}{path}"


@contextmanager
def hostile_server() -> Iterator[HostileServer]:
    srv = HostileServer(("127.0.0.1", 0), _Handler)
    srv.seen, srv.release, srv.png = [], threading.Event(), _png()
    thread = threading.Thread(target=srv.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield srv
    finally:
        srv.release.set()
        srv.shutdown()
        srv.server_close()


def _message(urls: list[str], as_file: bool = False) -> list[Any]:
    """One user message: the text, then each URL as an image (or file) part; and a control."""
    parts: list[dict[str, Any]] = [{"type": "text", "text": TEXT}]
    for u in urls:
        parts.append(
            {"type": "file", "file": {"file_data": u}}
            if as_file
            else {"type": "image_url", "image_url": {"url": u}}
        )
    return [[{"role": "user", "content": parts}], CONTROL]


def _check_urls(
    env: RunEnv,
    srv: HostileServer,
    bad: dict[str, str],
    *,
    options: dict[str, Any] | None = None,
    good: list[str] = (),
    as_file: bool = False,
    contacted: bool = False,
    reason: str = "",
) -> Outcome:
    batch = read_batch(env, _message([*bad, *good], as_file), options=options)
    readable = [
        Readable("<chat>", contains=("plum harvest",)),
        Readable("<string>", contains=("apricot",)),
    ]
    readable += [Readable(u, exact_items=1) for u in good]
    out = check_batch(batch, bad=bad, readable=readable)
    if not contacted and srv.seen:
        out.problems.append(f"the server was contacted: {srv.seen}")
    for f in batch.failures:
        if reason not in f.message:
            out.problems.append(f"{f.input}: the message does not say {reason!r}: {f.message}")
    return out


def _resolves(host: str) -> bool:
    try:
        socket.getaddrinfo(host, 80, type=socket.SOCK_STREAM)
        return True
    except (socket.gaierror, UnicodeError):
        return False


@fault(
    "network",
    "url-loopback",
    "image and file URLs to 127.0.0.1 in a chat message",
    "blocked_url before connecting; the text kept",
)
def _loopback(env: RunEnv) -> Outcome:
    with hostile_server() as srv:
        out = _check_urls(env, srv, {srv.url("/ok.png"): "blocked_url"}, reason="loopback")
        out2 = _check_urls(
            env, srv, {srv.url("/ok.png?as=file"): "blocked_url"}, as_file=True, reason="loopback"
        )
    out.problems += out2.problems
    out.items_lost += out2.items_lost
    return out


@fault(
    "network",
    "url-loopback-in-disguise",
    "localhost, 127.1, 2130706433, 0x7f.1, [::1], [::ffff:127.0.0.1]",
    "blocked_url for each; nothing contacted",
)
def _disguised(env: RunEnv) -> Outcome:
    with hostile_server() as srv:
        hosts = [
            h
            for h in ("localhost", "127.1", "2130706433", "0x7f.1", "[::1]", "[::ffff:127.0.0.1]")
            if _resolves(h.strip("[]"))
        ]
        bad = {srv.url(f"/ok.png?via={n}", host=h): "blocked_url" for n, h in enumerate(hosts)}
        return _check_urls(env, srv, bad, reason="loopback")


@fault(
    "network",
    "url-private-ranges",
    "10/8, 172.16/12, 192.168/16, 100.64/10, 169.254/16, fe80::, fc00::",
    "blocked_url for each, by address class",
)
def _private(env: RunEnv) -> Outcome:
    with hostile_server() as srv:
        hosts = [
            "10.0.0.1",
            "172.16.5.4",
            "192.168.1.1",
            "100.64.0.1",
            "169.254.10.10",
            "[fe80::1]",
            "[fc00::5]",
            "0.0.0.0",
        ]
        return _check_urls(env, srv, {f"http://{h}/x.png": "blocked_url" for h in hosts})


@fault(
    "network",
    "url-cloud-metadata",
    "169.254.169.254 and fd00:ec2::254 (cloud metadata)",
    "blocked_url as cloud metadata",
)
def _metadata(env: RunEnv) -> Outcome:
    with hostile_server() as srv:
        urls = [
            "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
            "http://[fd00:ec2::254]/latest/meta-data/",
        ]
        return _check_urls(env, srv, {u: "blocked_url" for u in urls}, reason="cloud metadata")


@fault(
    "network",
    "url-redirect-to-internal",
    "a trusted server redirecting to 169.254.169.254, 10.0.0.5, 127.0.0.2",
    "blocked_url at the redirect; the target never contacted",
)
def _redirect(env: RunEnv) -> Outcome:
    from omnireader.errors import BlockedURLError
    from omnireader.net.fetch import fetch_url

    out = Outcome(via="fetch_url")
    with hostile_server() as srv:
        port = srv.server_address[1]
        targets = [
            "http://169.254.169.254/latest/meta-data/",
            "http://10.0.0.5/admin",
            f"http://127.0.0.2:{port}/ok.png?secret",
        ]
        # The first hop is allowed by address, as one trusted intranet server would be.
        ok = fetch_url(srv.url("/ok.png"), allow_addresses=["127.0.0.1"], timeout=5)
        if ok.data != srv.png:
            out.problems.append("the trusted server itself could not be fetched")
        codes = []
        for target in targets:
            try:
                fetch_url(
                    srv.url(f"/redirect?to={target}"), allow_addresses=["127.0.0.1"], timeout=5
                )
                out.problems.append(f"redirect to {target} was followed")
            except BlockedURLError as e:
                codes.append(e.code)
                if "redirect to" not in str(e):
                    out.problems.append(f"the error does not name the redirect: {e}")
        if any(p.startswith("/ok.png?secret") for p in srv.seen):
            out.problems.append(f"a redirect target was contacted: {srv.seen}")
    out.outcome = " + ".join(f"{c} ×{codes.count(c)}" for c in sorted(set(codes))) or "-"
    return out


@fault(
    "network",
    "url-slow-and-endless",
    "a trickling endless body, a stalled server, 10 GB declared, 1 GB streamed",
    "timeout ×2 + too_large ×2; the good image and the text kept",
)
def _slow(env: RunEnv) -> Outcome:
    # 1 s in the test suite: at 0.5 s a loaded machine (load average 14 on two cores) let
    # the server's answer to /huge-declared miss the limit, a timeout instead of too_large.
    limit = 1.0 if env.scale == "test" else 2.0
    options = {"allow_private_urls": True, "fetch_timeout": limit, "max_fetch_bytes": 4 * MiB}
    with hostile_server() as srv:
        bad = {
            srv.url("/endless"): "timeout",
            srv.url("/stall"): "timeout",
            srv.url("/huge-declared"): "too_large",
            srv.url("/huge-unsized"): "too_large",
        }
        return _check_urls(
            env, srv, bad, options=options, good=[srv.url("/ok.png")], contacted=True
        )
