"""RSS and Atom feeds: the feed itself, and each post as an input of its own.

A feed is many posts, each with its own title, date and author: read as one document, every
chunk of every post would carry the blog's name as its key and the feed's date. So a feed is
a container, like a mailbox: each ``<item>`` (RSS 0.9x, 1.0, 2.0) or ``<entry>`` (Atom) is a
member (``feed.xml!item/3.xml``), read by :mod:`.feed_entry` with its own title (the key),
date, authors, categories and link. The feed's own document is its title, description and
the list of its posts.

Feeds are untrusted XML: parsed with defusedxml, entity declarations refused (a "billion
laughs" feed is then read as generic XML text, :mod:`omnireader.formats.plain.xml`, which
expands nothing, and has no members).

    for member in container_members(Blob(path="blog.rss"), "rss", ReadOptions()):
        route(member)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from xml.etree.ElementTree import Element, tostring

from omnireader.errors import EmptyInputError
from omnireader.formats.archives.member_names import member_blob
from omnireader.formats.document import DocInfo, Extraction, Section
from omnireader.formats.probe import Probe
from omnireader.formats.registry import Format, Magic, OnError, by_extension
from omnireader.formats.web.feed_entry import (
    child,
    children,
    entry_title,
    html_text,
    local,
    parse_feed,
    read_entry,
    text_of,
)
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["feed_entries"]

_ENTRY_ROOT = re.compile(
    rb"^(?:\xef\xbb\xbf)?\s*(?:<\?xml[^>]*\?>\s*)?<(?:[\w.-]+:)?(?:item|entry)[\s>/]"
)


def _channel(root: Element) -> Element:
    if local(root)[1] == "feed":
        return root
    channel = child(root, "channel")
    return root if channel is None else channel


def feed_entries(root: Element) -> list[Element]:
    """The posts: Atom's ``<entry>``, RSS 2.0's ``<item>`` in the channel, RSS 1.0's beside
    it."""
    if local(root)[1] == "feed":
        return children(root, "entry")
    return children(_channel(root), "item") or children(root, "item")


def _feed_text(root: Element, label: str) -> tuple[str | None, str]:
    """The feed's title and its document: title, description and the list of its posts."""
    channel = _channel(root)
    title = text_of(child(channel, "title")) or None
    about = child(channel, "description", "subtitle")
    parts = [f"# {title}"] if title else []
    if about is not None and (said := html_text(about, label)):
        parts.append(said)
    posts = [t for e in feed_entries(root) if (t := entry_title(e))]
    if posts:
        parts.append("Posts:\n\n" + "\n".join(f"- {t}" for t in posts))
    return title, "\n\n".join(parts)


def _read_feed(blob: Blob, options: ReadOptions) -> Extraction:
    data = blob.read_bytes()
    root = parse_feed(data)
    if root is None:
        # Entity declarations, odd markup: read as generic XML text, which expands nothing.
        from omnireader.formats.plain.xml import read_xml

        return read_xml(blob)
    title, text = _feed_text(root, blob.label)
    if not text.strip():
        raise EmptyInputError(blob.label, "the feed holds no title, description or posts")
    info = DocInfo(title=title, extra={"extractor": "feed", "entries": len(feed_entries(root))})
    updated = child(_channel(root), "lastBuildDate", "updated")
    if updated is not None:
        from omnireader.formats.web.html_meta import absolute_date

        info.modified = absolute_date(text_of(updated))
    return Extraction(info=info, sections=iter([Section(text=text)]))


def _members(blob: Blob, options: ReadOptions, on_error: OnError) -> Iterator[Blob]:
    root = parse_feed(blob.read_bytes())
    if root is None:
        return  # read as generic XML by _read_feed: no posts to tell apart
    kind = "entry" if local(root)[1] == "feed" else "item"
    for n, entry in enumerate(feed_entries(root), 1):
        # An XML document of its own: ElementTree declares the namespaces its tags use.
        yield member_blob(blob, f"{kind}/{n}.xml", tostring(entry, encoding="utf-8"))


def _is_feed(p: Probe) -> bool:
    low = p.lowered
    return low.startswith((b"<?xml", b"<rss", b"<feed", b"<rdf:rdf")) and (
        b"<rss" in low or b"<feed" in low or (b"<rdf:rdf" in low and b"purl.org/rss" in low)
    )


_ATOM_ENTRY = re.compile(rb"^(?:\xef\xbb\xbf)?\s*(?:<\?xml[^>]*\?>\s*)?<(?:[\w.-]+:)?entry[\s>/]")
_MEMBER = re.compile(r"(?:^|[!/])(?:item|entry)/\d+\.xml$")


def _is_entry(p: Probe) -> bool:
    """A post cut out of a feed (:func:`_members` names it ``item/<n>.xml``), or an Atom
    Entry Document (RFC 4287: ``<entry>`` in the Atom namespace as the root). An XML file
    of someone's own whose root is called ``item`` stays generic XML."""
    low = p.lowered
    if _ATOM_ENTRY.match(low) and b"http://www.w3.org/2005/atom" in low[:4096]:
        return True
    return bool(_ENTRY_ROOT.match(low)) and bool(_MEMBER.search(p.filename))


FORMATS = (
    Format(
        name="rss",
        rank=16,
        display="RSS",
        extensions=(".rss", ".atom"),
        mimes=("application/rss+xml",),
        listed=False,  # the supported text names "RSS/XML" (plain/xml.py) already
        magic=(
            Magic(70, _is_feed, "text"),
            Magic(80, by_extension(".rss"), "text"),
            Magic(80, by_extension(".atom", mime="application/atom+xml"), "text"),
        ),
        extract=_read_feed,
        members=_members,
        has_body=True,
        readme_group="RSS, Atom",
        readme="each post its own input (`feed.xml!item/3.xml`): its title the key, its date, "
        "authors, categories and link; `content:encoded` over an excerpt, its HTML as web "
        "pages'; the feed itself its title, description and list of posts",
    ),
    Format(
        name="feed_entry",
        display="RSS/Atom post",
        mimes=("application/atom+xml;type=entry",),
        listed=False,
        magic=(Magic(69, _is_entry, "text"),),
        extract=lambda blob, options: read_entry(blob),
        readme_group="RSS, Atom",
    ),
)
