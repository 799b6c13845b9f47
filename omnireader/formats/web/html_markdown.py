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
4. markdownify writes Markdown as MarkItDown's subclass does (ATX headings starting on a
   new line, ``<strike>`` as ``<s>``), except that underline is plain text (a raw ``<u>``
   is markup in a memory, not text) and a table without ``<th>`` takes its first row as
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
from functools import lru_cache
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
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
# A bare URL, a domain with a path, an e-mail address: Markdown escapes inside one break it
# ("t.me/boris\\_rozhin"), and intraword "_" is no emphasis in Markdown anyway.
_URLISH = re.compile(
    r"(?:https?://|ftp://|mailto:|www\.)[^\s<>]+"
    r"|[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
    r"|\b(?:[\w-]+\.)+[a-z]{2,}/[^\s<>]*",
    re.I,
)
# An escaped "_" between two letters or digits ("top\\_p", "max\\_tokens"): intraword "_"
# opens no emphasis in CommonMark, so the backslash only keeps a search from the name.
_INTRAWORD_UNDERSCORE = re.compile(r"(?<=[^\W_])\\_(?=[^\W_])")
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


@lru_cache(maxsize=1)
def _converter_class() -> type:
    import markdownify

    class _Markdown(markdownify.MarkdownConverter):  # type: ignore[misc]
        """MarkItDown's markdownify options and heading rule; underline as plain text."""

        def __init__(self, **options: Any) -> None:
            options.setdefault("heading_style", markdownify.ATX)
            options.setdefault("keep_data_uris", False)
            # A table without <th> takes its first row as the header, rather than an
            # empty "|  |  |" row above it (which MarkItDown's defaults write).
            options.setdefault("table_infer_header", True)
            # A line break in the markup is a space on the page (outside <pre>): kept, it
            # cuts sentences in two, and a line that then starts with "|" reads as a row.
            # No width: paragraphs are not re-wrapped, only their whitespace collapsed.
            options.setdefault("wrap", True)
            options.setdefault("wrap_width", None)
            super().__init__(**options)

        def convert_hn(self, n: int, el: Any, text: str, *args: Any, **kwargs: Any) -> str:
            out = super().convert_hn(n, el, text, *args, **kwargs)
            # A heading always starts a line, even right after inline text.
            return out if out.startswith("\n") else "\n" + out

        def convert_u(self, el: Any, text: str, *args: Any, **kwargs: Any) -> str:
            return text

        def convert_b(self, el: Any, text: str, parent_tags: Any = None, **kw: Any) -> str:
            # Bold in a heading says nothing more: "### **Plan**" would keep the stars in
            # the heading path every chunk of its section carries.
            if parent_tags and _HEADINGS & set(parent_tags):
                return text
            return super().convert_b(el, text, parent_tags, **kw)

        convert_strong = convert_b

        def escape(self, text: str, parent_tags: Any) -> str:
            out, last = [], 0
            for url in _URLISH.finditer(text or ""):
                out.append(super().escape(text[last : url.start()], parent_tags))
                out.append(url.group(0))
                last = url.end()
            out.append(super().escape((text or "")[last:], parent_tags))
            return _INTRAWORD_UNDERSCORE.sub("_", "".join(out))

        def convert_strike(self, el: Any, text: str, *args: Any, **kwargs: Any) -> str:
            return self.convert_s(el, text, *args, **kwargs)

    return _Markdown


def html_markdown(data: bytes | str, label: str = "<html>") -> Converted:
    """The page's main content as Markdown, and its title (see the module)."""
    from bs4 import BeautifulSoup, XMLParsedAsHTMLWarning

    from omnireader.formats.web.converted import Converted
    from omnireader.formats.web.html import main_content
    from omnireader.formats.web.html_browser_marks import drop_browser_marks
    from omnireader.formats.web.html_key_values import key_value_lines
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
        text = _converter_class()().convert_soup(root)
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
    for inner in root.find_all(_LISTS):
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
