"""What OCR gives back (positioned lines and blocks in reading order) and what an engine does.

An engine does three things on a page bitmap: find text boxes (``detect``), tell for each
cropped line whether it is upside down (``classify``), and read each line (``recognize``).
Orientation, reading order and limits are the pipeline's work (``ocr/read.py``), the same
for every engine.

Coordinates are fractions of the page's width and height (0..1, origin top left), in the
upright page after the detected rotation is undone, so they do not depend on the
resolution the page was rendered at.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

if TYPE_CHECKING:
    import numpy as np

__all__ = ["BBox", "OcrLine", "OcrBlock", "OcrPage", "OcrEngine", "LOW_CONFIDENCE", "Spans"]

#: (x0, y0, x1, y1) as fractions of the page size.
BBox = tuple[float, float, float, float]

#: The words of a read line and where each lies along its crop: (word, start, end), start
#: and end as fractions of the crop's width; their words joined with spaces are the line's
#: text, except that a number the recogniser ran into the next ("400.013" for "400.01"
#: and "3" a gap apart) is two words. None when the engine cannot say.
Spans = list[tuple[str, float, float]] | None

#: A line read with less confidence than this is kept, but marked ``low_confidence``.
#: From ``bench/bench_ocr.py``'s confidence table: on the damaged pages every line read at
#: 0.95 or more held only right words, and the few lines read between 0.6 and 0.75 held none.
LOW_CONFIDENCE = 0.75


class OcrLine(BaseModel):
    """One line of text: the engine's boxes on one row, merged."""

    text: str
    bbox: BBox
    confidence: float
    # The page it stands on, when not its page's: the rest of a paragraph a page break cut,
    # carried back onto the page where the paragraph began (layout/scan_breaks.py).
    page: int | None = None

    @property
    def low_confidence(self) -> bool:
        return self.confidence < LOW_CONFIDENCE


class OcrBlock(BaseModel):
    """Lines that belong together (a paragraph, a column's run, a table), in reading order.

    With the page layout on, ``kind`` is the layout block's kind (``heading``,
    ``paragraph``, ``list_item``, ``caption``, ``table``) and the lines are Markdown: a
    heading's first line starts with ``#``, a table's lines are its pipe-table rows.
    """

    bbox: BBox
    lines: list[OcrLine] = Field(default_factory=list)
    table: bool = False
    kind: str | None = None
    level: int = 0  # a heading's level (1 = top)

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


class OcrPage(BaseModel):
    """The text OCR found on one page or image, in reading order, and how it was found."""

    engine: str
    blocks: list[OcrBlock] = Field(default_factory=list)
    rotation: int = 0  # degrees the page was turned clockwise (undone before reading)
    width: int = 0  # pixels of the bitmap that was read (after the rotation was undone)
    height: int = 0
    image: int | None = None  # the picture's number on its page, for pictures inside a document
    dropped: int = 0  # lines read as noise (too unsure, no letter or digit) and left out
    # Lines found whose script the models do not read (ocr/scripts.py): left out, counted.
    unread: int = 0
    # The page layout was asked for and failed (or ran out of time): the blocks are the
    # plain reading, rows top to bottom.
    layout_failed: bool = False
    # Why nothing (or not everything) was read: "blank", "no_text", "unread_script",
    # "too_large", "failed: ...".
    note: str | None = None

    @property
    def lines(self) -> list[OcrLine]:
        return [line for block in self.blocks for line in block.lines]

    @property
    def text(self) -> str:
        """Blocks separated by a blank line, lines by a line break."""
        return "\n\n".join(block.text for block in self.blocks if block.lines)

    @property
    def confidence(self) -> float | None:
        """Mean line confidence, weighted by characters; None when nothing was read."""
        lines = self.lines
        chars = sum(len(line.text) for line in lines)
        if not chars:
            return None
        return sum(line.confidence * len(line.text) for line in lines) / chars

    @property
    def low_confidence_lines(self) -> int:
        return sum(1 for line in self.lines if line.low_confidence)


class OcrEngine(ABC):
    """One OCR engine, loaded once per process. Images are ``uint8`` BGR arrays (H, W, 3).

    A quad is four (x, y) corners (top left, top right, bottom right, bottom left of the
    text as the detector saw it), in pixels of the image given to :meth:`detect`.
    """

    #: Names the engine and its models in every item it read, e.g. "rapidocr 3.10.0 PP-OCRv6".
    name: str

    @abstractmethod
    def detect(self, image: np.ndarray) -> list[np.ndarray]:
        """Quads of the text found in ``image``, as float32 arrays of shape (4, 2)."""

    @abstractmethod
    def crop(self, image: np.ndarray, quad: np.ndarray) -> np.ndarray:
        """The text under ``quad``, straightened; tall crops are turned to lie flat."""

    @abstractmethod
    def classify(self, crops: list[np.ndarray]) -> list[tuple[bool, float]]:
        """For each crop: (is it upside down, how sure)."""

    @abstractmethod
    def recognize(self, crops: list[np.ndarray]) -> list[tuple[str, float]]:
        """For each (upright) crop: its text and the engine's confidence (0..1)."""

    def recognize_words(self, crops: list[np.ndarray]) -> list[tuple[str, float, Spans]]:
        """:meth:`recognize`, with where each word lies along its crop (:data:`Spans`).
        This default knows no positions: the layout then spreads a line's words over its
        box by their lengths."""
        return [(text, score, None) for text, score in self.recognize(crops)]

    def describe(self) -> dict[str, Any]:
        """What to say about the engine in a report."""
        return {"engine": self.name}
