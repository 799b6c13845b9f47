"""Text boxes that tile a rectangle edge to edge, read as the table they draw.

PowerPoint 97-2003 stored a table as a group of boxes, one per cell, and a .ppt converted to
PPTX (ppt2pptx, LibreOffice) keeps it so; a deck drawn by hand can do the same. Read box by
box in reading order, such a table becomes one line per cell ("Row 1 Col 1", "Row 1 Col
2", …) and its rows and columns are lost. Boxes are a table here when they:

- form two or more rows of two or more boxes, every row as many boxes as the first;
- touch: in a row each box starts where the one before it ends, and each row starts where
  the one above it ends (a small tolerance for rounding);
- line up: every row's boxes start at the same places as the first row's.

A row of boxes with gaps between them (a diagram's labels, four quadrants with space
around them), or rows that do not line up, stays text. The first row is the header, as
for a slide's own tables.

    grids, taken = box_grids(shapes)   # shapes of one slide or group, in reading order
    # grids: shape id of a table's first cell -> its Markdown; taken: every cell's shape id
"""

from __future__ import annotations

from typing import Any

from omnireader.formats.office.pptx_tables import markdown_rows

__all__ = ["box_grids"]

_SLACK = 45720  # EMU, 0.05 inch: boxes this close touch (positions are rounded)
_SLACK_SHARE = 0.1  # ... or a tenth of the box's own size, for large boxes


class _Box:
    __slots__ = ("shape", "left", "top", "right", "bottom")

    def __init__(self, shape: Any) -> None:
        self.shape = shape
        self.left, self.top = int(shape.left), int(shape.top)
        self.right, self.bottom = self.left + int(shape.width), self.top + int(shape.height)


def _near(a: int, b: int, size: int) -> bool:
    return abs(a - b) <= max(_SLACK, int(size * _SLACK_SHARE))


def _cell_box(shape: Any) -> _Box | None:
    """A plain text box or shape with text (no placeholder, table or picture) and a size."""
    if not getattr(shape, "has_text_frame", False) or not shape.has_text_frame:
        return None
    if shape.is_placeholder or None in (shape.left, shape.top, shape.width, shape.height):
        return None
    if int(shape.width) <= 0 or int(shape.height) <= 0:
        return None
    return _Box(shape)


def _rows(boxes: list[_Box]) -> list[list[_Box]]:
    """Runs of two or more boxes at one height that touch side by side, left to right."""
    rows: list[list[_Box]] = []
    for box in sorted(boxes, key=lambda b: (b.top, b.left)):
        for row in rows:
            last = row[-1]
            height = last.bottom - last.top
            if (
                _near(box.top, last.top, height)
                and _near(box.bottom, last.bottom, height)
                and _near(box.left, last.right, last.right - last.left)
            ):
                row.append(box)
                break
        else:
            rows.append([box])
    return [row for row in rows if len(row) >= 2]


def _follows(row: list[_Box], above: list[_Box]) -> bool:
    """Whether ``row`` sits right under ``above`` with its boxes at the same places."""
    height = above[0].bottom - above[0].top
    return (
        len(row) == len(above)
        and _near(row[0].top, above[0].bottom, height)
        and all(_near(b.left, a.left, a.right - a.left) for a, b in zip(above, row))
        and _near(row[-1].right, above[-1].right, above[-1].right - above[-1].left)
    )


def box_grids(shapes: list[Any]) -> tuple[dict[int, str], set[int]]:
    """The tables drawn by ``shapes``' boxes: their Markdown by the shape id of each
    table's top-left box, and the ids of every box in a table."""
    boxes = [box for shape in shapes if (box := _cell_box(shape)) is not None]
    rows = sorted(_rows(boxes), key=lambda row: (row[0].top, row[0].left))
    grids: dict[int, str] = {}
    taken: set[int] = set()
    used: set[int] = set()
    for i, first in enumerate(rows):
        if i in used:
            continue
        table = [first]
        for j in range(i + 1, len(rows)):
            if j not in used and _follows(rows[j], table[-1]):
                table.append(rows[j])
                used.add(j)
        if len(table) < 2:
            continue
        cells = [[" ".join(b.shape.text_frame.text.split()) for b in row] for row in table]
        if not any(any(row) for row in cells):
            continue
        grids[first[0].shape.shape_id] = markdown_rows(cells)
        taken.update(b.shape.shape_id for row in table for b in row)
    return grids, taken
