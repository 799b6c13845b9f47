"""Link targets placed where their text stands: ``[Contact us](mailto:press@example.org)``.

A page's links (from a PDF's link annotations) name the text they cover and where they go.
Each becomes a Markdown link where its text stands once, as links read from HTML do. A
link whose text cannot be placed surely — not found, found twice, only in a heading, or too
short to place ("here") — goes to a ``Links:`` block at the end of the page instead,

    Links:
    - here: https://example.org/ar2023.pdf

A target the page's text already shows (a printed URL that is also a link) is not
repeated, nor is a target listed twice.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

__all__ = ["PageLink", "links_block", "with_links"]

_PLACEABLE = 6  # an anchor shorter than this ("here", "PDF") is too common to place surely
_SCHEME = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?(?://)?")


class PageLink(NamedTuple):
    text: str  # the page text under the link, shortened
    target: str


def with_links(page_text: str, links: Iterable[PageLink]) -> str:
    """``page_text`` with each link's text made a Markdown link to its target where it
    stands once, outside headings and links; the links that could not be placed end the
    page as a ``Links:`` block."""
    text, left = page_text, []
    for link in _new_targets(links, page_text):
        placed = _place(text, link)
        if placed is None:
            left.append(link)
        else:
            text = placed
    block = _block(left)
    if not block:
        return text
    return f"{text}\n\n{block}" if text else block


def links_block(links: Iterable[PageLink], page_text: str) -> str:
    """``Links:`` and one ``- text: target`` line per link the page's text does not show
    already, or ``""`` when none is left."""
    return _block(_new_targets(links, page_text))


def _new_targets(links: Iterable[PageLink], page_text: str) -> list[PageLink]:
    """The links whose target the page does not print already, each target once."""
    shown = page_text.lower()
    out: list[PageLink] = []
    seen: set[str] = set()
    for link in links:
        # The address as a page prints it: "//www.x.org/a" or "x.org/a" shows http://x.org/a.
        bare = _SCHEME.sub("", link.target.lower()).removeprefix("www.").rstrip("/")
        if link.target in seen or bare in shown:
            continue
        seen.add(link.target)
        out.append(link)
    return out


def _place(text: str, link: PageLink) -> str | None:
    """``text`` with ``link``'s text linked where it stands, or None where it cannot be."""
    name = link.text
    if len(name) < _PLACEABLE or name.endswith("…") or "[" in name or "]" in name:
        return None
    # Its words as the page has them: line breaks and runs of spaces may differ.
    pattern = re.compile(r"\s+".join(re.escape(w) for w in name.split()))
    found = list(pattern.finditer(text))
    if len(found) != 1:
        return None
    m = found[0]
    if _in_heading(text, m.start()) or _in_link(text, m.start()):
        return None
    target = f"<{link.target}>" if re.search(r"[\s()<>]", link.target) else link.target
    return f"{text[: m.start()]}[{m.group(0)}]({target}){text[m.end() :]}"


def _in_heading(text: str, at: int) -> bool:
    return text[text.rfind("\n", 0, at) + 1 :].startswith("#")


def _in_link(text: str, at: int) -> bool:
    # Inside "[...](...)" written already: an unclosed "[" on the same line before it.
    line = text[text.rfind("\n", 0, at) + 1 : at]
    return line.count("[") > line.count("]")


def _block(links: Iterable[PageLink]) -> str:
    lines = []
    for link in links:
        name = link.text if link.text and link.text.lower() not in link.target.lower() else ""
        lines.append(f"- {name}: {link.target}" if name else f"- {link.target}")
    return "Links:\n" + "\n".join(lines) if lines else ""
