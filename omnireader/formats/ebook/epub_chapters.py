"""An EPUB's chapters, in reading order, as Markdown: the OPF package's spine names the
XHTML documents in order, and each is read by the HTML path
(:func:`omnireader.formats.web.html_markdown.html_markdown`), as a web page is: hidden
content dropped, layout tables as blocks, elements a book leaves open closed.

    package_path, opf = opf_document(zip_file)
    chapters_markdown(zip_file)      # "# Chapter 1 ...\\n\\n# Chapter 2 ..."

Read without MarkItDown, whose import costs a fresh process well over a second, and whose
EPUB converter prints the OPF metadata as text. The navigation document (the EPUB 3 table
of contents, ``properties="nav"``) is left out: it repeats the chapters' headings as
links. A book whose package is missing or has no spine is read from its XHTML files in
name order.
"""

from __future__ import annotations

import posixpath
import zipfile
from typing import Any
from urllib.parse import unquote

__all__ = ["opf_document", "chapters_markdown", "MAX_OPF", "MAX_CHAPTERS"]

MAX_OPF = 4 << 20  # a package document is kilobytes; past this it is not worth inflating
#: Spine entries read from one book; a generated file with more keeps its first ones.
MAX_CHAPTERS = 5000
_OPF = "{http://www.idpf.org/2007/opf}"
_CONTAINER = "{urn:oasis:names:tc:opendocument:xmlns:container}"
_XHTML = ("application/xhtml+xml", "text/html", "application/xml", "text/xml")


def xml(data: bytes) -> Any | None:
    """Parsed XML, or None; untrusted: no entity expansion, no network."""
    from lxml import etree

    try:
        return etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError:
        return None


def opf_document(package: zipfile.ZipFile) -> tuple[str, bytes]:
    """The package document's path and bytes (``("", b"")`` when the book has none)."""
    names = set(package.namelist())
    path = ""
    if "META-INF/container.xml" in names:
        root = xml(package.read("META-INF/container.xml"))
        rootfile = root.find(f".//{_CONTAINER}rootfile") if root is not None else None
        path = (rootfile.get("full-path") or "") if rootfile is not None else ""
    if path not in names:  # no container (a damaged book): the first package document
        path = next((n for n in sorted(names) if n.lower().endswith(".opf")), "")
    if not path or package.getinfo(path).file_size > MAX_OPF:
        return "", b""
    return path, package.read(path)


def _spine(package: zipfile.ZipFile) -> list[str]:
    """The member names of the spine's documents, in reading order."""
    path, opf = opf_document(package)
    root = xml(opf) if opf else None
    if root is None:
        return []
    base = posixpath.dirname(path)
    items: dict[str, tuple[str, str, str]] = {}
    for item in root.iter(f"{_OPF}item"):
        href = unquote((item.get("href") or "").split("#", 1)[0])
        items[item.get("id") or ""] = (
            posixpath.normpath(posixpath.join(base, href)) if href else "",
            (item.get("media-type") or "").lower(),
            item.get("properties") or "",
        )
    names = []
    for ref in root.iter(f"{_OPF}itemref"):
        name, media, properties = items.get(ref.get("idref") or "", ("", "", ""))
        if name and media in _XHTML and "nav" not in properties.split():
            names.append(name)
    return list(dict.fromkeys(names))


def chapters_markdown(package: zipfile.ZipFile, label: str) -> str:
    """The book's chapters as one Markdown text (empty when none can be read)."""
    from omnireader.formats.web.html_markdown import html_markdown

    names = set(package.namelist())
    order = [n for n in _spine(package) if n in names]
    if not order:
        order = sorted(n for n in names if n.lower().endswith((".xhtml", ".html", ".htm")))
    texts = []
    for name in order[:MAX_CHAPTERS]:
        text = html_markdown(package.read(name), f"{label}!{name}").text
        if text.strip():
            texts.append(text.strip())
    return "\n\n".join(texts)
