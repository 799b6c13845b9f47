"""A PPTX text frame as Markdown: its paragraphs, list items marked and indented by level.

A paragraph is a bullet or a numbered item when its own properties say so (``a:buChar`` /
``a:buAutoNum``) or when it sits in a body placeholder, whose master list style is
bulleted, unless ``a:buNone`` turns that off; its level is its indentation.
"""

from __future__ import annotations

from typing import Any

__all__ = ["frame_markdown"]

_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"


def frame_markdown(frame: Any, inherited_bullets: bool) -> str:
    """The paragraphs of a text frame, list items marked and indented by level."""
    lines: list[str] = []
    counters: dict[int, int] = {}
    for paragraph in frame.paragraphs:
        text = " ".join(paragraph.text.replace("\v", " ").split())
        if not text:
            counters.clear()  # an empty line ends a numbered run
            continue
        level = min(max(paragraph.level, 0), 8)
        kind, start = _list_kind(paragraph, inherited_bullets)
        if kind is None:
            counters.clear()
            lines.append(text)
            continue
        for deeper in [k for k in counters if k > level]:
            del counters[deeper]
        # CommonMark nests an item under its parent when it is indented past the parent's
        # marker: 2 spaces a level under "- ", 3 under "1. " (kept to 2 for bullets).
        indent = "  " * level if kind == "bullet" else "   " * level
        if kind == "number":
            counters[level] = counters.get(level, start - 1) + 1
            lines.append(f"{indent}{counters[level]}. {text}")
        else:
            counters.pop(level, None)
            lines.append(f"{indent}- {text}")
    return _join(lines)


def _join(lines: list[str]) -> str:
    """Lines of one frame: list items one under another, other paragraphs apart."""
    out: list[str] = []
    for line in lines:
        if out and not (_is_item(line) and _is_item(out[-1])):
            out.append("")
        out.append(line)
    return "\n".join(out)


def _is_item(line: str) -> bool:
    stripped = line.lstrip()
    head = stripped.split(" ", 1)[0]
    return stripped.startswith("- ") or (head.endswith(".") and head[:-1].isdigit())


def _list_kind(paragraph: Any, inherited_bullets: bool) -> tuple[str | None, int]:
    """("bullet" | "number" | None, first number) from the paragraph's own properties,
    else from the placeholder it sits in."""
    ppr = paragraph._p.find(f"{_A}pPr")
    if ppr is not None:
        if ppr.find(f"{_A}buNone") is not None:
            return None, 1
        auto = ppr.find(f"{_A}buAutoNum")
        if auto is not None:
            try:
                return "number", max(int(auto.get("startAt") or 1), 0)
            except ValueError:
                return "number", 1
        if ppr.find(f"{_A}buChar") is not None or ppr.find(f"{_A}buBlip") is not None:
            return "bullet", 1
    return ("bullet", 1) if inherited_bullets else (None, 1)
