"""A form's columns of check boxes read with the questions they answer.

A filing's cover sets its questions in one column and their "Yes" and "No" boxes in
columns of their own at the right, each box on the baseline of the question's line. Read
as blocks, the boxes stacked into columns of their own ("☑ / ☐ / ☑") that came after all
the questions. Each box line goes to the end of the line it stands beside (the nearest
line to its left on its baseline); a box with no such line stays where it was.
"""

from __future__ import annotations

from omnireader.formats.layout.blocks import TextBlock
from omnireader.formats.layout.lines import make_line
from omnireader.formats.layout.model import Line

__all__ = ["attach_box_columns"]

_BOXES = frozenset("\u2610\u2611\u2612")
# A box stands beside a line whose box overlaps this share of the smaller of the two.
_LEVEL = 0.5


def attach_box_columns(blocks: list[TextBlock]) -> list[TextBlock]:
    """``blocks`` with each line made only of check boxes moved onto the end of the text
    line beside it (``blocks`` and their lines are changed in place)."""
    columns = [b for b in blocks if b.table is None and b.lines and all(map(_boxes, b.lines))]
    if not columns:
        return blocks
    texts = [b for b in blocks if b.table is None and not any(b is c for c in columns)]
    rebuilt: dict[int, TextBlock | None] = {}
    for column in sorted(columns, key=lambda b: b.x0):
        kept = []
        for line in column.lines:
            found = _beside(line, texts)
            if found is None:
                kept.append(line)
                continue
            block, index = found
            block.lines[index] = joined = make_line(block.lines[index].words + line.words)
            block.x1 = max(block.x1, joined.x1)
        if len(kept) < len(column.lines):
            rest = TextBlock() if kept else None
            for line in kept:
                rest.add(line)  # type: ignore[union-attr]
            rebuilt[id(column)] = rest
    out = [rebuilt.get(id(b), b) for b in blocks]
    return [b for b in out if b is not None]


def _boxes(line: Line) -> bool:
    return all(ch in _BOXES or ch.isspace() for ch in line.text)


def _beside(line: Line, texts: list[TextBlock]) -> tuple[TextBlock, int] | None:
    """The block and index of the text line nearest left of ``line`` on its baseline."""
    best = None
    for block in texts:
        if block.y1 < line.y0 or block.y0 > line.y1 or block.x0 >= line.x0:
            continue
        for i, other in enumerate(block.lines):
            if other.x1 > line.x0 + 0.5:
                continue
            overlap = min(other.y1, line.y1) - max(other.y0, line.y0)
            if overlap < _LEVEL * min(other.y1 - other.y0, line.y1 - line.y0):
                continue
            if best is None or other.x1 > best[0]:
                best = (other.x1, block, i)
    return None if best is None else (best[1], best[2])
