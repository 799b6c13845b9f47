"""Markdown as text: raw HTML snippets dropped, code kept exactly as written.

README files open with HTML blocks (a centred logo in ``<picture>``, badge links); kept,
they put ``srcset=`` and ``<p align="center">`` into memories. Tags are removed outside
fenced code blocks and inline code spans, an image keeps its alt text, HTML comments go,
and entities (``&amp;``) read as the characters they stand for:

    >>> markdown_text('<p align="center"><img alt="Logo" src="l.png"></p>\\n# Use\\n'
    ...               '```html\\n<b>kept</b>\\n```')
    '[image: Logo]\\n# Use\\n```html\\n<b>kept</b>\\n```'
"""

from __future__ import annotations

import html
import re

from omnireader.formats.alt_text import picture
from omnireader.formats.document import Extraction
from omnireader.formats.registry import Format, Magic, by_extension
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["markdown_text"]

_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})[^\n]*\n.*?(?:^\1?\2[`~]*[ \t]*$|\Z)", re.M | re.S)
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_IMG = re.compile(r"<img\b[^<>]*>", re.I)
_ALT = re.compile(r"""\balt\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.I)
_BREAK = re.compile(r"<br\s*/?>", re.I)
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
_BLANK_LINES = re.compile(r"\n[ \t]*\n(?:[ \t]*\n)+")


def _alt(tag: re.Match[str]) -> str:
    found = _ALT.search(tag.group(0))
    return picture(next((g for g in found.groups() if g), "") if found else "")


def _prose(text: str) -> str:
    """Strip HTML from text that holds no fenced code (inline code spans are kept)."""
    out, last = [], 0
    for span in _CODE_SPAN.finditer(text):
        out.append(_strip(text[last : span.start()]))
        out.append(span.group(0))
        last = span.end()
    out.append(_strip(text[last:]))
    return "".join(out)


def _strip(text: str) -> str:
    if "<" not in text and "&" not in text:
        return text
    text = _COMMENT.sub("", text)
    text = _IMG.sub(_alt, text)
    text = _BREAK.sub("\n", text)
    text = _TAG.sub("", text)
    return html.unescape(text)


def markdown_text(text: str) -> str:
    """``text`` with raw HTML removed outside code; blank-line runs left by it squeezed."""
    out, last = [], 0
    for fence in _FENCE.finditer(text):
        out.append(_prose(text[last : fence.start()]))
        out.append(fence.group(0))
        last = fence.end()
    out.append(_prose(text[last:]))
    lines = "\n".join(
        line.rstrip() if not line.strip() else line for line in "".join(out).split("\n")
    )
    return _BLANK_LINES.sub("\n\n", lines).strip()


_H1 = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.M)


def _read_markdown(blob: Blob, options: ReadOptions) -> Extraction:
    from omnireader.formats.plain.front_matter import front_matter
    from omnireader.formats.plain.text import decode_text
    from omnireader.formats.plain.text_file import one_section

    info, text = front_matter(decode_text(blob.read_bytes(), blob.label).lstrip("\ufeff"))
    text = markdown_text(text)
    if info.title is None and (title := _H1.search(text)):
        info.title = title.group(1)
    return one_section(text, info)


FORMATS = (
    Format(
        name="markdown",
        display="Markdown",
        extensions=(".md", ".markdown", ".mdown", ".mkd"),
        mimes=("text/markdown",),
        listed=False,
        readme_group="text, Markdown, JSON, XML",
        # the name breaks the tie: Markdown with HTML in it stays Markdown
        magic=(Magic(50, by_extension(".md", ".markdown", ".mdown", ".mkd"), "text"),),
        extract=_read_markdown,
    ),
)
