"""One entry point from a sniffed file to text: document info plus sections.

Each format's record in the registry (:mod:`omnireader.formats.registry`) names its
extractor. A slide deck comes back one section per slide and a workbook one section per
sheet, so provenance can say where.

    with extract(Blob(path="deck.pptx"), "pptx", ReadOptions()) as doc:
        for section in doc.sections:
            print(section.page, section.heading)
"""

from __future__ import annotations

from omnireader.errors import UnsupportedFormatError
from omnireader.formats import registry
from omnireader.formats.document import Extraction
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["extract", "supported"]


def supported() -> str:
    """The formats omnireader reads, as the ``unsupported`` error lists them."""
    return registry.supported_text()


def extract(blob: Blob, kind: str, options: ReadOptions) -> Extraction:
    """Document info and sections of ``blob``, already sniffed as ``kind``.

    Raises :class:`UnsupportedFormatError` (naming the input and what is supported) for
    kinds no extractor reads, and the extractors' own typed errors (encrypted, corrupt).
    """
    fmt = registry.get(kind) or registry.by_kind(kind)
    if fmt is None or fmt.extract is None:
        hint = (
            fmt.hint
            if fmt is not None and fmt.hint
            else (f"not a supported format (sniffed as {blob.mime or 'application/octet-stream'})")
        )
        raise UnsupportedFormatError(blob.label, f"{hint}; supported: {supported()}")
    if fmt.zip_package:
        from omnireader.formats.archives.zip import check_package

        check_package(blob, options)
    try:
        return fmt.extract(blob, options)
    except ImportError as e:
        if fmt.package is None:
            raise
        raise registry.missing_package(fmt, blob.label, e) from None
