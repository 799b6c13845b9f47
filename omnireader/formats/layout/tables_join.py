"""Rows of a borderless table that are one row printed on several lines, joined.

A borderless table has no lines between its rows, so a cell whose text wraps comes out as
lines of its own. Which lines continue the row above is told by what they fill, not by
thresholds of spacing alone: a continuation fills only cells that are filled above it (or,
for a wrapped row label, carries on a label that ran to its column's edge).
"""

from __future__ import annotations

from statistics import median

from omnireader.formats.layout.tables_text import is_numeric

__all__ = ["join_header", "join_wrapped"]

_Box = tuple[float, float, float, float]
_PITCH = 0.8  # a continuation sits closer below its row than rows sit from each other
_FULL = 0.8  # a label this far across its column ran out of room: it wrapped


def _merge(above: list[str], row: list[str]) -> list[str]:
    return [f"{a} {b}".strip() for a, b in zip(above, row)]


def _union(a: _Box, b: _Box) -> _Box:
    return (min(a[0], b[0]), a[1], max(a[2], b[2]), b[3])


def join_header(
    rows: list[list[str]], boxes: list[tuple[float, float, float, float]], head: int
) -> tuple[list[list[str]], list[tuple[float, float, float, float]], int]:
    """Header lines that only continue the header cells above them ("Medical &" over
    "Public Health") join them; a line that starts new cells (sub-headers under a spanning
    group) stays a row of its own."""
    out_rows, out_boxes = rows[:1], boxes[:1]
    for k in range(1, head):
        above, row = out_rows[-1], rows[k]
        filled = [j for j, c in enumerate(row) if c]
        height = boxes[k][3] - boxes[k][1]
        if (
            filled
            and all(above[j] for j in filled)
            and boxes[k][1] - out_boxes[-1][3] < 0.5 * height
        ):
            out_rows[-1] = _merge(above, row)
            out_boxes[-1] = _union(out_boxes[-1], boxes[k])
            continue
        out_rows.append(list(row))
        out_boxes.append(boxes[k])
    joined = head - len(out_rows)
    return out_rows + rows[head:], out_boxes + boxes[head:], head - joined


def join_wrapped(
    rows: list[list[str]],
    boxes: list[_Box],
    head: int,
    label_ends: list[float | None],
    label_column: tuple[float, float],
) -> tuple[list[list[str]], list[_Box]]:
    """Lines that only continue the row above (a cell that wrapped) join it.

    Two shapes: a line that leaves the first column empty and fills only cells filled
    above, with no number in them (a description wrapping); and a row label that ran to its
    column's edge with nothing beside it, whose row goes on below (the label wraps and the
    numbers stand on its last line). Either sits closer below than rows do to each other.
    """
    if len(rows) - head < 2:
        return rows, boxes
    gaps = [boxes[k][1] - boxes[k - 1][3] for k in range(head + 1, len(rows))]
    pitch = median(gaps) if gaps else 0.0
    left, right = label_column
    out_rows, out_boxes, out_ends = rows[:head], boxes[:head], label_ends[:head]
    for k in range(head, len(rows)):
        row = rows[k]
        if len(out_rows) > head and boxes[k][1] - out_boxes[-1][3] < _PITCH * pitch:
            above = out_rows[-1]
            filled = [j for j, c in enumerate(row) if c]
            continues = (
                not row[0]
                and filled
                and all(above[j] for j in filled)
                and len(filled) <= max(1, len(row) // 2)
                and not any(is_numeric(row[j]) for j in filled)
            )
            end = out_ends[-1]
            wrapped_label = (
                row[0]
                and above[0]
                and not any(above[1:])
                and not above[0].endswith(":")
                and not is_numeric(above[0])
                and end is not None
                and end >= left + _FULL * (right - left)
            )
            if continues or wrapped_label:
                out_rows[-1] = _merge(above, row)
                out_boxes[-1] = _union(out_boxes[-1], boxes[k])
                out_ends[-1] = label_ends[k] if wrapped_label else end
                continue
        out_rows.append(list(row))
        out_boxes.append(boxes[k])
        out_ends.append(label_ends[k])
    return out_rows, out_boxes
