"""A line's text in reading order: words left to right, runs of right-to-left words
(Hebrew, Arabic) turned back, the whole line first when most of it runs right to left.
PDFium gives glyphs where they stand on the page, which for right-to-left text is the
reverse of the order they are read in."""

from __future__ import annotations

from omnireader.formats.layout.model import Word

__all__ = ["line_text"]


def line_text(words: list[Word]) -> str:
    """Words sorted left to right as a line's text, right-to-left runs in reading order."""
    text = " ".join([w.text for w in words])
    # An ASCII line (most lines) has no right-to-left word: checked at C speed.
    if text.isascii() or not any(_is_rtl(w.text) for w in words):
        return text
    return " ".join([w.text for w in _visual_to_logical(words)])


def _is_rtl(text: str) -> bool:
    code = ord(text[0]) if text else 0
    return 0x0590 <= code <= 0x08FF or 0xFB1D <= code <= 0xFEFC


def _visual_to_logical(words: list[Word]) -> list[Word]:
    """Words sorted left to right, in reading order: runs of right-to-left words reversed
    (the whole line first, when most of it is right to left)."""
    rtl_base = sum(len(w.text) for w in words if _is_rtl(w.text)) * 2 > sum(
        len(w.text) for w in words
    )
    seq = list(reversed(words)) if rtl_base else list(words)
    out: list[Word] = []
    run: list[Word] = []
    for word in seq:
        # In a right-to-left line the left-to-right runs are the ones to turn back.
        if _is_rtl(word.text) != rtl_base:
            run.append(word)
            continue
        out.extend(reversed(run))
        run = []
        out.append(word)
    out.extend(reversed(run))
    return out
