"""The inline text of a DOCX: runs, tabs, breaks, links, footnote marks, equations, and the
styles and numbering that say which paragraphs are headings and list items.

    ctx = Context(docx.Document(path))
    text = inline(paragraph_element, ctx, boxes=[])   # text boxes are collected in boxes
"""

from __future__ import annotations

import re
from typing import Any

from omnireader.formats.alt_text import picture
from omnireader.formats.office.docx_numbering import Numbering

__all__ = ["MC", "W", "Context", "inline", "to_int"]

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
M = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
WP = "{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}"

# Elements that never carry body text (properties, deleted text, field codes), and
# mc:Fallback, which repeats its mc:Choice sibling for old readers.
_SKIP = {W + t for t in ("pPr", "rPr", "del", "delText", "instrText", "moveFrom", "sdtPr")}
_SKIP.add(MC + "Fallback")
_ATOM = re.compile(r"-?[\w.∘′″]*")  # needs no parentheses as a math argument
_MATH_LAYOUT = {M + t for t in ("f", "rad", "sSub", "sSup", "sSubSup")}


class Context:
    """What rendering needs from the package: styles, numbering, links, notes."""

    def __init__(self, document: Any) -> None:
        part = document.part
        # Notes in the order the body cites them: label ("1", "e1") -> text. Word numbers
        # footnotes (and, apart, endnotes) in that order, whatever their ids.
        self.notes: dict[str, str] = {}
        self._labels: dict[tuple[str, str], str] = {}
        self._counts: dict[str, int] = {}  # notes of each kind cited so far
        self.styles: dict[str, tuple[int, str | None]] = {}  # id -> (heading level, list kind)
        for style in document.styles.element.iter(W + "style"):
            name_el = style.find(W + "name")
            name = (name_el.get(W + "val") if name_el is not None else "") or ""
            self.styles[style.get(W + "styleId") or ""] = _style_kind(style, name.lower())
        # A list style's own list ("List Number": numId in the style, not the paragraph).
        self.style_lists: dict[str, tuple[str, int]] = {}
        for style in document.styles.element.iter(W + "style"):
            num = style.find(f"{W}pPr/{W}numPr")
            num_id = num.find(W + "numId") if num is not None else None
            if num is not None and num_id is not None:
                ilvl = num.find(W + "ilvl")
                depth = to_int(ilvl.get(W + "val"), 0) if ilvl is not None else 0
                self.style_lists[style.get(W + "styleId") or ""] = (
                    num_id.get(W + "val") or "",
                    depth,
                )
        try:
            numbering = part.numbering_part.element
        except (KeyError, NotImplementedError, AttributeError):
            numbering = None  # no numbering part: lists come from style names only
        self.numbering = Numbering(numbering)
        self.links = {rid: rel.target_ref for rid, rel in part.rels.items() if rel.is_external}
        self.footnotes = self._note_texts(part, "footnote")
        self.endnotes = self._note_texts(part, "endnote")

    def _note_texts(self, part: Any, kind: str) -> dict[str, str]:
        """A notes part's texts by id (``kind``: footnote or endnote)."""
        from lxml import etree

        texts: dict[str, str] = {}
        for rel in part.rels.values():
            if rel.reltype.endswith(f"/{kind}s") and not rel.is_external:
                # Untrusted XML: no entity expansion, no network.
                parser = etree.XMLParser(resolve_entities=False, no_network=True)
                notes = etree.fromstring(rel.target_part.blob, parser)
                for note in notes.iter(W + kind):
                    text = " ".join(inline(p, self, []).strip() for p in note.iter(W + "p"))
                    texts[note.get(W + "id") or ""] = text.strip()
        return texts

    def cite(self, kind: str, note_id: str) -> str:
        """The label of the note a reference points to, numbered in citation order."""
        key = (kind, note_id)
        if key not in self._labels:
            prefix = "e" if kind == "endnote" else ""
            self._counts[kind] = self._counts.get(kind, 0) + 1
            label = f"{prefix}{self._counts[kind]}"
            self._labels[key] = label
            text = (self.endnotes if kind == "endnote" else self.footnotes).get(note_id)
            if text:
                self.notes[label] = text
        return self._labels[key]


def _style_kind(style: Any, name: str) -> tuple[int, str | None]:
    level = 0
    # "Heading" bare is LibreOffice's own heading style (the parent of Heading 1-10, in its
    # style list as "Heading"): a file saved from Writer keeps it by that name.
    if name in ("title", "heading"):
        level = 1
    elif match := re.fullmatch(r"heading (\d)", name):
        level = min(int(match.group(1)), 6)
    elif (outline := style.find(f"{W}pPr/{W}outlineLvl")) is not None:
        value = to_int(outline.get(W + "val"), 9)  # 0-based; 9 means body text
        level = min(value + 1, 6) if value < 9 else 0
    kind = "1." if name.startswith("list number") else "-" if name.startswith("list") else None
    if style.find(f"{W}pPr/{W}numPr") is not None and kind is None:
        kind = "-"
    return level, kind


def inline(element: Any, ctx: Context, boxes: list[Any]) -> str:
    """The text of a paragraph (or part of one); text boxes are collected, not inlined."""
    parts: list[str] = []
    for child in element:
        tag = child.tag
        if tag in _SKIP or not isinstance(tag, str):
            continue  # lxml comments / processing instructions have a non-str tag
        if tag in (W + "t", M + "t"):
            parts.append(child.text or "")
        elif tag == W + "r" and _hidden(child):
            continue  # hidden text (w:vanish): Word neither shows nor prints it
        elif tag in (W + "tab", W + "ptab"):
            parts.append("\t")
        elif tag in (W + "br", W + "cr"):
            parts.append("\n")
        elif tag == W + "noBreakHyphen":
            parts.append("-")
        elif tag == W + "txbxContent":
            boxes.append(child)
        elif tag == WP + "docPr":
            if mark := picture(child.get("descr")):
                parts.append(f" {mark} ")
        elif tag in _MATH_LAYOUT:
            parts.append(_math(child, ctx, boxes))
        elif tag in (W + "footnoteReference", W + "endnoteReference"):
            kind = "footnote" if tag == W + "footnoteReference" else "endnote"
            parts.append(f"[^{ctx.cite(kind, child.get(W + 'id') or '')}]")
        elif tag == W + "hyperlink":
            text = inline(child, ctx, boxes)
            url = ctx.links.get(child.get(R + "id") or "")
            parts.append(f"[{text.strip()}]({url})" if url and text.strip() else text)
        else:
            parts.append(inline(child, ctx, boxes))
    return "".join(parts)


def _hidden(run: Any) -> bool:
    vanish = run.find(f"{W}rPr/{W}vanish")
    return vanish is not None and vanish.get(W + "val") not in ("0", "false", "off")


def _math(element: Any, ctx: Context, boxes: list[Any]) -> str:
    """A fraction / script / root of an equation as linear text: (a)/(b), x^(2), √(x)."""

    def arg(name: str) -> str:
        sub = element.find(M + name)
        text = inline(sub, ctx, boxes).strip() if sub is not None else ""
        return text if _ATOM.fullmatch(text) else f"({text})"

    tag = element.tag
    if tag == M + "f":
        return f"{arg('num')}/{arg('den')}"
    if tag == M + "rad":
        return f"√{arg('e')}"
    base = arg("e")
    sub = f"_{arg('sub')}" if tag in (M + "sSub", M + "sSubSup") else ""
    sup = f"^{arg('sup')}" if tag in (M + "sSup", M + "sSubSup") else ""
    return base + sub + sup


def to_int(value: str | None, default: int = 1) -> int:
    try:
        return max(int(value or default), 0)
    except ValueError:  # odd writers put "auto" or floats in numeric attributes
        return default
