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
from omnireader.formats.document import Extraction
from omnireader.formats.office.properties import with_ole_dates
from omnireader.formats.registry import Format, Magic
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

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
            [
                exe,
                "--headless",
                "--norestore",
                "--convert-to",
                _TARGET[kind],
                "--outdir",
                str(folder),
                str(source),
            ],
            check=True,
            capture_output=True,
            timeout=SOFFICE_TIMEOUT,
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
            raise EncryptedError(
                blob.label, f"the {_NAME[kind]} is encrypted; {hint} ({e})"[:300]
            ) from None
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
            blob.label,
            f"{converter} cannot convert this {_NAME[kind]} ({why}); install "
            "LibreOffice (soffice on PATH) to read it",
        )
    raise CorruptError(
        blob.label,
        f"cannot be read as a {_NAME[kind]} ({converter}: {why}; "
        "LibreOffice's soffice is not on PATH to try instead)",
    )


def _read_converted(kind: str):  # noqa: ANN202 - a reader for one kind
    """Legacy Word / PowerPoint converted to DOCX / PPTX, or a protected Office package
    decrypted, then read like the modern file it now is."""

    def read(blob: Blob, options: ReadOptions) -> Extraction:
        from omnireader.formats.extract import extract

        password = options.password or blob.password
        if kind == "office-encrypted":
            from omnireader.formats.office.ooxml_crypto import decrypt_office
            from omnireader.formats.sniff import sniff

            data = decrypt_office(blob, password)
            inner = sniff(data, blob.display_name).kind
            if inner not in ("docx", "xlsx", "pptx"):
                raise UnsupportedFormatError(
                    blob.label,
                    f"decrypted, but the package inside is not DOCX, XLSX or "
                    f"PPTX (sniffed as {inner})",
                )
        else:
            data = legacy_to_ooxml(blob, kind, password)
            inner = "docx" if kind == "doc" else "pptx"
        out = extract(blob.model_copy(update={"data": data}), inner, options)
        out.info.extra.setdefault("converted_from", kind)
        if kind == "office-encrypted":  # a DOCX behind a password is a DOCX: items say so
            out.info.extra["read_as"] = inner
        return out

    return read


def _ole_extension(ext: str):  # noqa: ANN202
    # Only a head (over 1 MiB, the stream names unreadable): the name decides.
    return lambda p: p.ole_names is None and p.ext == ext


_OLE = "application/x-ole-storage"
FORMATS = (
    Format(
        name="ole",
        display="OLE compound file",
        mimes=(_OLE,),
        listed=False,
        magic=(Magic(40, lambda p: p.head.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")),),
        refines="ole",
        resniff_whole=True,
        hint="an OLE compound file that is none of Word, PowerPoint, Excel, Outlook or "
        "password-protected Office (no WordDocument, PowerPoint Document, Workbook, "
        "__substg1.0_ or EncryptedPackage stream)",
    ),
    Format(
        name="office-encrypted",
        display="password-protected DOCX / XLSX / PPTX",
        mimes=(_OLE,),
        listed=False,
        magic=(Magic(11, lambda p: p.ole_has("EncryptedPackage", "EncryptionInfo"), "ole"),),
        extract=_read_converted("office-encrypted"),
        readme="`encrypted`; with `--password` / `Reader(password=…)` decrypted in memory "
        "(msoffcrypto-tool) and read as usual",
    ),
    Format(
        name="doc",
        rank=6,
        display="DOC",
        extensions=(".doc",),
        mimes=("application/msword",),
        magic=(
            Magic(12, lambda p: p.ole_has("WordDocument"), "ole"),
            Magic(52, _ole_extension(".doc"), "ole"),
        ),
        extract=_read_converted("doc"),
        readme_group="DOC, PPT (Word / PowerPoint 97–2003)",
        readme="converted in pure Python by msdoc2docx / ppt2pptx, then read as DOCX / PPTX; "
        "LibreOffice's `soffice`, when on PATH, for what they refuse",
    ),
    Format(
        name="ppt",
        rank=7,
        display="PPT",
        extensions=(".ppt",),
        mimes=("application/vnd.ms-powerpoint",),
        magic=(
            Magic(13, lambda p: p.ole_has("PowerPoint Document"), "ole"),
            Magic(53, _ole_extension(".ppt"), "ole"),
        ),
        extract=_read_converted("ppt"),
        readme_group="DOC, PPT (Word / PowerPoint 97–2003)",
    ),
)
