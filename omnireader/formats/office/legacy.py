"""Legacy Word (.doc) and PowerPoint (.ppt) files, converted to DOCX / PPTX and read there.

    docx_bytes = legacy_to_ooxml(Blob(path="minutes.doc"), "doc", password=None)

msdoc2docx and ppt2pptx (both MIT, pure Python, no executables) convert the binary
formats to Office Open XML, keeping headings, lists, tables, text boxes, headers, footers,
footnotes, comments and speaker notes, so the DOCX and PPTX readers give the same
Markdown sections as for modern files. Both read RC4-encrypted files with the password.
When a converter refuses a file (Word 95, a damaged stream) and LibreOffice's ``soffice``
is on PATH, it converts instead, headless. The converters work on files, so the bytes are
copied into a private temporary folder that is removed at once.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from omnireader.errors import CorruptError, EncryptedError, ReadError, UnsupportedFormatError
from omnireader.payloads import Blob
from omnireader.formats.office.properties import with_ole_dates

__all__ = ["legacy_to_ooxml", "SOFFICE_TIMEOUT"]

SOFFICE_TIMEOUT = 120.0  # seconds for one LibreOffice conversion
_TARGET = {"doc": "docx", "ppt": "pptx"}
_NAME = {"doc": "Word 97-2003 document", "ppt": "PowerPoint 97-2003 presentation"}


def _convert(source: Path, target: Path, kind: str, password: str | None) -> None:
    if kind == "doc":
        from doc2docx import convert
        from doc2docx.errors import EncryptedDocumentError as Locked
    else:
        from ppt2pptx import convert
        from ppt2pptx.errors import EncryptedPresentationError as Locked
    try:
        convert(source, target, password=password)
    except Locked as e:
        raise _Locked(str(e)) from None


class _Locked(Exception):
    """The converter says the file is encrypted (or the password is wrong)."""


def _soffice(source: Path, folder: Path, kind: str) -> Path | None:
    exe = shutil.which("soffice") or shutil.which("libreoffice")
    if exe is None:
        return None
    try:
        subprocess.run(
            [exe, "--headless", "--norestore", "--convert-to", _TARGET[kind], "--outdir",
             str(folder), str(source)],
            check=True, capture_output=True, timeout=SOFFICE_TIMEOUT,
            env={**os.environ, "HOME": str(folder)},  # a LibreOffice profile of its own
        )
    except (subprocess.SubprocessError, OSError):
        return None
    out = folder / f"{source.stem}.{_TARGET[kind]}"
    return out if out.is_file() else None


def legacy_to_ooxml(blob: Blob, kind: str, password: str | None) -> bytes:
    """The bytes of the DOCX (``kind="doc"``) or PPTX (``kind="ppt"``) ``blob`` converts to.

    Raises :class:`EncryptedError` for an encrypted file without (or with the wrong)
    password, :class:`CorruptError` when no converter reads it.
    """
    with tempfile.TemporaryDirectory(prefix="omnireader-") as tmp:
        folder = Path(tmp)
        source = folder / f"input.{kind}"
        source.write_bytes(blob.read_bytes())
        target = folder / f"output.{_TARGET[kind]}"
        why = ""
        try:
            _convert(source, target, kind, password)
        except _Locked as e:
            hint = "the password is wrong" if password else "pass the password (--password)"
            raise EncryptedError(blob.label, f"the {_NAME[kind]} is encrypted; {hint} "
                                             f"({e})"[:300]) from None
        except RecursionError:
            why = "nested too deeply"
        except ReadError:
            raise
        except Exception as e:  # noqa: BLE001 - a third-party boundary: try LibreOffice
            why = f"{type(e).__name__}: {e}"[:200]
        # The document's own dates live in its SummaryInformation: kept when the
        # converter did not carry them over.
        if target.is_file():
            return with_ole_dates(target.read_bytes(), source.read_bytes())
        converted = _soffice(source, folder / "soffice", kind)
        if converted is not None:
            return with_ole_dates(converted.read_bytes(), source.read_bytes())
    converter = "msdoc2docx" if kind == "doc" else "ppt2pptx"
    if why.startswith("Unsupported"):
        raise UnsupportedFormatError(
            blob.label, f"{converter} cannot convert this {_NAME[kind]} ({why}); install "
            "LibreOffice (soffice on PATH) to read it")
    raise CorruptError(blob.label, f"cannot be read as a {_NAME[kind]} ({converter}: {why}; "
                                   "LibreOffice's soffice is not on PATH to try instead)")
