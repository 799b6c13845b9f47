"""A web page's own date and authors, from the metadata pages publish for search engines
and feed readers.

Without it a saved page is dated by the file's modification time, the day it was
downloaded. Pages say when they were published and by whom in a few standard places,
tried in this order (the first that holds a date wins; authors are gathered from all):

1. ``<meta>`` tags: OpenGraph ``article:published_time`` / ``article:modified_time`` /
   ``article:author``, Dublin Core ``DC.date.issued`` / ``dc.date`` / ``dcterms.*``, plain
   ``date`` and ``author`` (:data:`PUBLISHED_META`, :data:`MODIFIED_META`,
   :data:`AUTHOR_META`; names compared without regard to case);
2. JSON-LD (``<script type="application/ld+json">``): ``datePublished``, ``dateModified``,
   ``author`` (a person's name; an organisation is not a person);
3. microdata and the article's header: ``itemprop="datePublished"`` / ``"dateModified"``,
   a ``<time datetime>`` in the ``<header>`` of the ``<article>`` (or ``<main>``), and the
   name of an ``itemprop="author"``.

Dates are absolute, as the other formats give them: with their zone, or the day alone
when the page gives a time without a zone (which moment it means is unknown). An author
that is a URL (``article:author`` is often a profile link) is no name and is skipped.
"""

from __future__ import annotations

import json
import re
from datetime import date, datetime
from email.utils import parsedate_to_datetime
from typing import Any

from pydantic import BaseModel, Field

from omnireader.formats.document import DocInfo

__all__ = [
    "PageMeta",
    "page_meta",
    "dated_info",
    "absolute_date",
    "PUBLISHED_META",
    "MODIFIED_META",
    "AUTHOR_META",
]

#: <meta> tags (attribute, value) that give the publication date, most specific first.
PUBLISHED_META: tuple[tuple[str, str], ...] = (
    ("property", "article:published_time"),
    ("name", "article:published_time"),
    ("name", "dc.date.issued"),
    ("name", "dcterms.issued"),
    ("name", "dc.date.created"),
    ("name", "dcterms.created"),
    ("name", "dc.date"),
    ("name", "dcterms.date"),
    ("name", "date"),
    ("name", "pubdate"),
)
#: <meta> tags that give the date of the page's last revision.
MODIFIED_META: tuple[tuple[str, str], ...] = (
    ("property", "article:modified_time"),
    ("property", "og:updated_time"),
    ("name", "dc.date.modified"),
    ("name", "dcterms.modified"),
    ("name", "last-modified"),
)
#: <meta> tags that name an author.
AUTHOR_META: tuple[tuple[str, str], ...] = (
    ("name", "author"),
    ("property", "article:author"),
    ("name", "dc.creator"),
    ("name", "dcterms.creator"),
)
# JSON-LD types that are not a person (a publisher, a site) and so name no author.
_NOT_PERSONS = {"organization", "corporation", "newsmediaorganization", "website"}
_MAX_AUTHORS = 10
_MAX_NAME = 100
_URLISH = re.compile(r"^(?:https?:|www\.|/)", re.I)
_LD_JSON = re.compile(r"ld\+json", re.I)
_ITEMPROPS = ("datePublished", "dateModified", "author")


class PageMeta(BaseModel):
    """What a page says of itself: dates (ISO 8601, absolute) with where each was found."""

    published: str | None = None
    published_from: str | None = None
    modified: str | None = None
    modified_from: str | None = None
    authors: list[str] = Field(default_factory=list)


def absolute_date(value: str) -> str | None:
    """``value`` as an ISO 8601 date-time with its zone, or a date alone when it has no
    zone (or no time); None when it is no date.

    >>> absolute_date("2023-04-21T00:00:00.000Z"), absolute_date("2008-02-15T10:00")
    ('2023-04-21T00:00:00+00:00', '2008-02-15')
    """
    text = value.strip()
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        try:
            moment = parsedate_to_datetime(text)  # "Fri, 15 Feb 2008 15:01:15 -0800"
        except (TypeError, ValueError, IndexError):
            return _leading_day(text)
    if moment.year < 1971:  # an unset field's placeholder, not a page's date
        return None
    if moment.tzinfo is None:
        return moment.date().isoformat()
    return moment.isoformat()


def _leading_day(text: str) -> str | None:
    found = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", text[:10]) if len(text) >= 10 else None
    if found is None:
        return None
    try:
        return date(*map(int, found.groups())).isoformat()
    except ValueError:
        return None


class _Found:
    """What the page's metadata is read from, gathered in one walk of the tree (the
    walks of one ``find_all`` each cost more than reading the rest; see html_walk)."""

    def __init__(self, soup: Any) -> None:
        from omnireader.formats.web.html_walk import tags

        self.metas: list[Any] = []
        self.scripts: list[Any] = []  # JSON-LD's
        self.landmarks: list[Any] = []  # <article> and <main>
        self.itemprops: dict[str, list[Any]] = {p: [] for p in _ITEMPROPS}
        for el in tags(soup):
            name, attrs = el.name, el.attrs
            if name == "meta":
                self.metas.append(el)
            elif name == "script" and _is_json_ld(attrs.get("type")):
                self.scripts.append(el)
            elif name in ("article", "main"):
                self.landmarks.append(el)
            prop = attrs.get("itemprop")
            if isinstance(prop, str) and prop in self.itemprops:
                self.itemprops[prop].append(el)


def _is_json_ld(kind: Any) -> bool:
    # As find_all(attrs={"type": pattern}) tests it: a search of the value.
    return isinstance(kind, str) and _LD_JSON.search(kind) is not None


def _meta_values(found: _Found, tags: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    """(where, content) of each <meta> named by ``tags``, in the order of ``tags``."""
    metas = found.metas
    values = []
    for attr, name in tags:
        for meta in metas:
            if str(meta.get(attr) or "").strip().lower() == name.lower():
                content = str(meta.get("content") or "").strip()
                if content:
                    values.append((f"meta {name}", content))
    return values


def _json_ld(found: _Found) -> list[dict[str, Any]]:
    """Every object of the page's JSON-LD blocks (``@graph`` and lists flattened)."""
    objects: list[dict[str, Any]] = []
    for script in found.scripts:
        try:
            data = json.loads(script.string or script.get_text() or "", strict=False)
        except ValueError:
            continue  # a page's broken JSON-LD says nothing
        pending = [data]
        while pending:
            node = pending.pop(0)
            if isinstance(node, list):
                pending.extend(node)
            elif isinstance(node, dict):
                objects.append(node)
                pending.extend(node["@graph"] if isinstance(node.get("@graph"), list) else [])
    return objects


def _persons(value: Any) -> list[str]:
    """Names in a JSON-LD ``author``: a string, a Person, or a list of them."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [name for v in value for name in _persons(v)]
    if isinstance(value, dict):
        kind = value.get("@type")
        kinds = {str(k).lower() for k in (kind if isinstance(kind, list) else [kind])}
        if kinds & _NOT_PERSONS:
            return []
        name = value.get("name")
        return [name] if isinstance(name, str) else []
    return []


def _header_times(found: _Found) -> list[tuple[str, str]]:
    """Microdata dates, then a ``<time datetime>`` in the article's header."""
    times = []
    for prop in ("datePublished", "dateModified"):
        for el in found.itemprops[prop]:
            value = el.get("datetime") or el.get("content") or ""
            if value:
                times.append((f"itemprop {prop}", str(value)))
    for landmark in found.landmarks[:2]:
        header = landmark.find("header")
        time = header.find("time", attrs={"datetime": True}) if header is not None else None
        if time is not None:
            times.append(("time datetime", str(time["datetime"])))
            break
    return times


def _microdata_authors(found: _Found) -> list[str]:
    names = []
    for el in found.itemprops["author"]:
        named = el.find(attrs={"itemprop": "name"})
        source = named if named is not None else el
        names.append(str(source.get("content") or source.get_text(" ")))
    return names


def _first_date(candidates: list[tuple[str, str]]) -> tuple[str | None, str | None]:
    for where, value in candidates:
        when = absolute_date(value)
        if when:
            return when, where
    return None, None


def page_meta(soup: Any) -> PageMeta:
    """The page's own dates and authors (see the module); empty when it says nothing."""
    found = _Found(soup)
    ld = _json_ld(found)
    times = _header_times(found)
    published, published_from = _first_date(
        _meta_values(found, PUBLISHED_META)
        + [("json-ld datePublished", str(o["datePublished"])) for o in ld if "datePublished" in o]
        + [t for t in times if t[0] != "itemprop dateModified"]
    )
    modified, modified_from = _first_date(
        _meta_values(found, MODIFIED_META)
        + [("json-ld dateModified", str(o["dateModified"])) for o in ld if "dateModified" in o]
        + [t for t in times if t[0] == "itemprop dateModified"]
    )
    names = [v for _, v in _meta_values(found, AUTHOR_META)]
    names += [n for o in ld for n in _persons(o.get("author"))] + _microdata_authors(found)
    authors: list[str] = []
    for name in (" ".join(n.split()) for n in names):
        if name and len(name) <= _MAX_NAME and not _URLISH.match(name) and name not in authors:
            authors.append(name)
    return PageMeta(
        published=published,
        published_from=published_from,
        modified=modified,
        modified_from=modified_from,
        authors=authors[:_MAX_AUTHORS],
    )


def dated_info(info: DocInfo, page: PageMeta | None) -> DocInfo:
    """``info`` with the page's dates and authors, as an office document's are given:
    ``created`` the publication date, ``modified`` the revision's, the revision dating the
    page when it came over a year later (office's template rule: the text is the later
    one's); ``extra["time_source"]`` says which of the page's fields the date came from."""
    if page is None:
        return info
    from omnireader.formats.office.properties import template_dated

    info.created, info.modified = page.published, page.modified
    info.authors = info.authors or list(page.authors)
    template_dated(info)
    by_modified = info.modified and (info.dated_by_modified or not info.created)
    source = page.modified_from if by_modified else page.published_from
    if source:
        info.extra["time_source"] = source
    return info
