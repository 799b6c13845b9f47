"""Which addresses a fetch may reach: the URL's scheme and host checked, the host resolved,
and every address it resolves to judged (loopback, private, link-local, multicast,
reserved, unspecified, not globally routable, cloud metadata; IPv4 inside IPv6 unwrapped).

    >>> blocked_reason("10.0.0.1"), blocked_reason("8.8.8.8")
    ('private', None)
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Collection
from typing import TYPE_CHECKING

from omnireader.errors import BlockedURLError, FetchError

if TYPE_CHECKING:
    import httpx

__all__ = ["IPAddress", "blocked_reason", "check_url", "checked_target"]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_METADATA = {ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254")}
_ALLOW_HINT = "pass allow_private_urls=True / --allow-private-urls to allow it"
_CHECKS = (  # order matters: 127.0.0.1 is also "private", 169.254.x also "private"
    ("is_unspecified", "unspecified"),
    ("is_loopback", "loopback"),
    ("is_link_local", "link-local"),
    ("is_multicast", "multicast"),
    ("is_private", "private"),
    ("is_reserved", "reserved"),
)


def blocked_reason(address: str | IPAddress) -> str | None:
    """Why ``address`` must not be fetched by default (e.g. ``"loopback"``), or None.

    >>> blocked_reason("10.0.0.1"), blocked_reason("8.8.8.8")
    ('private', None)
    """
    ip = ipaddress.ip_address(address)
    if ip in _METADATA:
        return "cloud metadata"
    if isinstance(ip, ipaddress.IPv6Address):
        # An IPv6 address that carries an IPv4 one reaches that IPv4 host: judge it instead.
        embedded = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if embedded is not None:
            inner = blocked_reason(embedded)
            return f"{inner} (IPv4 {embedded} inside IPv6)" if inner else None
    for attr, reason in _CHECKS:
        if getattr(ip, attr):
            return reason
    if not ip.is_global:  # e.g. 100.64.0.0/10 carrier-grade NAT, where some clouds put metadata
        return "not globally routable"
    return None


def checked_target(
    current: str, url: str, allow_private: bool, trusted: Collection[IPAddress] = frozenset()
) -> tuple[httpx.URL, list[str]]:
    """The parsed URL and the addresses to connect to, after the scheme and address checks."""
    import httpx

    hop = "" if current == url else f"redirect to {current}: "
    try:
        target = httpx.URL(current)
    except httpx.InvalidURL as e:
        raise FetchError(url, f"{hop}not a valid URL ({e})") from None
    if target.scheme not in ("http", "https"):
        raise FetchError(url, f"{hop}only http:// and https:// URLs can be fetched")
    host = target.raw_host.decode("ascii").strip("[]")  # IDNA-encoded; no IPv6 brackets
    if not host:
        raise FetchError(url, f"{hop}the URL has no host")
    port = target.port or (443 if target.scheme == "https" else 80)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as e:
        raise FetchError(url, f"{hop}cannot resolve host {host!r} ({e})") from None
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    if not allow_private:
        for address in addresses:
            reason = blocked_reason(address)
            if reason and ipaddress.ip_address(address.split("%", 1)[0]) not in trusted:
                raise BlockedURLError(
                    url, f"{hop}{host} resolves to {address}, a {reason} address; {_ALLOW_HINT}"
                )
    return target, addresses


def check_url(
    url: str, *, allow_private: bool = False, allow_addresses: Collection[str] = ()
) -> None:
    """Raise what :func:`fetch_url` would raise before connecting: a scheme other than
    http(s), no host, a host that does not resolve, or one that resolves to a blocked address."""
    trusted = {ipaddress.ip_address(a) for a in allow_addresses}
    checked_target(url, url, allow_private, trusted)
