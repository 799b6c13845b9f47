"""An HTML mail's or saved web page's ``multipart/related`` part: which of its resources
are content, and which are the page's furniture.

RFC 2387 puts an HTML page (the root) beside the resources it shows; the page names each
one by ``cid:<Content-ID>`` (HTML mail) or by its ``Content-Location`` URL (RFC 2557, a
page saved as MHTML). What the page shows inline is its furniture: a logo, a spacer
GIF, a signature's icons, a style sheet (a picture the size of a screenshot or a photo
aside: pasted into the text, it is what the message shows). Read on its own it is noise (OCR of a seal reads
"PR ELUISSGIN.S"), so it is not a member. A resource the sender attached
(``Content-Disposition: attachment``), or an image the page never shows, stays one:

    parts = related_parts(container)
    parts.read        # the root, then the resources read as attachments
    parts.furniture   # resources the page shows inline: not read, listed on the message
"""

from __future__ import annotations

import html
import re
from email.message import Message
from typing import NamedTuple
from urllib.parse import unquote, urljoin

from omnireader.formats.mail.body import part_text
from omnireader.formats.mail.headers import header_text

__all__ = ["RelatedParts", "related_parts", "resource_name"]

# Where a page names a resource: an attribute's URL, or a style sheet's url(...).
_REFERENCE = re.compile(
    r"""\b(?:src|href|background|data|poster|srcset)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))"""
    r"""|url\(\s*["']?([^"')]+)""",
    re.I,
)
_BASE = re.compile(r"""<base\b[^>]*?\bhref\s*=\s*["']?([^"'\s>]+)""", re.I)


class RelatedParts(NamedTuple):
    read: list[Message]  # the root, then the resources read as members
    furniture: list[Message]  # resources the page shows inline: not read


def related_parts(container: Message) -> RelatedParts:
    """Sort the children of the ``multipart/related`` part ``container``."""
    children = container.get_payload()
    if not isinstance(children, list) or not children:
        return RelatedParts([], [])
    root = _root(container, children)
    resources = [c for c in children if c is not root]
    base = _base_of(root) or _base_of(container)
    shown = _references(root, resources, base)
    read: list[Message] = [root]
    furniture: list[Message] = []
    for part in resources:
        if _disposition(part) == "attachment":
            read.append(part)  # the sender attached it, whatever the page does with it
        elif _names(part, base) & shown and not _picture_sized(part):
            furniture.append(part)
        elif part.get_filename() or part.get_content_maintype() == "image":
            read.append(part)  # an image the page never shows: sent to be seen on its own
        # else: a style sheet or script nothing names: no text of the message's own
    return RelatedParts(read, furniture)


# A picture shown inline this large (in pixels, each side and in all) is what the
# message shows, not its furniture: a screenshot or a photo pasted into the text.
_PICTURE_SIDE = 200
_PICTURE_AREA = 120_000


def _picture_sized(part: Message) -> bool:
    """Whether ``part`` is an image the size of a screenshot or photo (read from its
    header; a part that is no readable image is not)."""
    if part.get_content_maintype() != "image":
        return False
    data = part.get_payload(decode=True)
    if not isinstance(data, bytes) or not data:
        return False
    import io

    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:  # the header only: no pixels decoded
            width, height = image.size
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
        return False
    return min(width, height) >= _PICTURE_SIDE and width * height >= _PICTURE_AREA


def resource_name(part: Message) -> str:
    """What to call a resource in the message's metadata: its file name, else the last
    part of its Content-Location, else its Content-ID, else its type."""
    if part.get_filename():
        return header_text(part.get_filename())
    location = (part.get("Content-Location") or "").strip()
    tail = location.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
    return tail or (part.get("Content-ID") or "").strip(" <>") or part.get_content_type()


def _root(container: Message, children: list[Message]) -> Message:
    """The part the ``start`` parameter names (RFC 2387), else the first."""
    start = container.get_param("start") or ""
    start = start if isinstance(start, str) else ""  # an RFC 2231 tuple: not worth decoding
    wanted = start.strip().strip("<>").casefold()
    if wanted:
        for child in children:
            if (child.get("Content-ID") or "").strip().strip("<>").casefold() == wanted:
                return child
    return children[0]


def _disposition(part: Message) -> str:
    return (part.get("Content-Disposition") or "").split(";")[0].strip().lower()


def _names(part: Message, base: str) -> set[str]:
    """How a page may name ``part``: ``cid:<its Content-ID>``, its Content-Location (as
    written, and resolved against the page's ``base``)."""
    names = set()
    cid = (part.get("Content-ID") or "").strip().strip("<>")
    if cid:
        names.add("cid:" + cid.casefold())
    location = (part.get("Content-Location") or "").strip()
    if location:
        names.add(location.casefold())
        names.add(urljoin(base, location).casefold())
    return names


def _references(root: Message, resources: list[Message], base: str) -> set[str]:
    """Every resource name the root page (and its style sheets) uses, resolved against
    the page's base, case-folded; ``cid:`` URLs unquoted (RFC 2392 escapes them)."""
    pages = [p for p in root.walk() if p.get_content_type() == "text/html"]
    sheets = [p for p in resources if p.get_content_type() == "text/css"]
    found: set[str] = set()
    for part in pages + sheets:
        text = part_text(part)
        here = _base_of(part) or base
        if tag := _BASE.search(text):
            here = urljoin(here, html.unescape(tag.group(1)))
        for match in _REFERENCE.finditer(text):
            value = html.unescape(next(g for g in match.groups() if g is not None)).strip()
            # a srcset lists "logo.png 1x, logo@2x.png 2x": each entry's first word
            for url in {value, *(entry.split()[0] for entry in value.split(",") if entry.split())}:
                if url.lower().startswith("cid:"):
                    found.add("cid:" + unquote(url[4:]).strip("<>").casefold())
                elif url:
                    found.add(url.casefold())
                    found.add(urljoin(here, url).casefold())
    return found


def _base_of(part: Message) -> str:
    return (part.get("Content-Base") or part.get("Content-Location") or "").strip()
