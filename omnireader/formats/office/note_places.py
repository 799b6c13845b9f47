"""Footnotes and endnotes beside the text that cites them.

A word processor prints a footnote at the foot of its page and an endnote at the end of the
document; a reader that lists them all after the body puts every note in the document's
last chunk, under its last heading, away from the sentence it explains. Here each note's
Markdown definition goes right after the block that cites it, so the chunk that holds the
sentence holds its note too:

    place_notes(["# Lake\\n\\nThe lake is deep.[^1]\\n\\nIt is cold."], {"1": "Measured in 2024."})
    # ["# Lake\\n\\nThe lake is deep.[^1]\\n\\n[^1]: Measured in 2024.\\n\\nIt is cold."]

A block is the text between blank lines (a paragraph, a whole table, a whole list), so a
note cited in a table cell or a list item follows the table or the list; one cited in a
heading follows the paragraph under it. DOCX (and DOC, converted to DOCX), ODT and RTF
use it (RTF with a line as its block: its paragraphs are lines).
"""

from __future__ import annotations

import re

__all__ = ["place_notes", "note_line"]

_MARK = re.compile(r"\[\^([^\]\s]+)\](?!:)")


def note_line(label: str, text: str) -> str:
    """A note's Markdown definition, on one line."""
    return f"[^{label}]: {' '.join(text.split())}"


def place_notes(texts: list[str], notes: dict[str, str], by_line: bool = False) -> list[str]:
    """``texts`` (a document's sections, in order) with each of ``notes`` (label → text)
    defined after the block holding its first ``[^label]`` mark; a note no block cites
    (its mark sat where the text was not read) goes after the last text, as before.
    ``by_line``: the text's paragraphs are lines (RTF), so a block is a line, or a table's
    rows together."""
    placed: set[str] = set()
    out = [_place_in(text, notes, placed, by_line) for text in texts]
    rest = [note_line(label, text) for label, text in notes.items() if label not in placed]
    if rest:
        if out:
            out[-1] = (out[-1].rstrip() + "\n\n" if out[-1].strip() else "") + "\n".join(rest)
        else:
            out.append("\n".join(rest))
    return out


def _blocks(text: str, by_line: bool) -> tuple[list[str], str]:
    """The blocks of ``text`` and what joins them again."""
    if not by_line:
        return text.split("\n\n"), "\n\n"
    blocks: list[str] = []
    for line in text.split("\n"):
        row = line.lstrip().startswith("|")
        if row and blocks and blocks[-1].lstrip().startswith("|"):
            blocks[-1] += "\n" + line  # a table's rows are one block
        else:
            blocks.append(line)
    return blocks, "\n"


def _place_in(text: str, notes: dict[str, str], placed: set[str], by_line: bool) -> str:
    blocks, joint = _blocks(text, by_line)
    pieces: list[str] = []
    pending: list[str] = []
    for block in blocks:
        pieces.append(block)
        for label in _MARK.findall(block):
            if label in notes and label not in placed:
                placed.add(label)
                pending.append(label)
        # A heading keeps its own text under it: its notes wait for the next block.
        if pending and not block.lstrip().startswith("#"):
            pieces.append("\n".join(note_line(label, notes[label]) for label in pending))
            pending = []
    if pending:
        pieces.append("\n".join(note_line(label, notes[label]) for label in pending))
    return joint.join(pieces)
