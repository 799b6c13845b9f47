"""An OpenDocument text's footnotes and endnotes, cited as the DOCX reader cites them.

odfdo's Markdown writes a note as its citation in brackets ("rather[1]") and lists every
note's body as a numbered list after the body ("1. This is …"), where nothing ties the two
and the list reads as the document's own last list. Each ``text:note`` is taken out
before the Markdown is written and a marker left in its place; the marker becomes
``[^1]`` (``[^e1]`` for an endnote) and :func:`.note_places.place_notes` puts the note's
text after the block citing it:

    notes = take_notes(doc)          # before doc.to_markdown()
    text = cite_notes(markdown)      # "rather[^1]"
    [text] = place_notes([text], notes)
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["take_notes", "cite_notes"]

_MARKER = "\ue002"  # private use (odf_objects marks with U+E001): odfdo keeps it as is
_MARKED = re.compile(_MARKER + r"([^\ue002\s]{1,20})" + _MARKER)


def take_notes(doc: Any) -> dict[str, str]:
    """Replace each note of ``doc``'s body by a marker; the notes' texts by label, in
    document order. The label is the citation the document shows ("1", "*", "iv"), an
    endnote's with an "e" before it; a note without one is numbered."""
    from odfdo import Span

    notes: dict[str, str] = {}
    for n, note in enumerate(doc.body.get_notes(), 1):
        prefix = "e" if note.note_class == "endnote" else ""
        citation = "".join((note.citation or "").split())[:12] or str(n)
        label = f"{prefix}{citation}"
        if label in notes:  # two notes showing one citation: keep both, apart
            label = f"{label}.{n}"
        body = note.note_body
        text = " ".join(body.split()) if isinstance(body, str) else ""
        marker = Span(f"{_MARKER}{label}{_MARKER}")
        marker.tail = note.tail
        note.parent.replace_element(note, marker)
        if text:
            notes[label] = text
    return notes


def cite_notes(text: str) -> str:
    """``text`` with each note's marker written as its Markdown reference, ``[^label]``."""
    return _MARKED.sub(lambda m: f"[^{m.group(1)}]", text)
