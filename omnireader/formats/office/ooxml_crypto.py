"""Password-protected Office files (OLE ``EncryptionInfo`` + ``EncryptedPackage``).

Word, Excel and PowerPoint save a protected DOCX / XLSX / PPTX inside an OLE file. Without
a password it is reported ``encrypted``; with one (``--password``, ``Reader(password=...)``)
msoffcrypto-tool (MIT) decrypts it in memory and the package is read like any other:

    package = decrypt_office(Blob(path="budget.xlsx"), password="s3cret")   # XLSX bytes

A wrong password is ``encrypted`` too, saying the password did not open it.
"""

from __future__ import annotations

import io

from omnireader.errors import CorruptError, EncryptedError
from omnireader.payloads import Blob

__all__ = ["decrypt_office"]

_HINT = "pass the password (--password / Reader(password=...))"


def decrypt_office(blob: Blob, password: str | None) -> bytes:
    """The decrypted package (DOCX, XLSX or PPTX bytes) of the protected file ``blob``."""
    if not password:
        raise EncryptedError(blob.label, f"a password-protected Office file; {_HINT}")
    import msoffcrypto
    from msoffcrypto.exceptions import DecryptionError, FileFormatError, InvalidKeyError

    out = io.BytesIO()
    try:
        office = msoffcrypto.OfficeFile(io.BytesIO(blob.read_bytes()))
        office.load_key(password=password, verify_password=True)
        office.decrypt(out)
    except (InvalidKeyError, DecryptionError):
        raise EncryptedError(
            blob.label, "a password-protected Office file, and the password given does not open it"
        ) from None
    except (FileFormatError, ValueError, KeyError, OSError, AssertionError) as e:
        raise CorruptError(
            blob.label, f"a damaged password-protected Office file ({type(e).__name__}: {e})"
        ) from None
    return out.getvalue()
