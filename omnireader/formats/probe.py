"""What magic tests look at: a file's head, its name, and what its structure shows.

One :class:`Probe` is made per sniff; its views (a ZIP's member names, an OLE file's
stream names, the head decoded for text tests) are worked out once, when a test first
asks, so a PDF never pays for opening a ZIP.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from functools import cached_property
from pathlib import PurePath

from omnireader.formats.plain.text import unicode_head

__all__ = ["Probe"]

# A mail header line ("Name: value"); continuation lines start with white space.
_HEADER = re.compile(rb"^([A-Za-z0-9][A-Za-z0-9_-]{0,60}):")
# Fields only mail has; one of them (or From with To / Subject / Date) makes it a message.
_MAIL_FIELDS = {
    b"received", b"return-path", b"message-id", b"mime-version", b"delivered-to",
    b"x-mailer", b"in-reply-to", b"references", b"dkim-signature", b"x-original-to",
    b"envelope-to", b"resent-from", b"x-mozilla-status", b"thread-topic", b"thread-index",
}  # fmt: skip


class Probe:
    """The bytes being sniffed (``data``: the whole file or its first MiB) and their name."""

    def __init__(self, data: bytes, filename: str | None = None) -> None:
        self.data = data
        self.filename = filename or ""
        self.ext = PurePath(filename).suffix.lower() if filename else ""
        self.head = data[:4096]

    # ------------------------------------------------------------------ ZIP

    @cached_property
    def zip_listing(self) -> tuple[frozenset[str], str | None] | None:
        """The member names and the ``mimetype`` member's text (EPUB, OpenDocument), or
        None when the ZIP cannot be opened (it is then routed as a ZIP, and the archive
        reader reports exactly what is wrong with it)."""
        try:
            with zipfile.ZipFile(io.BytesIO(self.data)) as zf:
                names = frozenset(zf.namelist())
                mimetype = None
                if "mimetype" in names:
                    with zf.open("mimetype") as f:  # bounded: the member may be a bomb
                        mimetype = f.read(100).decode("ascii", "replace").strip()
                return names, mimetype
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, KeyError,
                RuntimeError, NotImplementedError):  # fmt: skip
            return None

    def zip_has(self, name: str) -> bool:
        listing = self.zip_listing
        return listing is not None and name in listing[0]

    @property
    def zip_mimetype(self) -> str | None:
        listing = self.zip_listing
        return listing[1] if listing is not None else None

    # ------------------------------------------------------------------ OLE

    @cached_property
    def ole_names(self) -> list[str] | None:
        """The names at the top of an OLE file, or None when the bytes are not a whole,
        readable OLE file (a head cut at 1 MiB, a damaged file)."""
        import olefile

        try:
            with olefile.OleFileIO(io.BytesIO(self.data)) as ole:
                return [entry.name for entry in ole.root.kids]
        except Exception:  # noqa: BLE001 - olefile raises many types on cut or broken files
            return None

    def ole_has(self, *needs: str) -> bool:
        """Every name in ``needs`` starts a stream or storage at the top of the file (or,
        with only a head, is found as stored: UTF-16-LE)."""
        names = self.ole_names
        if names is not None:
            return all(any(n.startswith(need) for n in names) for need in needs)
        return all(need.encode("utf-16-le") in self.data for need in needs)

    # ----------------------------------------------------------------- text

    @cached_property
    def text_head(self) -> bytes:
        """The head as UTF-8 when it is UTF-16 / UTF-32, else as it is."""
        return unicode_head(self.head) or self.head

    @cached_property
    def stripped(self) -> bytes:
        return self.text_head.lstrip(b"\xef\xbb\xbf \t\r\n")

    @cached_property
    def lowered(self) -> bytes:
        return self.stripped.lower()

    def decodes_as_text(self) -> bool:
        head = self.head
        if b"\x00" in head:
            # UTF-16 / UTF-32 text has NULs (with a BOM, or in a telling pattern without
            # one). Otherwise a stray NUL or two (a mailer's bug) leave text text.
            if unicode_head(head) is not None:
                return True
            if head.count(b"\x00") * 1000 > len(head):
                return False
            head = head.replace(b"\x00", b"")
        if not head:
            return True
        try:
            head.decode("utf-8")
            return True
        except UnicodeDecodeError as e:
            if e.start >= len(head) - 4:  # a multi-byte char cut at the end of the sample
                return True
        # Legacy encodings (cp932, gb18030, latin-1...): mostly printable, few controls.
        controls = sum(1 for b in head if b < 9 or 13 < b < 32)
        return controls / len(head) < 0.01

    def mail_headers(self, head: bytes | None = None) -> bool:
        """True when ``head`` (the stripped text head) opens with a header block only mail
        has."""
        names: list[bytes] = []
        for line in (self.stripped if head is None else head).split(b"\n")[:200]:
            line = line.rstrip(b"\r")
            if not line:
                break  # the end of the header block
            if line[:1] in (b" ", b"\t") and names:
                continue  # a folded header's continuation
            match = _HEADER.match(line)
            if match is None:
                return False
            names.append(match.group(1).lower())
        fields = set(names)
        if fields & _MAIL_FIELDS:
            return True
        return b"from" in fields and bool(fields & {b"to", b"subject", b"date", b"cc"})

    def tab_table(self) -> bool:
        """Tab-separated values: at least three lines, each with the same number of tabs
        (prose with a stray tab does not line up like that)."""
        head = self.text_head
        lines = [ln for ln in head.split(b"\n")[:50] if ln.strip()]
        if len(head) >= 4096:
            lines = lines[:-1]  # the last line may be cut
        if len(lines) < 3:
            return False
        counts = {ln.count(b"\t") for ln in lines}
        return len(counts) == 1 and counts.pop() >= 1
