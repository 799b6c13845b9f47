"""fetch_url against a real HTTP server on 127.0.0.1: address guard, redirects, size and time caps.

No request ever leaves the loopback interface: public addresses only reach the address
classifier, never a socket.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from omnireader.errors import BlockedURLError, FetchError, ReadTimeoutError, TooLargeError
from omnireader.net.fetch import blocked_reason, fetch_url

PNG = b"\x89PNG\r\n\x1a\n" + b"not really pixels" * 10
BIG = 2 * 1024 * 1024  # bytes served by /large and /large-unsized


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        pass

    def _send(self, status: int, body: bytes, **headers: str) -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _redirect(self, location: str) -> None:
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        self.server.seen.append(self.path)
        path = self.path
        if path == "/photo.png":
            self._send(200, PNG, Content_Type="image/png; charset=binary")
        elif path == "/download":
            self._send(
                200,
                b"%PDF-1.4 tiny",
                Content_Type="application/pdf",
                Content_Disposition="attachment; filename*=UTF-8''na%C3%AFve%20plan.pdf",
            )
        elif path == "/sneaky":
            self._send(200, b"x", Content_Disposition='attachment; filename="../../etc/passwd"')
        elif path == "/host":
            self._send(200, (self.headers["Host"] or "").encode(), Content_Type="text/plain")
        elif path == "/redirect":
            self._redirect("/photo.png")
        elif path.startswith("/chain/"):
            n = int(path.rsplit("/", 1)[1])
            self._redirect(f"/chain/{n - 1}" if n > 1 else "/photo.png")
        elif path == "/to-file":
            self._redirect("file:///etc/passwd")
        elif path == "/large":
            self._send(200, b"\0" * BIG)
        elif path == "/large-unsized":
            self._stream(b"\0" * 65536 for _ in range(BIG // 65536))
        elif path == "/endless":
            # One byte every 20 ms for up to 10 s: a client without an overall deadline would
            # get the whole body after 10 s and the test asking for a timeout would fail.
            self._stream((b"." for _ in range(500)), pause=0.02)
        elif path == "/stall":
            self.send_response(200)
            self.end_headers()
            self.wfile.flush()
            self.server.release.wait(10)
        else:
            self._send(404, b"no such thing")

    def _stream(self, chunks: Iterator[bytes], pause: float = 0.0) -> None:
        # HTTP/1.0 without Content-Length: the body ends when the connection closes.
        self.send_response(200)
        self.end_headers()
        try:
            for chunk in chunks:
                self.wfile.write(chunk)
                self.wfile.flush()
                if pause:
                    time.sleep(pause)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up, as it should


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    seen: list[str]
    release: threading.Event


@pytest.fixture(scope="module")
def server() -> Iterator[_Server]:
    srv = _Server(("127.0.0.1", 0), _Handler)
    srv.seen = []
    srv.release = threading.Event()
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.release.set()
    srv.shutdown()
    srv.server_close()


def url(server: _Server, path: str, host: str = "127.0.0.1") -> str:
    return f"http://{host}:{server.server_address[1]}{path}"


# ------------------------------------------------------------------- address guard


def test_loopback_url_is_refused_by_default_before_any_connection(server: _Server) -> None:
    target = url(server, "/photo.png?refused")
    with pytest.raises(BlockedURLError) as info:
        fetch_url(target)
    err = info.value
    assert err.code == "blocked_url"
    assert err.input_name == target
    assert "loopback" in str(err) and "allow_private_urls=True" in str(err)
    assert "/photo.png?refused" not in server.seen


def test_host_name_is_judged_by_the_addresses_it_resolves_to(server: _Server) -> None:
    with pytest.raises(BlockedURLError, match="localhost resolves to 127.0.0.1"):
        fetch_url(url(server, "/photo.png", host="localhost"))


def test_private_url_is_fetched_when_allowed(server: _Server) -> None:
    got = fetch_url(url(server, "/photo.png"), allow_private=True)
    assert got.data == PNG
    assert got.mime == "image/png"
    assert got.filename == "photo.png"
    assert got.final_url == url(server, "/photo.png")


def test_connection_keeps_the_host_name_in_the_host_header(server: _Server) -> None:
    # The connection goes to the checked address; the server still sees the name asked for.
    got = fetch_url(url(server, "/host", host="localhost"), allow_private=True)
    assert got.data.decode() == f"localhost:{server.server_address[1]}"


@pytest.mark.parametrize(
    "address, reason",
    [
        ("10.0.0.1", "private"),
        ("172.16.0.1", "private"),
        ("192.168.1.1", "private"),
        ("127.0.0.1", "loopback"),
        ("0.0.0.0", "unspecified"),
        ("169.254.169.254", "cloud metadata"),
        ("fd00:ec2::254", "cloud metadata"),
        ("169.254.1.1", "link-local"),
        ("224.0.0.1", "multicast"),
        ("100.64.0.1", "not globally routable"),
        ("::1", "loopback"),
        ("fe80::1", "link-local"),
        ("fc00::1", "private"),
        ("::ffff:127.0.0.1", "loopback (IPv4 127.0.0.1 inside IPv6)"),
        ("::ffff:169.254.169.254", "cloud metadata (IPv4 169.254.169.254 inside IPv6)"),
        ("2002:c0a8:101::1", "private (IPv4 192.168.1.1 inside IPv6)"),  # 6to4
    ],
)
def test_address_classifier_blocks_non_public_addresses(address: str, reason: str) -> None:
    assert blocked_reason(address) == reason


@pytest.mark.parametrize(
    "address", ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"]
)
def test_address_classifier_allows_public_addresses(address: str) -> None:
    assert blocked_reason(address) is None


@pytest.mark.parametrize("target", ["ftp://127.0.0.1/x", "file:///etc/passwd", "gopher://a/"])
def test_only_http_and_https_urls_are_fetched(target: str) -> None:
    with pytest.raises(FetchError, match="only http:// and https://") as info:
        fetch_url(target, allow_private=True)
    assert info.value.input_name == target


# ----------------------------------------------------------------------- redirects


def test_redirect_is_followed_and_the_final_url_reported(server: _Server) -> None:
    got = fetch_url(url(server, "/redirect"), allow_private=True)
    assert got.data == PNG
    assert got.final_url == url(server, "/photo.png")


def test_redirect_hops_are_counted(server: _Server) -> None:
    assert fetch_url(url(server, "/chain/3"), allow_private=True, max_redirects=3).data == PNG
    with pytest.raises(FetchError, match="more than 2 redirects") as info:
        fetch_url(url(server, "/chain/3"), allow_private=True, max_redirects=2)
    assert info.value.input_name == url(server, "/chain/3")


def test_each_redirect_hop_is_checked_again(server: _Server) -> None:
    with pytest.raises(FetchError, match="redirect to file:.*/etc/passwd: only http"):
        fetch_url(url(server, "/to-file"), allow_private=True)


# ------------------------------------------------------------------ response handling


def test_content_disposition_names_the_file(server: _Server) -> None:
    got = fetch_url(url(server, "/download"), allow_private=True)
    assert got.filename == "naïve plan.pdf"
    assert got.mime == "application/pdf"


def test_file_name_from_the_server_cannot_climb_out_of_a_folder(server: _Server) -> None:
    assert fetch_url(url(server, "/sneaky"), allow_private=True).filename == "passwd"


def test_http_error_status_is_a_fetch_error_naming_url_and_status(server: _Server) -> None:
    target = url(server, "/missing")
    with pytest.raises(FetchError) as info:
        fetch_url(target, allow_private=True)
    assert info.value.code == "fetch_failed"
    assert "HTTP 404" in str(info.value) and target in str(info.value)


def test_declared_size_over_the_cap_is_refused(server: _Server) -> None:
    with pytest.raises(TooLargeError, match=f"{BIG} bytes is over the 1048576 byte limit"):
        fetch_url(url(server, "/large"), allow_private=True, max_bytes=1024 * 1024)


def test_undeclared_size_is_cut_at_the_cap_while_streaming(server: _Server) -> None:
    with pytest.raises(TooLargeError, match="more than the 1048576 byte limit"):
        fetch_url(url(server, "/large-unsized"), allow_private=True, max_bytes=1024 * 1024)
    # Under the cap the same stream arrives whole.
    assert len(fetch_url(url(server, "/large-unsized"), allow_private=True).data) == BIG


def test_endless_slow_stream_is_cut_by_the_overall_deadline(server: _Server) -> None:
    with pytest.raises(ReadTimeoutError, match="longer than 0.5 s") as info:
        fetch_url(url(server, "/endless"), allow_private=True, timeout=0.5)
    assert info.value.code == "timeout"


def test_stalled_server_times_out(server: _Server) -> None:
    with pytest.raises(ReadTimeoutError, match="stalled for 0.3 s"):
        fetch_url(url(server, "/stall"), allow_private=True, timeout=0.3)
