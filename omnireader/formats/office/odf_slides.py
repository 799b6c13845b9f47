"""The slides of an OpenDocument presentation (.odp) as Markdown, like PPTX slides: the
title frame a heading, outline lists as nested Markdown lists, tables as Markdown tables,
every other frame's paragraphs as lines, and the speaker notes a section of their own.

    for n, page in enumerate(doc.body.get_draw_pages(), 1):
        body, notes = slide_text(page, package)

Read as one run of text, a slide loses what PowerPoint-style readers keep: which line is
the title, which lines are bullets and how deep, where a table's cells are; and the notes
(the speaker's, never on the slide) are mixed into the slide's words.
"""

from __future__ import annotations

import re
import zipfile
from typing import Any

__all__ = ["slide_text"]

_SPACES = re.compile(r"\s+")
_TITLE_CLASSES = {"title"}
_SKIPPED_CLASSES = {"page", "header", "footer", "date-time", "page-number"}


def _line(element: Any) -> str:
    return _SPACES.sub(" ", element.text_recursive or "").strip()


def _blocks(element: Any, depth: int, out: list[str]) -> None:
    """The Markdown lines of ``element``'s paragraphs, lists and tables, in order."""
    for child in element.children:
        tag = child.tag
        if tag in ("text:p", "text:h"):
            line = _line(child)
            if line:
                out.append(("  " * (depth - 1) + "- " + line) if depth else line)
        elif tag == "text:list":
            _list(child, depth + 1, out)
        elif tag == "table:table":
            table = child.to_markdown().strip() if hasattr(child, "to_markdown") else ""
            if table:
                out.append(table)
        elif tag.startswith(("draw:", "text:section")):
            _blocks(child, depth, out)  # a text box, a group of shapes, a section


def _list(element: Any, depth: int, out: list[str]) -> None:
    for item in element.children:
        if item.tag in ("text:list-item", "text:list-header"):
            _blocks(item, depth, out)


def _frame_lines(frame: Any, package: zipfile.ZipFile) -> list[str]:
    kind = frame.get_attribute("presentation:class") or ""
    if kind in _SKIPPED_CLASSES:
        return []  # furniture: page number, footer and date placeholders
    lines: list[str] = []
    _blocks(frame, 0, lines)
    if kind in _TITLE_CLASSES and lines:
        title = " ".join(line.lstrip("- ") for line in lines if line)
        return [f"# {title}"]
    if not lines and frame.get_elements("draw:object"):
        from omnireader.formats.office.odf_objects import object_text

        href = frame.get_elements("draw:object")[0].get_attribute("xlink:href") or ""
        text = object_text(package, href)
        return [text] if text else []
    return lines


def slide_text(page: Any, package: zipfile.ZipFile) -> tuple[str, str]:
    """The slide's Markdown and its speaker notes' text."""
    body: list[str] = []
    notes: list[str] = []
    for child in page.children:
        if child.tag == "presentation:notes":
            for frame in child.children:
                if frame.get_attribute("presentation:class") == "notes":
                    _blocks(frame, 0, notes)
        elif child.tag.startswith("draw:"):
            body += _frame_lines(child, package)
    return "\n\n".join(_joined(body)), "\n".join(notes)


def _joined(lines: list[str]) -> list[str]:
    """Consecutive list items kept together as one list (one block, no blank lines)."""
    blocks: list[str] = []
    for line in lines:
        if (
            blocks
            and line.lstrip().startswith("- ")
            and blocks[-1].split("\n")[-1].lstrip().startswith("- ")
        ):
            blocks[-1] += "\n" + line
        else:
            blocks.append(line)
    return blocks
