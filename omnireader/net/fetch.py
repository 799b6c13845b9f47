"""Fetch one http(s) URL safely: no private addresses, bounded size and time.

Guards, in the order a fetch meets them:

- only ``http://`` and ``https://``;
- the host is resolved and the fetch is refused when *any* of its addresses is loopback,
  private, link-local, multicast, reserved, unspecified, not globally routable, or a cloud
  metadata address (IPv4-mapped, 6to4 and Teredo IPv6 forms are unwrapped first), unless
  ``allow_private`` is set or the address is one of ``allow_addresses`` (one trusted
  intranet server, say, while every other private address stays blocked);
- the connection goes to the address that was checked (the URL's host is swapped for it,
  while the ``Host`` header and TLS SNI / certificate check keep the real name), so a DNS
  answer that changes between check and connect (DNS rebinding) cannot redirect it;
- redirects are followed by hand, each hop checked by the same rules and counted;
- the body is streamed and cut at ``max_bytes``, and an overall deadline cuts a server that
  dribbles bytes forever.

Residual risks: name resolution itself is not bounded by ``timeout`` (the system resolver
has its own), and proxies from the environment are ignored on purpose (a proxy would make
the connection, so the address check would not mean anything).

    >>> got = fetch_url("https://example.org/photo.jpg")   # doctest: +SKIP
    >>> got.mime, got.filename
    ('image/jpeg', 'photo.jpg')
"""

from __future__ import annotations

import email.message
import ipaddress
import time
from collections.abc import Collection
from typing import TYPE_CHECKING

from pydantic import BaseModel

from omnireader.errors import FetchError, ReadTimeoutError, TooLargeError
from omnireader.net.addresses import blocked_reason, check_url, checked_target
from omnireader.options import ReadOptions

if TYPE_CHECKING:
    import httpx

__all__ = [
    "fetch_for",
    "Fetched",
    "fetch_url",
    "post_url",
    "check_url",
    "blocked_reason",
    "DEFAULT_MAX_BYTES",
]

DEFAULT_MAX_BYTES = 50 * 1024 * 1024

_REDIRECTS = {301, 302, 303, 307, 308}


class Fetched(BaseModel):
    """What a fetch returned: the body, its MIME type, a file name and the URL after redirects."""

    data: bytes
    mime: str | None = None
    filename: str | None = None
    final_url: str


def fetch_url(
    url: str,
    *,
    allow_private: bool = False,
    timeout: float = 15.0,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_redirects: int = 5,
    allow_addresses: Collection[str] = (),
) -> Fetched:
    """GET ``url`` under the guards in this module's docstring.

    ``timeout`` bounds each network operation and the whole fetch, redirects included.
    Raises :class:`BlockedURLError`, :class:`TooLargeError`, :class:`ReadTimeoutError` or
    :class:`FetchError`, each naming ``url``.
    """
    import httpx

    deadline = time.monotonic() + timeout
    current = url
    trusted = {ipaddress.ip_address(a) for a in allow_addresses}
    # No keep-alive: a pooled TLS connection to one IP must not be reused for another host
    # name (different SNI and certificate) after a redirect.
    limits = httpx.Limits(max_keepalive_connections=0)
    # identity: what we fetch (images, PDFs, audio) is compressed already, and a gzip body
    # could expand far past max_bytes inside a single decoded chunk.
    headers = {"User-Agent": "omnireader", "Accept": "*/*", "Accept-Encoding": "identity"}
    client = httpx.Client(follow_redirects=False, trust_env=False, limits=limits, headers=headers)
    with client:
        for _hop in range(max_redirects + 1):
            target, addresses = checked_target(current, url, allow_private, trusted)
            response = _send(client, target, addresses, url, deadline, timeout)
            try:
                location = response.headers.get("location")
                if response.status_code in _REDIRECTS and location:
                    current = str(target.join(location))
                    continue
                if not 200 <= response.status_code < 300:
                    where = "" if current == url else f" (after redirects, at {current})"
                    raise FetchError(
                        url, f"HTTP {response.status_code} {response.reason_phrase}{where}"
                    )
                data = _read_body(response, url, deadline, timeout, max_bytes)
                return Fetched(
                    data=data,
                    mime=_mime(response.headers.get("content-type")),
                    filename=_filename(response.headers.get("content-disposition"), target),
                    final_url=str(target),
                )
            finally:
                response.close()
    raise FetchError(url, f"more than {max_redirects} redirects (last one to {current})")


def _send(
    client: httpx.Client,
    target: httpx.URL,
    addresses: list[str],
    url: str,
    deadline: float,
    timeout: float,
    method: str = "GET",
    content: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    """Send the request to the first checked address that accepts a connection."""
    import httpx

    host = target.raw_host.decode("ascii").strip("[]")
    last: Exception | None = None
    for address in addresses:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        request = client.build_request(
            method,
            target.copy_with(host=address.split("%", 1)[0]),
            content=content,
            headers={**(headers or {}), "Host": target.netloc.decode("ascii")},
            # The certificate is checked against the real host name, not the address.
            extensions={"sni_hostname": host},
            timeout=httpx.Timeout(min(timeout, remaining)),
        )
        try:
            return client.send(request, stream=True)
        except httpx.ConnectError as e:
            last = e  # try the host's next address, as a browser would
        except httpx.TimeoutException:
            raise ReadTimeoutError(url, f"no answer within {timeout:g} s") from None
        except httpx.HTTPError as e:
            raise FetchError(url, f"{type(e).__name__}: {e}") from None
    if last is None:
        raise ReadTimeoutError(url, f"no answer within {timeout:g} s")
    raise FetchError(url, f"cannot connect to {host} ({last})")


def post_url(
    url: str,
    body: bytes,
    *,
    headers: dict[str, str] | None = None,
    allow_private: bool = False,
    allow_addresses: Collection[str] = (),
    timeout: float = 10.0,
    max_bytes: int = 64 * 1024,
) -> tuple[int, bytes]:
    """POST ``body`` to ``url`` under the same address guards as :func:`fetch_url`; return
    the status code and (up to ``max_bytes`` of) the answer.

    Redirects are not followed: a POST is not replayed to wherever a server points, and the
    redirect's status is returned as it is. ``timeout`` bounds the whole exchange.
    """
    import httpx

    deadline = time.monotonic() + timeout
    trusted = {ipaddress.ip_address(a) for a in allow_addresses}
    sent = {"User-Agent": "omnireader", "Accept-Encoding": "identity", **(headers or {})}
    client = httpx.Client(
        follow_redirects=False, trust_env=False, limits=httpx.Limits(max_keepalive_connections=0)
    )
    with client:
        target, addresses = checked_target(url, url, allow_private, trusted)
        response = _send(
            client,
            target,
            addresses,
            url,
            deadline,
            timeout,
            method="POST",
            content=body,
            headers=sent,
        )
        try:
            try:
                data = _read_body(response, url, deadline, timeout, max_bytes)
            except TooLargeError:
                data = b""  # the status is what counts; a huge answer is not read
            return response.status_code, data
        finally:
            response.close()


def _read_body(
    response: httpx.Response, url: str, deadline: float, timeout: float, max_bytes: int
) -> bytes:
    import httpx

    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise TooLargeError(url, f"{declared} bytes is over the {max_bytes} byte limit")
    body = bytearray()
    try:
        for chunk in response.iter_bytes():
            body += chunk
            if len(body) > max_bytes:
                raise TooLargeError(url, f"more than the {max_bytes} byte limit")
            # Each read has its own timeout; this catches a server that never stops sending.
            if time.monotonic() > deadline:
                raise ReadTimeoutError(url, f"the download took longer than {timeout:g} s")
    except httpx.TimeoutException:
        raise ReadTimeoutError(url, f"the download stalled for {timeout:g} s") from None
    except httpx.HTTPError as e:
        raise FetchError(url, f"the download failed ({type(e).__name__}: {e})") from None
    return bytes(body)


def _mime(content_type: str | None) -> str | None:
    if not content_type:
        return None
    return content_type.split(";", 1)[0].strip().lower() or None


def _filename(disposition: str | None, target: httpx.URL) -> str | None:
    """The name from Content-Disposition (``filename*`` too), else the URL's last segment."""
    name: str | None = None
    if disposition:
        header = email.message.Message()
        header["content-disposition"] = disposition
        name = header.get_filename()
    if not name:
        name = target.path  # already percent-decoded
    # Only the last segment: a server must not be able to name "../../somewhere".
    name = name.replace("\\", "/").rsplit("/", 1)[-1].strip()
    return name if name not in ("", ".", "..") else None


def fetch_for(url: str, options: ReadOptions) -> Fetched:
    """:func:`fetch_url` under the network policy and limits of ``options``."""
    return fetch_url(
        url,
        allow_private=options.allow_private_urls,
        allow_addresses=options.allow_addresses,
        timeout=options.fetch_timeout,
        max_bytes=options.max_fetch_bytes,
    )
