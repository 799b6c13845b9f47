"""The parts of an RTF document around its body: page headers and footers, footnotes and
comments, cut out of the RTF source so each can be read on its own.

striprtf skips every "destination" group it does not print. That is right for font tables,
style sheets and pictures, but it also loses ``{\\header ...}``, ``{\\footer ...}``,
``{\\footnote ...}`` and ``{\\*\\annotation ...}``: text the author wrote. This module finds
those groups (all their variants: ``\\headerl`` / ``\\headerr`` / ``\\headerf``, the same
for footers, with or without ``\\*``) by matching braces, and hands back the body without
them plus each part's source, which :mod:`.rtf` converts like the body.

    split = split_parts(source)
    split.body                # the source without the parts; footnote n is now "[^n]"
    split.prelude             # code page and font table, to read a part's source with
    [(p.kind, p.source, p.author) for p in split.parts]

A part inside a group that is never printed (a font table, a picture, a field instruction,
any ``{\\* ...}`` group) stays where it is and stays unprinted: only what Word would show
on the page is taken. A part nested in another part is read as part of the outer one.
The scan is one pass over the braces, so it takes linear time on any input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["RtfPart", "RtfSplit", "split_parts"]

# Control word -> the part it opens. Left / right / first-page variants are the same part.
_PART_WORDS = {
    "header": "header",
    "headerl": "header",
    "headerr": "header",
    "headerf": "header",
    "footer": "footer",
    "footerl": "footer",
    "footerr": "footer",
    "footerf": "footer",
    "footnote": "footnote",
    "annotation": "comment",
}
# The first control word of a group (after an optional "\*"), which names a destination.
_OPENER = re.compile(r"\{\s*(\\\*\s*)?\\([a-zA-Z]{1,32})(-?\d{1,10})? ?")
# Braces that open and close groups; "\\", "\{" and "\}" are escaped text, not braces.
_TOKEN = re.compile(r"\\[\\{}]|[{}]")
_CODEPAGE = re.compile(r"\\ansicpg\d{3,5}")
_DEFAULT_FONT = re.compile(r"\\deff\d+")


@dataclass
class RtfPart:
    """One header, footer, footnote or comment: ``source`` is the RTF inside its group."""

    kind: str  # header | footer | footnote | comment
    source: str
    author: str | None = None  # a comment's author, as RTF source ({\*\atnauthor ...})


@dataclass
class RtfSplit:
    body: str
    prelude: str
    parts: list[RtfPart] = field(default_factory=list)


@dataclass
class _Group:
    start: int  # offset of "{"
    inner: int  # offset just after the opening control word
    word: str | None  # first control word, if the group opens with one
    kind: str | None  # the part it is, when it is one that is taken out
    shut: bool  # never printed, or already taken: parts inside it are left alone


def _destinations() -> frozenset[str]:
    # striprtf's own list: a group it would skip is one whose parts are never on the page.
    from striprtf.striprtf import destinations

    return frozenset(destinations) - set(_PART_WORDS)


def split_parts(source: str) -> RtfSplit:
    """The body of ``source`` (decoded RTF) without its headers, footers, footnotes and
    comments, and those parts in document order."""
    hidden = _destinations()
    stack: list[_Group] = []
    parts: list[RtfPart] = []
    cuts: list[tuple[int, int, str]] = []  # (start, end, what replaces the group)
    fonttbl = ""
    author: str | None = None
    footnotes = 0
    for token in _TOKEN.finditer(source):
        brace = token.group()
        if brace == "{":
            parent_shut = bool(stack) and stack[-1].shut
            opener = _OPENER.match(source, token.start())
            word = opener.group(2) if opener else None
            kind = None if parent_shut else _PART_WORDS.get(word or "")
            hides = opener is not None and (bool(opener.group(1)) or word in hidden)
            inner = opener.end() if opener else token.end()
            shut = parent_shut or hides or kind is not None
            stack.append(_Group(token.start(), inner, word, kind, shut))
            continue
        if brace != "}" or not stack:
            continue  # escaped text, or a stray closing brace (striprtf ignores it too)
        group = stack.pop()
        parent_shut = bool(stack) and stack[-1].shut
        if parent_shut:
            continue
        if group.word == "fonttbl" and not fonttbl:
            fonttbl = source[group.start : token.end()]
        elif group.word == "atnauthor":
            # Word writes {\*\atnauthor Name} just before the comment it belongs to.
            author = source[group.inner : token.start()]
        elif group.kind:
            parts.append(
                RtfPart(
                    group.kind,
                    source[group.inner : token.start()],
                    author if group.kind == "comment" else None,
                )
            )
            if group.kind == "comment":
                author = None
            # A group, never nothing, fills the hole: "\\chatn{...}text" must not become
            # the control word "\\chatntext". A footnote leaves its marker there.
            hole = "{}"
            if group.kind == "footnote":
                footnotes += 1
                hole = f"{{[^{footnotes}]}}"
            cuts.append((group.start, token.end(), hole))
    pieces, at = [], 0
    for start, end, replacement in cuts:  # in document order, never overlapping
        pieces += [source[at:start], replacement]
        at = end
    pieces.append(source[at:])
    return RtfSplit("".join(pieces), _prelude(source, fonttbl), parts)


def _prelude(source: str, fonttbl: str) -> str:
    """What reading a part on its own needs from the document's header: the code page
    (for ``\\'xx`` escapes), the default font and the font table (fonts' charsets)."""
    head = source[:4096]
    codepage = _CODEPAGE.search(head)
    default_font = _DEFAULT_FONT.search(head)
    return (
        "{\\rtf1\\ansi"
        + (codepage.group() if codepage else "")
        + (default_font.group() if default_font else "")
        + fonttbl
    )
