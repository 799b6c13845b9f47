"""One post of an RSS or Atom feed (a member :mod:`.feed` cut out of it) as a document.

Its title is the document's title (so each post's items are keyed by it), its date the
document's (RSS ``pubDate`` / ``dc:date``, Atom ``published``, else ``updated``; with the
zone it was written in), ``dc:creator`` / ``author`` its authors, its categories
``extra["keywords"]`` and its link ``extra["link"]``.

Its text is the full post (``content:encoded``, Atom ``content``), sent through the HTML to
Markdown path web pages take (:func:`omnireader.formats.web.html_markdown.html_markdown`:
links and images flattened to what a reader sees, embeds and buttons dropped). The
``description`` / ``summary`` is added only when it says something the post does not: most
feeds fill it with the post's first lines. WordPress's "The post X appeared first on Y."
footer is dropped.
"""

from __future__ import annotations

import copy
import html
import re
from email.utils import parseaddr
from xml.etree.ElementTree import Element, tostring

from omnireader.errors import CorruptError, EmptyInputError
from omnireader.formats.document import DocInfo, Extraction, Section
from omnireader.formats.people import people
from omnireader.formats.web.html_meta import absolute_date
from omnireader.payloads import Blob

__all__ = [
    "read_entry",
    "entry_title",
    "html_text",
    "parse_feed",
    "parse_entry",
    "child",
    "children",
    "text_of",
    "local",
    "ATOM",
]

ATOM = "http://www.w3.org/2005/Atom"
# Where a feed's own fields live: RSS 2.0 has none, RSS 1.0 / 0.90 and Atom their own.
_CORE = ("", ATOM, "http://purl.org/rss/1.0/", "http://my.netscape.com/rdf/simple/0.9/")


def local(el: Element) -> tuple[str, str]:
    """(namespace, local name) of ``el``'s tag."""
    tag = el.tag if isinstance(el.tag, str) else ""
    if tag.startswith("{"):
        space, _, name = tag[1:].partition("}")
        return space, name
    return "", tag


def children(el: Element, name: str, spaces: tuple[str, ...] = _CORE) -> list[Element]:
    """``el``'s children called ``name`` in one of ``spaces`` (the feed's own by default,
    so ``media:title`` is not taken for ``title``)."""
    return [c for c in el if local(c)[1] == name and local(c)[0] in spaces]


def child(el: Element, *names: str) -> Element | None:
    """The first child called one of ``names`` (tried in order) in the feed's namespaces.
    (Compared with None, never by truth: an element without children is false.)"""
    for name in names:
        if found := children(el, name):
            return found[0]
    return None


def text_of(el: Element | None) -> str:
    """The element's text, whitespace tidied ('' for None)."""
    return " ".join("".join(el.itertext()).split()) if el is not None else ""


def parse_feed(data: bytes, roots: tuple[str, ...] = ("rss", "RDF", "feed")) -> Element | None:
    """The feed's root element, or None when it is no well-formed feed defusedxml accepts
    (entity declarations, external references, broken markup)."""
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import ParseError, fromstring

    try:
        root = fromstring(data, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except (DefusedXmlException, ParseError, ValueError):
        return None
    return root if local(root)[1] in roots else None


def parse_entry(data: bytes) -> Element | None:
    """A post cut out of a feed (:func:`_members`), or an Atom Entry Document; None when it
    is no well-formed ``<item>`` / ``<entry>``."""
    root = parse_feed(data, roots=("item", "entry"))
    return root


_DC = ("http://purl.org/dc/elements/1.1/",)
_CONTENT = ("http://purl.org/rss/1.0/modules/content/",)
# WordPress's feed footer, in every post's excerpt and content alike.
_APPEARED_FIRST = re.compile(r"^The post .{1,400} appeared first on .{1,300}$", re.M)
_TAGS = re.compile(r"<[^>]+>")
_WORDS = re.compile(r"\w+")
# Words of an excerpt compared with the post: enough to tell its opening lines, not so many
# that an excerpt cut mid-sentence ("...", "[…]", "Continue reading") fails to match.
_EXCERPT_WORDS = 40


def _kind(el: Element) -> str:
    """How the element's text is written: ``html``, ``xhtml`` or ``text``. RSS fields are
    HTML by custom; Atom says so in ``type`` and means text when it says nothing."""
    declared = (el.get("type") or "").lower()
    if declared in ("html", "text/html"):
        return "html"
    if declared in ("xhtml", "application/xhtml+xml"):
        return "xhtml"
    if declared in ("text", "text/plain") or local(el)[0] == ATOM:
        return "text"
    return "html"


def _plain(el: Element) -> str:
    paragraphs = re.split(r"\n\s*\n", "".join(el.itertext()))
    return "\n\n".join(" ".join(p.split()) for p in paragraphs if p.strip())


def html_text(el: Element, label: str) -> str:
    """The element's content as Markdown (HTML through the web page path, text as it is),
    WordPress's "appeared first on" footer dropped."""
    from omnireader.formats.web.html_markdown import html_markdown

    kind = _kind(el)
    if kind == "text":
        return _plain(el)
    if kind == "xhtml":  # markup inside the element, in the XHTML namespace: drop it
        body = copy.deepcopy(el)
        for node in body.iter():
            node.tag = local(node)[1]
        markup = (body.text or "") + "".join(tostring(c, encoding="unicode") for c in body)
    else:
        markup = el.text or ""
    if not markup.strip():
        return ""
    text = html_markdown(markup, label).text
    return re.sub(r"\n{3,}", "\n\n", _APPEARED_FIRST.sub("", text)).strip()


def entry_title(entry: Element) -> str:
    title = child(entry, "title")
    if title is None:
        return ""
    if _kind(title) == "html" and local(title)[0] == ATOM:
        return " ".join(html.unescape(_TAGS.sub(" ", title.text or "")).split())
    return text_of(title)


def _date(entry: Element, *fields: tuple[str, tuple[str, ...] | None]) -> str | None:
    """The first of ``fields`` (name, namespaces) that holds a date, as ISO 8601."""
    for name, spaces in fields:
        for el in children(entry, name, spaces) if spaces else children(entry, name):
            if found := absolute_date(text_of(el)):
                return found
    return None


def _authors(entry: Element) -> list[str]:
    names = [text_of(el) for el in children(entry, "creator", _DC)]
    for el in children(entry, "author"):
        if local(el)[0] == ATOM:
            names.append(text_of(child(el, "name")) or text_of(child(el, "email")))
        else:  # RSS: "jo@example.com (Jo Doe)"
            name, address = parseaddr(text_of(el))
            names.append(name or address or text_of(el))
    return people(names)


def _categories(entry: Element) -> list[str]:
    found = [el.get("label") or el.get("term") or text_of(el) for el in children(entry, "category")]
    found += [text_of(el) for el in children(entry, "subject", _DC)]
    return list(dict.fromkeys(c.strip() for c in found if c and c.strip()))


def _link(entry: Element) -> str | None:
    for el in children(entry, "link"):
        if local(el)[0] == ATOM:
            if (el.get("rel") or "alternate") == "alternate" and el.get("href"):
                return el.get("href", "").strip()
        elif text_of(el):
            return text_of(el)
    guid = child(entry, "guid")
    if guid is not None and guid.get("isPermaLink", "true") != "false":
        value = text_of(guid)
        return value if value.startswith(("http://", "https://")) else None
    return None


def _words(text: str) -> str:
    return " ".join(_WORDS.findall(text.lower()))


def _is_excerpt(summary: str, body: str) -> bool:
    """Whether ``summary`` opens as the post does (or says nothing the post does not)."""
    said = _words(summary).split()
    if len(said) > 3:  # a cut excerpt's last word may be half a word
        said = said[:-1]
    return " ".join(said[:_EXCERPT_WORDS]) in _words(body)


def _body(entry: Element, label: str) -> str:
    full = next(
        (
            el
            for el in (*children(entry, "encoded", _CONTENT), *children(entry, "content"))
            if not el.get("src")  # Atom content elsewhere (src=): nothing here to read
        ),
        None,
    )
    summary_el = child(entry, "description", "summary")
    body = html_text(full, label) if full is not None else ""
    summary = html_text(summary_el, label) if summary_el is not None else ""
    if body and summary and not _is_excerpt(summary, body):
        return f"{summary}\n\n{body}"
    return body or summary


def read_entry(blob: Blob) -> Extraction:
    """One section: the post's title as a heading, then its text."""
    entry = parse_entry(blob.read_bytes())
    if entry is None:
        raise CorruptError(blob.label, "not a well-formed RSS item or Atom entry")
    title = entry_title(entry)
    body = _body(entry, blob.label)
    if not (title or body):
        raise EmptyInputError(blob.label, "the post has no title and no text")
    info = DocInfo(
        title=title or None,
        authors=_authors(entry),
        created=_date(entry, ("pubDate", None), ("published", None), ("date", _DC)),
        modified=_date(entry, ("updated", None)),
        extra={"extractor": "feed"},
    )
    if keywords := _categories(entry):
        info.extra["keywords"] = keywords
    if link := _link(entry):
        info.extra["link"] = link
    text = f"# {title}\n\n{body}" if title and body else body or f"# {title}"
    return Extraction(info=info, sections=iter([Section(text=text.strip())]))
