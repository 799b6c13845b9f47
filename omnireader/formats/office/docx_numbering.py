"""The labels Word shows on numbered paragraphs: "1.", "2.", "II.", "A)", "1.2.", "iv.".

A numbered paragraph holds no number in the XML: Word counts it from ``numbering.xml``
(each list level's format, label pattern and start, a list's overrides) as the document
goes. Written as "1." on every item, the numbers a text refers to ("see step 3") and the
labels of outlines (I, A, 1, a, i) are lost; this module counts them the same way.

    numbers = Numbering(numbering_element)
    numbers.marker("3", 0)   # "1." then "2." ... for list 3's top level; None: a bullet

A decimal label of its own level only ("%1.", "%2)") is a Markdown ordered-list marker
with the right number; any other label (roman, letters, "1.2.") is kept as text after a
"-" marker, so the item stays a list item.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

__all__ = ["Numbering"]

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_UNORDERED = ("bullet", "none", "")
_PLACEHOLDER = re.compile(r"%([1-9])")
_ROMAN = [
    (1000, "m"),
    (900, "cm"),
    (500, "d"),
    (400, "cd"),
    (100, "c"),
    (90, "xc"),
    (50, "l"),
    (40, "xl"),
    (10, "x"),
    (9, "ix"),
    (5, "v"),
    (4, "iv"),
    (1, "i"),
]


class _Level(NamedTuple):
    fmt: str  # w:numFmt: decimal, upperRoman, lowerLetter, bullet...
    text: str  # w:lvlText: "%1.", "%1.%2.", "(%1)"
    start: int


def _val(el: Any, name: str) -> str | None:
    child = el.find(W + name)
    return child.get(W + "val") if child is not None else None


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def _levels(abstract: Any) -> dict[int, _Level]:
    return {_int(lvl.get(W + "ilvl"), 0): _level(lvl) for lvl in abstract.iter(W + "lvl")}


def _level(lvl: Any) -> _Level:
    return _Level(
        _val(lvl, "numFmt") or "bullet", _val(lvl, "lvlText") or "", _int(_val(lvl, "start"), 1)
    )


def _roman(n: int) -> str:
    out = []
    for value, digits in _ROMAN:
        count, n = divmod(n, value)
        out.append(digits * count)
    return "".join(out)


def _letters(n: int) -> str:
    # Word's letters: a..z, then aa..zz, aaa..zzz (not spreadsheet columns).
    return chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1) if n > 0 else ""


def _format(n: int, fmt: str) -> str:
    if fmt in ("upperRoman", "lowerRoman"):
        text = _roman(n)
        return text.upper() if fmt == "upperRoman" else text
    if fmt in ("upperLetter", "lowerLetter"):
        text = _letters(n)
        return text.upper() if fmt == "upperLetter" else text
    if fmt == "decimalZero":
        return f"{n:02d}"
    return str(n)  # decimal, and formats not rendered here (ordinals, CJK counting)


class Numbering:
    """Each list's levels (from ``numbering.xml``) and its counters, in document order."""

    def __init__(self, element: Any | None) -> None:
        self._lists: dict[str, dict[int, _Level]] = {}
        self._counts: dict[str, dict[int, int]] = {}
        if element is None:
            return
        abstracts = {
            a.get(W + "abstractNumId") or "": _levels(a) for a in element.iter(W + "abstractNum")
        }
        for num in element.iter(W + "num"):
            levels = dict(abstracts.get(_val(num, "abstractNumId") or "", {}))
            for override in num.iter(W + "lvlOverride"):
                ilvl = _int(override.get(W + "ilvl"), 0)
                lvl = override.find(W + "lvl")
                if lvl is not None:
                    levels[ilvl] = _level(lvl)
                start = _val(override, "startOverride")
                if start is not None and ilvl in levels:
                    levels[ilvl] = levels[ilvl]._replace(start=_int(start, 1))
            self._lists[num.get(W + "numId") or ""] = levels

    def ordered(self, num_id: str, ilvl: int) -> bool:
        level = self._lists.get(num_id, {}).get(ilvl)
        return level is not None and level.fmt not in _UNORDERED

    def marker(self, num_id: str, ilvl: int) -> str | None:
        """The Markdown marker of the next paragraph of list ``num_id`` at level ``ilvl``
        ("3.", "- II.", "- 1.2."), counting it; None for a bullet or an unknown list."""
        levels = self._lists.get(num_id, {})
        level = levels.get(ilvl)
        if level is None or level.fmt in _UNORDERED:
            return None
        counts = self._counts.setdefault(num_id, {})
        counts[ilvl] = counts.get(ilvl, level.start - 1) + 1
        for deeper in [k for k in counts if k > ilvl]:
            del counts[deeper]  # a new item restarts the levels under it

        def number(match: re.Match[str]) -> str:
            k = int(match.group(1)) - 1
            lvl = levels.get(k)
            if lvl is None:
                return ""
            return _format(counts.get(k, lvl.start), lvl.fmt)

        label = _PLACEHOLDER.sub(number, level.text).strip()
        own = re.fullmatch(rf"%{ilvl + 1}([.)])", level.text.strip())
        if own and level.fmt == "decimal":
            return f"{counts[ilvl]}{own.group(1)}"
        return f"- {label}" if label else "-"
