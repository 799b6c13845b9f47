"""Which scripts the bundled OCR models read, and telling the lines they cannot.

The one recognition model inside the ``rapidocr`` wheel (PP-OCRv6 small) knows 18,708
characters, its character list stored in the model file: Chinese (simplified and
traditional), Japanese kana, the Latin alphabet with its accented letters (the
Latin-script languages, Vietnamese too), Greek, digits and symbols. It has no Hangul, no
Cyrillic, no Arabic, Hebrew, Devanagari or Thai: PaddleOCR reads those with other models,
which RapidOCR would download (never done here).

The detector finds lines of any script. Given a line in a script it does not know, the
recogniser reads nothing (Korean, Arabic: an empty line) or a few marks ("," "?" of a
Cyrillic sentence) where the line's length holds a dozen characters. Such a line is
*unread*: left out of the text (it would be stored as garbage) and counted, and the page's
items say so (flag :data:`UNREAD_SCRIPT`), naming what the models do read.
"""

from __future__ import annotations

__all__ = ["READS", "UNREAD_SCRIPT", "unread_line", "unread_message"]

#: What the bundled recognition model reads (its character list: see the module).
READS = "Chinese, Japanese, Latin-script languages and Greek"
#: Item flag: the page or picture holds lines of text in a script the models do not read.
UNREAD_SCRIPT = "ocr_unread_script"

# A line at least this many times as long as it is high has room for several characters
# (a Latin letter is about half as wide as high, a Chinese character as wide): shorter
# boxes (a lone digit, an icon) are judged by their confidence alone.
_MIN_SLOTS = 3.0
# Characters read per height of line below this share: the line was not read. Text in a
# known script gives 1-2 per height, so the margin is five- to tenfold.
_MIN_CHARS_PER_SLOT = 0.2
#: A whole line read with less confidence than this was not read (RapidOCR's own cut-off,
#: read.DROP_BELOW: under it a short mark is noise from a picture's edge).
UNSURE = 0.5


def unread_line(text: str, confidence: float, length: float, height: float) -> bool:
    """Whether a detected line ``length`` × ``height`` pixels, read as ``text``, holds far
    fewer characters than its length, or was read with less than ``UNSURE`` confidence:
    text in a script the models do not read (an Arabic line comes back as "3  R" at 0.3)."""
    if height <= 0 or length < _MIN_SLOTS * height:
        return False
    chars = sum(1 for ch in text if not ch.isspace())
    return chars < _MIN_CHARS_PER_SLOT * length / height or confidence < UNSURE


def unread_message(lines: int) -> str:
    """What an item says about ``lines`` unread lines."""
    s = "" if lines == 1 else "s"
    return (
        f"{lines} line{s} of text in a script the OCR models do not read (they read {READS}); "
        "a vision model may read them"
    )
