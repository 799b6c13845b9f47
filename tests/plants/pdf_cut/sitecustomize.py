"""Planted bug: every PDF page's text is cut to $OMNIREADER_PLANT_CHARS characters (10).

Loaded by every Python process of a run through PYTHONPATH (see ``tests/plants``)."""

import os

import omnireader.formats.pdf.page as _page

_CHARS = int(os.environ.get("OMNIREADER_PLANT_CHARS", "10"))
_read_layer = _page._read_layer  # fails loudly if the PDF reader changed shape: fix the plant


def _cut_layer(doc, index):  # type: ignore[no-untyped-def]
    section, notes = _read_layer(doc, index)
    return section.model_copy(update={"text": section.text[:_CHARS]}), notes


_page._read_layer = _cut_layer
