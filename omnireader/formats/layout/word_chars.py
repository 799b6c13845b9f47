"""A PDF word's characters: the page's text as one code unit per character index, and a
run's characters as they read (ligatures expanded, PDFium's marks of a folded hyphen made
hyphens, the marks of a line break undone inside a word dropped)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from omnireader.formats.layout.word_joins import JOINED

if TYPE_CHECKING:
    import pypdfium2

__all__ = ["BREAKS", "LIGATURES", "Expand", "char_text", "expand"]

#: Presentation-form ligatures and what they stand for (U+FB00..U+FB06).
LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
}
# PDFium's markers for a line-end hyphen it has folded: they are hyphens on the page.
_HYPHEN_MARKS = {"\x02": "-", "\ufffe": "-", "\u00ad": "-"}
REPLACE = {**LIGATURES, **_HYPHEN_MARKS, JOINED: ""}
# What ends a word: whitespace (PDFium's generated spaces and line breaks among it), NUL
# and the zero-width space; a run is what lies between.
BREAKS = frozenset(" \t\r\n\x00\x0b\x0c\xa0\u2002\u2003\u2009\u200a\u200b\u3000")


def expand(chars: str) -> str:
    """Ligatures expanded, hyphen markers made hyphens."""
    return "".join(REPLACE.get(ch, ch) for ch in chars if ch not in BREAKS)


class Expand:
    """:func:`expand`, with a page's stand-ins for glyphs read back from their names."""

    def __init__(self, expansions: dict[str, str]) -> None:
        self.replace = {**REPLACE, **expansions}

    def __call__(self, chars: str) -> str:
        get = self.replace.get
        return "".join(get(ch, ch) for ch in chars if ch not in BREAKS)


def char_text(textpage: pypdfium2.PdfTextPage, raw: object, count: int) -> str:
    """The characters' text, one code unit per char index.

    ``get_text_range`` is one C call; a page whose text has surrogate pairs (or any other
    mismatch of length) is read char by char instead, which keeps the indices aligned.
    """
    import pypdfium2.raw as pdfium_c

    try:
        text = textpage.get_text_range(0, count, errors="replace")
    except Exception:  # noqa: BLE001 - a decoding quirk; the per-char path below is exact
        text = ""
    if len(text) == count:
        return text
    get = pdfium_c.FPDFText_GetUnicode
    out = []
    for index in range(count):
        code = get(raw, index)
        out.append(chr(code) if 0 < code < 0x110000 and not 0xD800 <= code < 0xE000 else " ")
    return "".join(out)
