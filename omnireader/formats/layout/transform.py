"""The frame the layout works in: page points, origin at the crop box's top left, y down,
the page's /Rotate applied. Words and rules are both brought into it, so they line up."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pypdfium2

__all__ = ["Flip", "page_transform"]

#: (left, top, right, bottom) in PDF user space → (x0, y0, x1, y1) in the layout's frame.
Flip = Callable[[float, float, float, float], tuple[float, float, float, float]]


def page_transform(page: pypdfium2.PdfPage) -> tuple[Flip | None, tuple[float, float]]:
    """PDF user space (origin bottom left, y up, maybe rotated) → top-left page points:
    ``(None, (left, top))`` for an upright page (callers flip inline), else a function
    of a box's (left, top, right, bottom)."""
    left, bottom, right, top = page.get_cropbox()
    rotation = page.get_rotation() % 360
    if rotation not in (90, 180, 270):
        return None, (left, top)

    def flip90(a: float, b: float, c: float, d: float) -> tuple[float, float, float, float]:
        return d - bottom, a - left, b - bottom, c - left

    def flip180(a: float, b: float, c: float, d: float) -> tuple[float, float, float, float]:
        return right - c, d - bottom, right - a, b - bottom

    def flip270(a: float, b: float, c: float, d: float) -> tuple[float, float, float, float]:
        return top - b, right - c, top - d, right - a

    return {90: flip90, 180: flip180, 270: flip270}[rotation], (left, top)
