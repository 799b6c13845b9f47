"""Pieces of one ruling line drawn cell by cell, merged into one rule.

A table's row line is often many short strokes or thin rectangles, one per cell; collinear
pieces that touch or overlap (within :data:`JOIN` points) become one
:class:`~omnireader.formats.layout.model.Rule`, horizontal and vertical apart.
"""

from __future__ import annotations

from omnireader.formats.layout import pdfium_calls
from omnireader.formats.layout.model import Rule

__all__ = ["JOIN", "merge_boxes", "merge_rules"]

JOIN = 1.5  # points between collinear pieces that still make one rule


def merge_rules(rules: list[Rule], tol: float = JOIN) -> list[Rule]:
    """Collinear pieces that touch or overlap become one rule (horizontal and vertical apart)."""
    return merge_boxes([(r.x0, r.y0, r.x1, r.y1) for r in rules], tol)


def merge_boxes(
    boxes: list[tuple[float, float, float, float]], tol: float, compiled: bool = True
) -> list[Rule]:
    """:func:`merge_rules` of ``(x0, y0, x1, y1)`` boxes (``Rule.horizontal`` inline), by
    the compiled loop where it is built and ``compiled`` is true."""
    fast = pdfium_calls.compiled("merge_pieces", compiled)
    if fast is not None:
        got = fast(boxes, tol, Rule)
        if got is not None:  # None: a coordinate is not a number; the loop below decides
            return got  # type: ignore[no-any-return]
    merged: list[Rule] = []
    # (position across, start, end along) so one loop serves both directions.
    across: tuple[list[tuple[float, float, float]], ...] = ([], [])
    for x0, y0, x1, y1 in boxes:
        if abs(y1 - y0) <= abs(x1 - x0):
            across[0].append((y0, x0, x1))
        else:
            across[1].append((x0, y0, y1))
    for horizontal, spans in zip((True, False), across):
        spans.sort()
        groups: list[list[tuple[float, float, float]]] = []
        for span in spans:
            if groups and span[0] - groups[-1][0][0] <= tol:
                groups[-1].append(span)
            else:
                groups.append([span])
        for group in groups:
            pos = sum(s[0] for s in group) / len(group)
            pieces = sorted((s[1], s[2]) for s in group)
            start, end = pieces[0]
            for a, b in pieces[1:] + [(float("inf"), float("inf"))]:
                if a <= end + tol:
                    end = max(end, b)
                    continue
                merged.append(
                    Rule(start, pos, end, pos) if horizontal else Rule(pos, start, pos, end)
                )
                start, end = a, b
    return merged
