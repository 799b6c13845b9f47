"""Which way a PDF page's text runs: the turn that makes most of it upright.

A table printed sideways (its text running bottom to top) is read by turning the page
before reading its words and rules, and turning it back after (``layout/page.py``).
"""

from __future__ import annotations

import math
from typing import Any

from omnireader.formats.layout import pdfium_calls
from omnireader.formats.layout.pdfium_calls import calls, handle

__all__ = ["quarter_votes", "text_rotation"]


def text_rotation(textpage: Any, sample: int = 400, compiled: bool = True) -> int:
    """The page rotation (0, 90, 180, 270) that makes most of the page's text upright.

    A table printed sideways (its text running bottom to top) is read by setting this as
    the page's rotation before reading words and rules, and restoring it after:
    ``page_words`` and :func:`page_rules` apply ``/Rotate``, so both come out upright. The
    sample is read by the compiled loop where it is built and ``compiled`` is true.
    """
    votes = quarter_votes(textpage, sample, compiled)
    best = max(range(4), key=lambda k: votes[k])
    if votes[best] <= 0.6 * max(1, sum(votes)):
        return 0  # sideways only when most of the text is: a rotated label leaves the page be
    # PDFium measures the angle clockwise; /Rotate turns the page clockwise too, so the
    # text is undone by the opposite turn.
    return (4 - best) % 4 * 90


def quarter_votes(
    textpage: Any, sample: int = 0, compiled: bool = True, every: int = 0
) -> list[int]:
    """How many of the page's characters (about ``sample`` of them, or each ``every``-th,
    or every one; spaces aside) run at each quarter turn (0, 90, 180, 270 degrees, as PDFium
    measures)."""
    import pypdfium2.raw as pdfium_c

    raw = textpage.raw
    count = pdfium_c.FPDFText_CountChars(raw)
    step = every or (max(1, count // sample) if sample else 1)
    fast = pdfium_calls.compiled("angle_votes", compiled)
    if fast is not None:
        c = calls()
        functions = c.addresses(("FPDFText_GetUnicode", "FPDFText_GetCharAngle"))
        return list(fast(handle(raw), functions, count, step))
    votes = [0, 0, 0, 0]
    for index in range(0, count, step):
        if pdfium_c.FPDFText_GetUnicode(raw, index) <= 32:
            continue
        angle = pdfium_c.FPDFText_GetCharAngle(raw, index)
        if angle < 0:
            continue
        votes[round(math.degrees(angle) / 90) % 4] += 1
    return votes
