"""PDFium's text as plain text: line ends, control characters and hyphen markers cleaned,
at C speed (run on every page)."""

from __future__ import annotations

import re

__all__ = ["clean_pdf_text"]

# C0 controls other than tab / newline, and pdfium's markers for a line-end hyphen it has
# already removed while joining the word (U+FFFE from get_text_range, U+0002 when bounded).
_JUNK = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe]")
_MANY_NEWLINES = re.compile(r"\n{3,}")
# _JUNK's ASCII part, for bytes.translate (\r and \x0c are gone by then, \t \n stay).
_JUNK_ASCII = bytes(c for c in range(0x20) if c not in (0x09, 0x0A, 0x0D))


def clean_pdf_text(text: str) -> str:
    """PDFium text as plain text: ``\\n`` line ends, no NULs / form feeds / hyphen markers.

    The regexes, run on every page, scanned each character in Python's engine: ~0.5 ms a
    page, half as much as pdfium's own extraction. The same edits at C speed: deletion with
    ``bytes.translate`` for ASCII text, and the other two only where they can match.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x0c", "\n")
    if text.isascii():
        text = text.encode("ascii").translate(None, _JUNK_ASCII).decode("ascii")
    else:
        text = _JUNK.sub("", text)
    if " \n" in text or "\t\n" in text:
        # Trailing spaces; the last line's spaces (no \n after them) go with strip().
        text = "\n".join([line.rstrip(" \t") for line in text.split("\n")])
    if "\n\n\n" in text:
        text = _MANY_NEWLINES.sub("\n\n", text)
    return text.strip()
