"""Check boxes and bullets drawn in Wingdings, read as the marks they show.

A Wingdings font without a ToUnicode map gives PDFium its codes only: the empty box a
filing's cover ticks is "¨" (0xA8), the ticked one "x" or "ý", a bullet "§" or "Ø", so the
text read "Yes x No ¨". A font that maps its codes to the Private Use Area (U+F0A8) says
no more. Only words in a font named Wingdings (not Wingdings 2 or 3, whose codes mean
other marks) are read this way, one code a mark (the font's own table, Microsoft's
Unicode map for it).
"""

from __future__ import annotations

import re

from omnireader.formats.layout.model import Word

__all__ = ["read_symbols"]

# Wingdings code → the mark it draws (boxes as the rest of the reader writes them).
_MARKS = {
    0x6C: "\u25cf",  # l  ● bullet
    0x6E: "\u25a0",  # n  ■
    0x6F: "\u2610",  # o  □ an empty box
    0x71: "\u2610",  # q  ❑ an empty box (shadowed)
    0x78: "\u2612",  # x  ⌧ a box with an X: ticked
    0x9F: "\u2022",  # Ÿ  • small bullet
    0xA7: "\u25aa",  # §  ▪ square bullet
    0xA8: "\u2610",  # ¨  ◻ an empty box
    0xD8: "\u27a2",  # Ø  ➢ arrow bullet
    0xFB: "\u2717",  # û  ✗
    0xFC: "\u2713",  # ü  ✓
    0xFD: "\u2612",  # ý  ☒
    0xFE: "\u2611",  # þ  ☑
}
# "ABCDEF+Wingdings-Regular", "Wingdings,Bold"; not "Wingdings2", "Wingdings 3".
_WINGDINGS = re.compile(r"(?:^|\+)wingdings(?![ -]?[23])", re.IGNORECASE)


def read_symbols(words: list[Word]) -> list[Word]:
    """``words`` with each one set in Wingdings read as its marks (the same list)."""
    # A page sets its words in a few fonts: each font's name is matched once, not a word's.
    symbols = {font for font in {w.font for w in words} if font and _WINGDINGS.search(font)}
    if not symbols:
        return words
    for word in words:
        if word.font in symbols:
            word.text = "".join(_mark(ch) for ch in word.text)
    return words


def _mark(ch: str) -> str:
    code = ord(ch)
    if 0xF020 <= code <= 0xF0FF:  # the font's codes moved to the Private Use Area
        code -= 0xF000
    return _MARKS.get(code, ch)
