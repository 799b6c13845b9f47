"""Text turned sideways in a page's side margin: an arXiv identifier running up the left
edge, a "Downloaded from … on …" strip up the right one, a journal's vertical banner.

Its glyphs stand one above the other, so each is a word of its own, and the line maker put
each beside whatever body line shares its height: "… while the L farmer …", a paragraph
broken by letters down the margin. A run of characters turned a quarter (or more) from the
page's text, lying wholly left or right of every upright word, is taken out of the words
and read as one line in its own order. It comes back as a block of kind ``header``: the
furniture window sets it apart from the body on every page alike, and the stream gives
each distinct text once as the document's header part. Turned text among the upright
words (a table's vertical column heads, a chart's slanted labels) is left to the table
and line readers.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from omnireader.formats.layout import pdfium_calls
from omnireader.formats.layout.model import Block, Word
from omnireader.formats.layout.pdfium_calls import calls
from omnireader.formats.layout.pdfium_calls import handle as as_int
from omnireader.formats.layout.text_rotation import quarter_votes
from omnireader.formats.layout.transform import page_transform
from omnireader.formats.layout.word_chars import LIGATURES
from omnireader.formats.layout.words import page_words

if TYPE_CHECKING:
    import pypdfium2

__all__ = ["take_margin_text"]

_SPACES = re.compile(r"\s+")
# Two turned glyphs further apart than this many of the run's line heights start a new run.
_RUN_GAP = 2.0
# Without the compiled loop each character's angle is a ctypes call (~4 ms a page): there
# every this many characters are probed. A turned run is one text object's glyphs, one after
# another in the text page, so a stamp or banner is still seen; a shorter run is not.
_PROBE = 8
# A run this close (points) to the upright text's edge still lies beside it, not over it.
_EDGE_SLACK = 1.0


def take_margin_text(
    page: pypdfium2.PdfPage,
    textpage: pypdfium2.PdfTextPage,
    turn: int,
    hidden: frozenset[int] = frozenset(),
) -> tuple[list[Word], list[Block]]:
    """The page's words (:func:`page_words`, without the ``hidden`` text objects) less the
    glyphs of the text turned sideways in its side margins, and that text as ``header``
    blocks, one a run. ``turn`` is the rotation the page is read at (``text_rotation``):
    what is upright after it is the page's text. Nearly every page has no turned
    character, found in one pass of the compiled loop."""
    words = page_words(page, textpage, hidden)
    every = 1 if pdfium_calls.compiled("angle_votes", True) is not None else _PROBE
    votes = quarter_votes(textpage, every=every)
    upright = (4 - turn // 90) % 4  # the quarter the page's own text runs at
    if sum(votes) == votes[upright]:
        return words, []
    runs = _turned_runs(page, textpage, upright, hidden)
    if not runs:
        return words, []
    inside = [_holds_any(runs, w) for w in words]
    body = [w for w, held in zip(words, inside) if not held]
    if not body:
        return words, []  # nothing upright to stand beside: the page is its turned text
    left = min(w.x0 for w in body)
    right = max(w.x1 for w in body)
    margin = [r for r in runs if r.x1 <= left + _EDGE_SLACK or r.x0 >= right - _EDGE_SLACK]
    if not margin:
        return words, []
    kept = [w for w, held in zip(words, inside) if not (held and _holds_any(margin, w))]
    return kept, [Block("header", r.text, r.x0, r.y0, r.x1, r.y1, size=r.size) for r in margin]


def _holds_any(runs: list[Word], word: Word) -> bool:
    cx, cy = word.cx, word.cy
    return any(r.x0 <= cx <= r.x1 and r.y0 <= cy <= r.y1 for r in runs)


def _turned_runs(
    page: pypdfium2.PdfPage,
    textpage: pypdfium2.PdfTextPage,
    upright: int,
    hidden: frozenset[int],
) -> list[Word]:
    """Runs of characters not at the ``upright`` quarter, in the text's order: each run one
    line of turned text (its box, text, and size as the run's line height)."""
    import pypdfium2.raw as pdfium_c

    raw = textpage.raw
    count = pdfium_c.FPDFText_CountChars(raw)
    text = textpage.get_text_range(0, count, errors="replace")
    if len(text) != count:
        return []  # surrogate pairs shift the indices: leave the page as it is read
    to_page, (left, top) = page_transform(page)
    runs: list[Word] = []
    current: list[tuple[int, float, float, float, float]] = []
    quarter_of_run = -1
    for index in range(count):
        if text[index].isspace() or pdfium_c.FPDFText_GetUnicode(raw, index) <= 32:
            continue
        if hidden and calls().text_object(as_int(raw), index) in hidden:
            continue  # invisible or clipped away (pdf/hidden_text.py), as page_words skips it
        angle = pdfium_c.FPDFText_GetCharAngle(raw, index)
        quarter = round(math.degrees(angle) / 90) % 4 if angle >= 0 else upright
        if quarter == upright:
            if current:
                runs.append(_run(text, current))
                current = []
            continue
        x0, b, x1, t = textpage.get_charbox(index, loose=True)
        box = (x0 - left, top - t, x1 - left, top - b) if to_page is None else to_page(x0, t, x1, b)
        if current and (quarter != quarter_of_run or not _near(current, box)):
            runs.append(_run(text, current))
            current = []
        current.append((index, *box))
        quarter_of_run = quarter
    if current:
        runs.append(_run(text, current))
    return runs


def _near(run: list[tuple[int, float, float, float, float]], box: tuple[float, ...]) -> bool:
    """Whether a glyph's box lies within a couple of line heights of the run's last glyph
    (a line's height across the glyph's run: its narrower side)."""
    _, x0, y0, x1, y1 = run[-1]
    reach = _RUN_GAP * max(1.0, min(x1 - x0, y1 - y0), min(box[2] - box[0], box[3] - box[1]))
    gap_x = max(box[0] - x1, x0 - box[2], 0.0)
    gap_y = max(box[1] - y1, y0 - box[3], 0.0)
    return gap_x <= reach and gap_y <= reach


def _run(text: str, chars: list[tuple[int, float, float, float, float]]) -> Word:
    first, last = chars[0][0], chars[-1][0]
    # The text between the run's first and last glyph, with the spaces PDFium put there.
    raw = "".join(LIGATURES.get(ch, ch) for ch in text[first : last + 1])
    x0 = min(c[1] for c in chars)
    y0 = min(c[2] for c in chars)
    x1 = max(c[3] for c in chars)
    y1 = max(c[4] for c in chars)
    heights = sorted(min(c[3] - c[1], c[4] - c[2]) for c in chars)
    size = round(heights[len(heights) // 2] / 1.15, 2)  # a loose box is ~1.15 em
    return Word(_SPACES.sub(" ", raw).strip(), x0, y0, x1, y1, size)
