"""HTML to Markdown with BeautifulSoup and markdownify alone, without MarkItDown.

MarkItDown's HTML converter is BeautifulSoup plus a markdownify subclass; importing
MarkItDown to get it costs well over a second in a fresh process (magika, onnxruntime,
every converter's dependencies) for a 93-byte page. This module does what that converter
does, with our own steps around it:

1. the bytes are decoded once, by the charset the page declares weighed against its bytes
   (:func:`omnireader.formats.plain.charset.decode_declared`), so a Windows-1252 page is
   not read as Windows-1250 and UTF-8 under a Latin-1 label is not mojibake;
2. the page is cut to its main content, chrome and hidden content removed
   (:func:`omnireader.formats.web.html.main_content`);
3. tables of labelled values (infoboxes) become "Label: value" lines
   (:mod:`omnireader.formats.web.html_key_values`), layout tables blocks of text
   (:mod:`omnireader.formats.web.html_tables`);
4. markdownify (:mod:`omnireader.formats.web.html_markdownify`) writes Markdown as
   MarkItDown's subclass does (ATX headings starting on a new line, ``<strike>`` as
   ``<s>``), except that underline is plain text (a raw ``<u>`` is markup in a memory,
   not text) and a table without ``<th>`` takes its first row as
   its header instead of an empty one; a list written straight inside another list (no
   ``<li>`` around it, as mail editors write it) is nested under the item before it, as a
   browser indents it; and a bare URL or address keeps its characters (no ``\\_``);
5. what the page writes for the browser alone goes: permalink marks ("¶" after a
   heading), word-break hints (:mod:`omnireader.formats.web.html_browser_marks`) and
   invisible format characters (zero-width space, word joiner, BOM).

>>> html_markdown(b"<title>T</title><h1>Hi</h1><p>there</p>").text
'# Hi\\n\\nthere'
"""

from __future__ import annotations

import re
import warnings
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from omnireader.formats.web.converted import Converted

__all__ = ["html_markdown", "declared_charset", "declared_language", "html_to_text"]

_META_CHARSET = re.compile(rb"""<meta[^>]{0,200}?charset\s*=\s*["']?\s*([\w.:-]{1,40})""", re.I)
_XML_ENCODING = re.compile(rb"""^\s*<\?xml[^>]{0,200}?encoding\s*=\s*["']([\w.:-]{1,40})""")
_BLANKS = re.compile(r"\n{3,}")
# libxml2's HTML parser (through lxml) closes what HTML lets a page leave open, as a
# browser does: "<li>a<li>b", "<td>a<td>b<tr>", "<p>a<p>b". Python's html.parser nests
# each in the one before, so a list becomes one item and a table one cell of every word.
_PARSER = "lxml"
_LISTS = ("ul", "ol")
#: Invisible format characters a page writes for the browser, not the reader: the zero-width
#: space of an anchor link or a break hint (``&ZeroWidthSpace;``), the word joiner, and the
#: byte-order mark used as one. Kept, they stay in headings (and heading paths) and split
#: words a search looks for. ZWJ / ZWNJ (U+200D, U+200C) shape emoji and Indic / Persian
#: words, and stay.
INVISIBLE_FORMAT_CHARS: tuple[str, ...] = ("\u200b", "\u2060", "\ufeff")
_INVISIBLE = str.maketrans(dict.fromkeys(INVISIBLE_FORMAT_CHARS))


def declared_charset(data: bytes) -> str | None:
    """The charset a page declares in its first 4 KiB (``<meta charset>``, ``<meta
    http-equiv>`` or the XML declaration), or None."""
    head = data[:4096]
    found = _META_CHARSET.search(head) or _XML_ENCODING.search(head)
    return found.group(1).decode("ascii", "replace") if found else None


def html_to_text(data: bytes | str, label: str = "<html>") -> str:
    """The page's markup as text, decoded by :func:`declared_charset` against the bytes."""
    if isinstance(data, str):
        return data
    from omnireader.formats.plain.text import decode_declared

    return decode_declared(data, declared_charset(data), label)


def html_markdown(data: bytes | str, label: str = "<html>") -> Converted:
    """The page's main content as Markdown, and its title (see the module)."""
    from bs4 import BeautifulSoup, XMLParsedAsHTMLWarning

    from omnireader.formats.web.converted import Converted
    from omnireader.formats.web.html import main_content
    from omnireader.formats.web.html_browser_marks import drop_browser_marks
    from omnireader.formats.web.html_key_values import key_value_lines
    from omnireader.formats.web.html_markdownify import converter_class
    from omnireader.formats.web.html_meta import page_meta
    from omnireader.formats.web.html_tables import unwrap_layout_tables

    with warnings.catch_warnings():
        # XHTML (an EPUB's chapters, some saved pages) is read as HTML on purpose: the
        # same tree, and forgiving of the malformed markup strict XML would refuse.
        warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)
        soup = BeautifulSoup(html_to_text(data, label), _PARSER)
    lang = declared_language(soup)
    drop_browser_marks(soup)  # before the title is read from a heading
    page = page_meta(soup)  # before main_content: the <head> and the article header
    title, root = main_content(soup)
    key_value_lines(root, soup)  # before layout tables: an infobox holds lists
    unwrap_layout_tables(root)
    _nest_stray_lists(root, soup)
    try:
        text = converter_class()().convert_soup(root)
    except RecursionError:
        # markdownify walks the tree recursively; a page nested thousands deep still has
        # its text, read iteratively (what MarkItDown does too).
        warnings.warn(
            f"{label}: HTML nested too deeply for Markdown; read as plain text", stacklevel=2
        )
        text = root.get_text("\n", strip=True)
    text = "\n".join(line.rstrip() for line in text.translate(_INVISIBLE).split("\n"))
    text = _BLANKS.sub("\n\n", text).strip()
    title = " ".join(title.translate(_INVISIBLE).split())
    return Converted(text=text, title=title or None, lang=lang, page=page)


def _nest_stray_lists(root: Any, soup: Any) -> None:
    """A ``<ul>`` / ``<ol>`` written straight inside another list is moved into the item
    before it (a new item when none comes before), so it stays a nested list."""
    from omnireader.formats.web.html_walk import tags

    for inner in tags(root, _LISTS):
        if inner.parent is None or inner.parent.name not in _LISTS:
            continue
        item = inner.find_previous_sibling("li")
        if item is None:
            inner.wrap(soup.new_tag("li"))
        else:
            item.append(inner.extract())


def declared_language(soup: Any) -> str | None:
    """The language the page declares: ``<html lang>`` (or ``xml:lang``), else ``<body
    lang>``, else ``<meta http-equiv="content-language">``; a tag such as ``fr-CA``."""
    for el in (soup.find("html"), soup.find("body")):
        if el is not None:
            for attr in ("lang", "xml:lang"):
                value = str(el.get(attr) or "").strip()
                if value:
                    return value
    meta = soup.find("meta", attrs={"http-equiv": re.compile("^content-language$", re.I)})
    value = str(meta.get("content") or "").split(",")[0].strip() if meta is not None else ""
    return value or None
