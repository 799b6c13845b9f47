"""A DOCX body as Markdown blocks, walked straight from the XML in document order.

python-docx exposes paragraphs and tables but not text boxes (``w:txbxContent``), content
controls (``w:sdt``) or their interleaving, so the body element is walked here instead:

    sections = docx_sections(docx.Document(path))   # list[Section], one per top-level heading

Headings become ``#`` lines (from "Title" / "Heading N" / outline levels), list paragraphs
``-`` or ``1.`` items, tables Markdown tables (a nested table is flattened into its cell),
images only their alt text, and cited footnotes ``[^n]: ...`` lines at the end.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, NamedTuple

from omnireader.formats.document import Section
from omnireader.formats.office.list_nesting import nest_list_items

__all__ = ["docx_sections"]

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_M = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_WP = "{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}"

# Elements that never carry body text (properties, deleted text, field codes), and
# mc:Fallback, which repeats its mc:Choice sibling for old readers.
_SKIP = {_W + t for t in ("pPr", "rPr", "del", "delText", "instrText", "moveFrom", "sdtPr")}
_SKIP.add(_MC + "Fallback")
_ATOM = re.compile(r"-?[\w.∘′″]*")  # needs no parentheses as a math argument
_MATH_LAYOUT = {_M + t for t in ("f", "rad", "sSub", "sSup", "sSubSup")}


class _Block(NamedTuple):
    text: str
    heading_level: int = 0  # 0: not a heading
    is_list: bool = False
    depth: int = 0  # a list item's level in the document (w:ilvl); indented in _sections


class _Context:
    """What rendering needs from the package: styles, numbering, links, footnotes."""

    def __init__(self, document: Any) -> None:
        part = document.part
        self.cited: list[str] = []  # footnote ids in the order the body cites them
        self.styles: dict[str, tuple[int, str | None]] = {}  # id -> (heading level, list kind)
        for style in document.styles.element.iter(_W + "style"):
            name_el = style.find(_W + "name")
            name = (name_el.get(_W + "val") if name_el is not None else "") or ""
            self.styles[style.get(_W + "styleId") or ""] = _style_kind(style, name.lower())
        self.ordered: dict[tuple[str, str], bool] = {}  # (numId, ilvl) -> numbered?
        try:
            _read_numbering(part.numbering_part.element, self.ordered)
        except (KeyError, NotImplementedError, AttributeError):
            pass  # no numbering part: lists come from style names only
        self.links = {rid: rel.target_ref for rid, rel in part.rels.items() if rel.is_external}
        self.footnotes: dict[str, str] = {}
        for rel in part.rels.values():
            if rel.reltype.endswith("/footnotes") and not rel.is_external:
                from lxml import etree

                # Untrusted XML: no entity expansion, no network.
                parser = etree.XMLParser(resolve_entities=False, no_network=True)
                notes = etree.fromstring(rel.target_part.blob, parser)
                for note in notes.iter(_W + "footnote"):
                    text = " ".join(_inline(p, self, []).strip() for p in note.iter(_W + "p"))
                    self.footnotes[note.get(_W + "id") or ""] = text.strip()


def _style_kind(style: Any, name: str) -> tuple[int, str | None]:
    level = 0
    if name == "title":
        level = 1
    elif match := re.fullmatch(r"heading (\d)", name):
        level = min(int(match.group(1)), 6)
    elif (outline := style.find(f"{_W}pPr/{_W}outlineLvl")) is not None:
        value = _int(outline.get(_W + "val"), 9)  # 0-based; 9 means body text
        level = min(value + 1, 6) if value < 9 else 0
    kind = "1." if name.startswith("list number") else "-" if name.startswith("list") else None
    if style.find(f"{_W}pPr/{_W}numPr") is not None and kind is None:
        kind = "-"
    return level, kind


def _read_numbering(numbering: Any, ordered: dict[tuple[str, str], bool]) -> None:
    formats: dict[str, dict[str, bool]] = {}
    for abstract in numbering.iter(_W + "abstractNum"):
        levels = formats.setdefault(abstract.get(_W + "abstractNumId") or "", {})
        for lvl in abstract.iter(_W + "lvl"):
            fmt = lvl.find(_W + "numFmt")
            value = fmt.get(_W + "val") if fmt is not None else "bullet"
            levels[lvl.get(_W + "ilvl") or "0"] = value not in ("bullet", "none")
    for num in numbering.iter(_W + "num"):
        ref = num.find(_W + "abstractNumId")
        levels = formats.get(ref.get(_W + "val") or "", {}) if ref is not None else {}
        for ilvl, is_ordered in levels.items():
            ordered[(num.get(_W + "numId") or "", ilvl)] = is_ordered


def _inline(element: Any, ctx: _Context, boxes: list[Any]) -> str:
    """The text of a paragraph (or part of one); text boxes are collected, not inlined."""
    parts: list[str] = []
    for child in element:
        tag = child.tag
        if tag in _SKIP or not isinstance(tag, str):
            continue  # lxml comments / processing instructions have a non-str tag
        if tag in (_W + "t", _M + "t"):
            parts.append(child.text or "")
        elif tag in (_W + "tab", _W + "ptab"):
            parts.append("\t")
        elif tag in (_W + "br", _W + "cr"):
            parts.append("\n")
        elif tag == _W + "noBreakHyphen":
            parts.append("-")
        elif tag == _W + "txbxContent":
            boxes.append(child)
        elif tag == _WP + "docPr":
            if alt := " ".join((child.get("descr") or "").split()):
                parts.append(f" [image: {alt}] ")
        elif tag in _MATH_LAYOUT:
            parts.append(_math(child, ctx, boxes))
        elif tag == _W + "footnoteReference":
            note_id = child.get(_W + "id") or ""
            ctx.cited.append(note_id)
            parts.append(f"[^{note_id}]")
        elif tag == _W + "hyperlink":
            text = _inline(child, ctx, boxes)
            url = ctx.links.get(child.get(_R + "id") or "")
            parts.append(f"[{text.strip()}]({url})" if url and text.strip() else text)
        else:
            parts.append(_inline(child, ctx, boxes))
    return "".join(parts)


def _math(element: Any, ctx: _Context, boxes: list[Any]) -> str:
    """A fraction / script / root of an equation as linear text: (a)/(b), x^(2), √(x)."""

    def arg(name: str) -> str:
        sub = element.find(_M + name)
        text = _inline(sub, ctx, boxes).strip() if sub is not None else ""
        return text if _ATOM.fullmatch(text) else f"({text})"

    tag = element.tag
    if tag == _M + "f":
        return f"{arg('num')}/{arg('den')}"
    if tag == _M + "rad":
        return f"√{arg('e')}"
    base = arg("e")
    sub = f"_{arg('sub')}" if tag in (_M + "sSub", _M + "sSubSup") else ""
    sup = f"^{arg('sup')}" if tag in (_M + "sSup", _M + "sSubSup") else ""
    return base + sub + sup


def _blocks(container: Any, ctx: _Context) -> Iterator[_Block]:
    for child in container:
        tag = child.tag
        if tag == _W + "p":
            yield from _paragraph(child, ctx)
        elif tag == _W + "tbl":
            if table := _table(child, ctx):
                yield _Block(table)
        elif tag == _W + "sdt":
            content = child.find(_W + "sdtContent")
            if content is not None:
                yield from _blocks(content, ctx)
        elif tag in (_W + "customXml", _W + "ins", _MC + "AlternateContent", _MC + "Choice"):
            yield from _blocks(child, ctx)


def _paragraph(p: Any, ctx: _Context) -> Iterator[_Block]:
    boxes: list[Any] = []
    text = _inline(p, ctx, boxes).strip()
    style_el = p.find(f"{_W}pPr/{_W}pStyle")
    style_id = (style_el.get(_W + "val") or "") if style_el is not None else ""
    level, kind = ctx.styles.get(style_id, (0, None))
    num = p.find(f"{_W}pPr/{_W}numPr")
    depth = 0
    if num is not None:
        num_id, ilvl = (num.find(_W + k) for k in ("numId", "ilvl"))
        num_id_val = num_id.get(_W + "val") if num_id is not None else None
        depth = _int(ilvl.get(_W + "val"), 0) if ilvl is not None else 0
        if num_id_val == "0":  # numbering explicitly switched off
            kind = None
        elif num_id_val is not None:
            kind = "1." if ctx.ordered.get((num_id_val, str(depth))) else "-"
    if text:
        if level:
            yield _Block("#" * level + " " + " ".join(text.split()), heading_level=level)
        elif kind:
            yield _Block(f"{kind} {text}", is_list=True, depth=depth)
        else:
            yield _Block(text)
    for box in boxes:
        yield from _blocks(box, ctx)


def _cell_text(container: Any, ctx: _Context) -> str:
    """A cell as one line: paragraphs, text boxes and nested tables flattened."""
    parts: list[str] = []
    for child in container:
        if child.tag == _W + "p":
            boxes: list[Any] = []
            parts.append(_inline(child, ctx, boxes))
            parts.extend(_cell_text(box, ctx) for box in boxes)
        elif child.tag == _W + "tbl":
            # A nested table: rows "; "-separated, cells " / "-separated.
            rows = (" / ".join(c for c in row if c) for row in _rows(child, ctx))
            parts.append("; ".join(r for r in rows if r))
        elif child.tag in (_W + "sdt", _W + "sdtContent", _W + "customXml"):
            parts.append(_cell_text(child, ctx))
    return " ".join(" ".join(parts).split())


def _rows(tbl: Any, ctx: _Context) -> list[list[str]]:
    rows: list[list[str]] = []
    for tr in tbl.iter(_W + "tr"):
        if _nearest_table(tr) is not tbl:
            continue  # a row of a nested table; rendered inside its cell
        cells: list[str] = []
        for tc in tr.iter(_W + "tc"):
            if _nearest_table(tc) is not tbl:
                continue
            span_el = tc.find(f"{_W}tcPr/{_W}gridSpan")
            merge_el = tc.find(f"{_W}tcPr/{_W}vMerge")
            # A vertically merged continuation cell repeats nothing; Markdown has no rowspan.
            continued = merge_el is not None and merge_el.get(_W + "val") != "restart"
            cells.append("" if continued else _cell_text(tc, ctx))
            span = _int(span_el.get(_W + "val")) if span_el is not None else 1
            cells.extend([""] * (span - 1))
        rows.append(cells)
    return rows


def _int(value: str | None, default: int = 1) -> int:
    try:
        return max(int(value or default), 0)
    except ValueError:  # odd writers put "auto" or floats in numeric attributes
        return default


def _nearest_table(element: Any) -> Any:
    parent = element.getparent()
    while parent is not None and parent.tag != _W + "tbl":
        parent = parent.getparent()
    return parent


def _table(tbl: Any, ctx: _Context) -> str:
    rows = [row for row in _rows(tbl, ctx) if any(row)]
    if not rows:
        return ""
    width = max(len(row) for row in rows)
    lines = []
    for i, row in enumerate(rows):
        cells = [c.replace("|", "\\|") for c in row] + [""] * (width - len(row))
        lines.append("| " + " | ".join(cells) + " |")
        if i == 0:
            lines.append("|" + " --- |" * width)
    return "\n".join(lines)


def _sections(blocks: list[_Block]) -> list[Section]:
    """One section per top-level heading (plus what comes before the first heading)."""
    top = min((b.heading_level for b in blocks if b.heading_level), default=0)
    groups: list[list[_Block]] = [[]]
    for block in blocks:
        if top and block.heading_level == top and groups[-1]:
            groups.append([])
        groups[-1].append(block)
    sections = []
    for group in filter(None, groups):
        group = nest_list_items(group)
        pieces = [group[0].text]
        for prev, block in zip(group, group[1:]):
            # Items of one list stay on consecutive lines; other blocks are paragraphs.
            pieces.append("\n" if prev.is_list and block.is_list else "\n\n")
            pieces.append(block.text)
        text = "".join(pieces)
        first = group[0]
        heading = first.text.lstrip("#").strip() if top and first.heading_level == top else None
        sections.append(Section(text=text, heading=heading))
    return sections


def docx_sections(document: Any) -> list[Section]:
    """A python-docx ``Document``'s body as Markdown sections, one per top-level heading."""
    ctx = _Context(document)
    blocks = list(_blocks(document.element.body, ctx))
    cited = dict.fromkeys(ctx.cited)
    notes = [f"[^{n}]: {ctx.footnotes[n]}" for n in cited if ctx.footnotes.get(n)]
    if notes:
        blocks.append(_Block("\n".join(notes)))
    return _sections(blocks)
