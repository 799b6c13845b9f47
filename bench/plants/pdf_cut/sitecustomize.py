"""Planted bug: every PDF page's text is cut to $OMNIREADER_PLANT_CHARS characters (10).

Loaded by every Python process of a run through PYTHONPATH (see ``bench/plants``)."""

import os

import omnireader.formats.pdf as _pdf

_CHARS = int(os.environ.get("OMNIREADER_PLANT_CHARS", "10"))
_read_page = _pdf._read_page  # fails loudly if the PDF reader changed shape: fix the plant


def _cut_page(doc, index):  # type: ignore[no-untyped-def]
    section = _read_page(doc, index)
    return section.model_copy(update={"text": section.text[:_CHARS]})


_pdf._read_page = _cut_page
