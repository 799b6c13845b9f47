"""Our markdownify converter: MarkItDown's options and rules, with our own changes.

MarkItDown's HTML converter is a markdownify subclass; this one writes what it writes
(ATX headings starting on a new line, ``<strike>`` as ``<s>``) except that underline is
plain text (a raw ``<u>`` is markup in a memory, not text), bold in a heading is the
heading's text, a table without ``<th>`` takes its first row as its header, a line break
in the markup is a space, and a bare URL or address keeps its characters (no ``\\_``).

Its tree walk is markdownify's own, but asks whether a tag is inside ``<pre>`` from the
names of the tags it has walked through (and, once, above the root), not with a
``find_parent`` per tag: that search was a third of the conversion of a big page.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

__all__ = ["converter_class"]

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


@lru_cache(maxsize=1)
def converter_class() -> type:
    """The converter class (built on first use: markdownify is imported lazily)."""
    import markdownify
    from bs4 import Comment, Doctype, NavigableString, Tag
    from markdownify import (
        re_all_whitespace,
        re_extract_newlines,
        re_html_heading,
        re_newline_whitespace,
        re_whitespace,
        should_remove_whitespace_inside,
    )

    # markdownify's should_remove_whitespace_inside / _outside, remembered by tag name
    # (their answer depends on nothing else; a string or None is never a block).
    blocks: dict[str, bool] = {}

    def inside(el: Any) -> bool:
        name = getattr(el, "name", None)
        if not name:
            return False
        found = blocks.get(name)
        if found is None:
            found = blocks[name] = bool(should_remove_whitespace_inside(el))
        return found

    def outside(el: Any) -> bool:
        return inside(el) or getattr(el, "name", None) == "pre"

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
            self._root_in_pre = False

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

        def convert_soup(self, soup: Any) -> str:
            # Whether the root is inside <pre>: the only ancestors parent_tags lacks.
            self._root_in_pre = soup.find_parent("pre") is not None
            return super().convert_soup(soup)

        def process_tag(self, node: Any, parent_tags: Any = None) -> str:
            # markdownify's process_tag (1.2.3), whose "node.find_parent('pre')" (a filter
            # built and the ancestors walked, per tag) is asked of parent_tags instead:
            # it holds the name of every ancestor from the root down.
            if parent_tags is None:
                parent_tags = set()
            block = inside(node)

            def _can_ignore(el: Any) -> bool:
                if isinstance(el, Tag):
                    return False
                if isinstance(el, (Comment, Doctype)):
                    return True
                if isinstance(el, NavigableString):
                    if str(el).strip() != "":
                        return False
                    if block and (not el.previous_sibling or not el.next_sibling):
                        return True
                    return outside(el.previous_sibling) or outside(el.next_sibling)
                if el is None:
                    return True
                raise ValueError(f"Unexpected element type: {type(el)}")

            children = [el for el in node.children if not _can_ignore(el)]
            for_children = set(parent_tags)
            for_children.add(node.name)
            if re_html_heading.match(node.name) is not None or node.name in {"td", "th"}:
                for_children.add("_inline")
            if node.name in {"pre", "code", "kbd", "samp"}:
                for_children.add("_noformat")
            strings = [self.process_element(el, parent_tags=for_children) for el in children]
            strings = [s for s in strings if s]
            in_pre = node.name == "pre" or "pre" in parent_tags or self._root_in_pre
            if not in_pre:  # collapse newlines at the children's boundaries
                collapsed = [""]  # so the first lookback works
                for string in strings:
                    leading, content, trailing = re_extract_newlines.match(string).groups()
                    if collapsed[-1] and leading:
                        before = collapsed.pop()  # replaced by the collapsed value
                        leading = "\n" * min(2, max(len(before), len(leading)))
                    collapsed.extend([leading, content, trailing])
                strings = collapsed
            text = "".join(strings)
            convert_fn = self.get_conv_fn_cached(node.name)
            if convert_fn is not None:
                text = convert_fn(node, text, parent_tags=parent_tags)
            return text

        def process_text(self, el: Any, parent_tags: Any = None) -> str:
            # markdownify's process_text (1.2.3), its block tests remembered by name.
            if parent_tags is None:
                parent_tags = set()
            text = str(el) or ""
            if "pre" not in parent_tags:
                if self.options["wrap"]:
                    text = re_all_whitespace.sub(" ", text)
                else:
                    text = re_newline_whitespace.sub("\n", text)
                    text = re_whitespace.sub(" ", text)
            if "_noformat" not in parent_tags:
                text = self.escape(text, parent_tags)
            parent_block = inside(el.parent)
            if outside(el.previous_sibling) or (parent_block and not el.previous_sibling):
                text = text.lstrip(" \t\r\n")
            if outside(el.next_sibling) or (parent_block and not el.next_sibling):
                text = text.rstrip()
            return text

    return _Markdown
