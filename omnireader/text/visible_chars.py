"""How many characters of a text are not whitespace: what a PDF page's checks weigh its text
by (a near-empty page, the share a layout keeps, the share of glyphs that are no text).

``len("".join(text.split()))`` builds a string a word and one more to count them: ~85 µs
for a filing page's 5,000 characters, and the reader counted each page's text three times
over (its flags, the layout's kept-characters check, the blocks and table cells that
check adds up). The compiled count (``_scan.non_space``, the same whitespace:
``Py_UNICODE_ISSPACE`` is ``str.split``'s) walks the characters once, ~5 µs.
"""

from __future__ import annotations

try:  # the compiled count (optional: built by setup.py where a C compiler is)
    from omnireader.text import _scan as scan
except ImportError:  # pragma: no cover - exercised where no compiler built it
    scan = None

__all__ = ["visible_chars"]


def visible_chars(text: str, compiled: bool = True) -> int:
    """The characters of ``text`` that are not whitespace; by the compiled count where it
    is built and ``compiled`` is true (tests compare the two)."""
    count = getattr(scan, "non_space", None) if compiled else None
    if count is not None:
        return int(count(text))
    return len("".join(text.split()))
