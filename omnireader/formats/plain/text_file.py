"""Plain text files: decoded in whatever encoding they are in, as one section. Also the
last test of the sniff chain: whatever decodes as text and no other text test claims."""

from __future__ import annotations

import re

from omnireader.errors import EncryptedError
from omnireader.formats.document import DocInfo, Extraction, Section
from omnireader.formats.plain.text import decode_text
from omnireader.formats.registry import Format, Magic
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["one_section", "FORMATS"]


def one_section(text: str, info: DocInfo | None = None) -> Extraction:
    """A document that is one section of ``text``."""
    return Extraction(info=info or DocInfo(), sections=iter([Section(text=text)]))


_PGP = re.compile(r"\s*-----BEGIN PGP MESSAGE-----.*?-----END PGP MESSAGE-----\s*", re.S)


def _read_text(blob: Blob, options: ReadOptions) -> Extraction:
    text = decode_text(blob.read_bytes(), blob.label).lstrip("\ufeff")
    if _PGP.fullmatch(text):  # an armoured PGP message (.asc): ciphertext is not content
        raise EncryptedError(blob.label, "a PGP-encrypted message; its text is not stored")
    return one_section(text)


FORMATS = (
    Format(
        name="text",
        rank=25,
        display="TXT/MD",
        extensions=(".txt", ".text", ".log"),
        mimes=("text/plain",),
        # last of the byte tests: whatever decodes as text is text, unless a text test
        # (RTF, mail, HTML, JSON, ...) says which text it is
        magic=(Magic(1000, lambda p: p.decodes_as_text()),),
        refines="text",
        extract=_read_text,
        readme_group="text, Markdown, JSON, XML",
        readme="any encoding (BOM-less UTF-16 / UTF-32 too, legacy code pages via "
        "charset-normalizer, Windows-1252 against -1250 by which reading spells one language; "
        "text double-encoded at its source repaired); Markdown keeps its code and drops raw HTML, its YAML front matter "
        "giving the title, date and authors; XML in its declared encoding",
    ),
)
