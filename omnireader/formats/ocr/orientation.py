"""Which way up a page is: 0, 90, 180 or 270 degrees turned clockwise.

The engine's line classifier only tells upright from upside down. Whether the lines run
across the page or up and down tells the rest: on a page turned a quarter, text boxes are
tall, and the engine lays each tall crop flat by turning it a quarter counter-clockwise;
the classifier then says whether that crop came out upright (the page was turned 90°) or
upside down (270°). Each box votes with its length and the classifier's certainty, so a
few stray marks, one-letter boxes or unsure verdicts do not outvote the page's lines.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

__all__ = ["page_rotation", "box_sides"]

# A box at least this much longer one way than the other says which way its line runs.
_ELONGATED = 1.5


def box_sides(quad: np.ndarray) -> tuple[float, float]:
    """(width, height) of a quad as the engine crops it: top edge and left edge lengths."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = (tuple(map(float, p)) for p in quad)
    width = max(math.hypot(x1 - x0, y1 - y0), math.hypot(x2 - x3, y2 - y3))
    height = max(math.hypot(x3 - x0, y3 - y0), math.hypot(x2 - x1, y2 - y1))
    return width, height


def page_rotation(quads: Sequence[np.ndarray], flipped: Sequence[float]) -> int:
    """Degrees the page is turned clockwise, from its boxes and, for each box, the
    probability that its crop (laid flat) is upside down."""
    across = down = 0.0
    for quad in quads:
        w, h = box_sides(quad)
        if w >= _ELONGATED * h:
            across += w
        elif h >= _ELONGATED * w:
            down += h
    vertical = down > across
    vote = 0.0
    for quad, p in zip(quads, flipped):
        w, h = box_sides(quad)
        if (h >= _ELONGATED * w) if vertical else (w >= _ELONGATED * h):
            vote += max(w, h) * (2 * p - 1)  # sure votes count fully, unsure ones hardly
    return (90 if vertical else 0) + (180 if vote > 0 else 0)
