"""DOCX tables: data tables as Markdown tables, and the test that tells a layout table (one
that boxes or arranges content) from a data table.

    if is_layout(tbl, ctx): ...read its cells as blocks...
    else: markdown = markdown_table(tbl, ctx)
"""

from __future__ import annotations

from typing import Any

from omnireader.formats.office.docx_inline import Context, W, inline, to_int

__all__ = ["is_layout", "markdown_table", "own_cells", "is_continuation"]


def _cell_text(container: Any, ctx: Context) -> str:
    """A cell as one line: paragraphs and text boxes flattened (a table holding a table is
    layout, so nested tables never reach here)."""
    parts: list[str] = []
    for child in container:
        if child.tag == W + "p":
            boxes: list[Any] = []
            parts.append(inline(child, ctx, boxes))
            parts.extend(_cell_text(box, ctx) for box in boxes)
        elif child.tag in (W + "sdt", W + "sdtContent", W + "customXml"):
            parts.append(_cell_text(child, ctx))
    return " ".join(" ".join(parts).split())


def is_continuation(tc: Any) -> bool:
    """Whether ``tc`` continues a merged cell (``vMerge`` without ``restart``, or the legacy
    ``hMerge="continue"``): Word shows the first cell of a merge only, so text left inside a
    continuation is hidden and never read."""
    merge_el = tc.find(f"{W}tcPr/{W}vMerge")
    if merge_el is not None and merge_el.get(W + "val") != "restart":
        return True
    h_merge = tc.find(f"{W}tcPr/{W}hMerge")
    return h_merge is not None and h_merge.get(W + "val") == "continue"


def own_cells(tbl: Any) -> list[Any]:
    return [tc for tc in tbl.iter(W + "tc") if _nearest_table(tc) is tbl]


def is_layout(tbl: Any, ctx: Context) -> bool:
    """Whether a table lays content out rather than holding data: it holds another table,
    or lists or headings in its cells, or it is one column wide (a box around text)."""
    cells = own_cells(tbl)
    if any(tc.find(f".//{W}tbl") is not None for tc in cells):
        return True
    for tc in cells:
        for p in tc.iter(W + "p"):
            style_el = p.find(f"{W}pPr/{W}pStyle")
            style_id = (style_el.get(W + "val") or "") if style_el is not None else ""
            level, kind = ctx.styles.get(style_id, (0, None))
            num = p.find(f"{W}pPr/{W}numPr/{W}numId")
            listed = num is not None and num.get(W + "val") not in (None, "0")
            has_text = any((t.text or "").strip() for t in p.iter(W + "t"))
            if has_text and (level or kind or listed):
                return True
    widths = [len(row) for row in _rows(tbl, ctx) if any(row)]
    return bool(widths) and max(widths) <= 1


def _rows(tbl: Any, ctx: Context) -> list[list[str]]:
    rows: list[list[str]] = []
    for tr in tbl.iter(W + "tr"):
        if _nearest_table(tr) is not tbl:
            continue  # a row of a nested table; rendered inside its cell
        cells: list[str] = []
        for tc in tr.iter(W + "tc"):
            if _nearest_table(tc) is not tbl:
                continue
            span_el = tc.find(f"{W}tcPr/{W}gridSpan")
            # A merged continuation cell shows nothing; Markdown has no rowspan.
            cells.append("" if is_continuation(tc) else _cell_text(tc, ctx))
            span = to_int(span_el.get(W + "val")) if span_el is not None else 1
            cells.extend([""] * (span - 1))
        rows.append(cells)
    return rows


def _nearest_table(element: Any) -> Any:
    parent = element.getparent()
    while parent is not None and parent.tag != W + "tbl":
        parent = parent.getparent()
    return parent


def markdown_table(tbl: Any, ctx: Context) -> str:
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
