"""Bytes to text for plain-text formats: BOMs, UTF-8, then a best guess at legacy encodings.

>>> decode_text("名前,住所\\n佐藤太郎,東京".encode("cp932"), "names.csv")
'名前,住所\\n佐藤太郎,東京'
"""

from __future__ import annotations

import codecs
import re

from omnireader.errors import UnsupportedFormatError
from omnireader.formats.plain.charset import codec_for, decide_charset, repair_double_encoding

__all__ = [
    "decode_text",
    "detect_encoding",
    "bomless_unicode",
    "unicode_head",
    "codec_for",
    "decode_declared",
]

# Longest BOM first: the UTF-32 LE BOM starts with the UTF-16 LE one.
_BOMS: list[tuple[bytes, str]] = [
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
]

_FALLBACK_HANDLER = "omnireader-cp1252-fallback"


def _cp1252_fallback(err: UnicodeError) -> tuple[str, int]:
    # Mixed files (UTF-8 with a pasted-in Latin-1 line) are common; reading the stray bytes
    # as Windows-1252 keeps "Grüße" readable instead of turning it into "Gr��e".
    assert isinstance(err, UnicodeDecodeError)
    bad = err.object[err.start : err.end]
    return bad.decode("cp1252", errors="replace"), err.end


codecs.register_error(_FALLBACK_HANDLER, _cp1252_fallback)


def _looks_like_utf8(data: bytes) -> bool:
    """True when the bytes hold valid multi-byte UTF-8 and no more stray bytes than that."""
    text = data[: 1 << 20].decode("utf-8", errors="replace")  # a sample is enough to tell
    bad = text.count("\ufffd")  # about one per stray byte
    valid = sum(len(ch.encode()) for ch in text if ord(ch) >= 0x80 and ch != "\ufffd")
    # Legacy text almost never forms valid multi-byte UTF-8 by accident; and when it does,
    # the stray bytes are still read as Windows-1252 by the fallback handler.
    return valid > 0 and valid >= bad


def bomless_unicode(head: bytes) -> str | None:
    """``utf-16-le`` / ``utf-16-be`` / ``utf-32-le`` / ``utf-32-be`` for text written in
    that encoding without a byte-order mark, told by where its NUL bytes fall; else None.

    Text in Latin, Greek or Cyrillic script has a NUL in every other byte (UTF-16) or in
    three of four (UTF-32), always at the same places. CJK text in UTF-16 has few NULs
    and is not recognised here (a BOM is needed for it). Looks at 4 KiB at most.
    """
    sample = head[:4096]
    sample = sample[: len(sample) // 4 * 4]
    if len(sample) < 8 or b"\x00" not in sample:
        return None
    quarter = len(sample) // 4
    nuls = [sample[i::4].count(0) for i in range(4)]
    if nuls[2] == nuls[3] == quarter and nuls[0] < quarter // 4:
        candidates = ["utf-32-le"]
    elif nuls[0] == nuls[1] == quarter and nuls[3] < quarter // 4:
        candidates = ["utf-32-be"]
    else:
        even, odd = nuls[0] + nuls[2], nuls[1] + nuls[3]
        half = 2 * quarter
        if odd >= 0.7 * half and even <= 0.05 * half:
            candidates = ["utf-16-le"]
        elif even >= 0.7 * half and odd <= 0.05 * half:
            candidates = ["utf-16-be"]
        else:
            return None
    for name in candidates:
        text = sample.decode(name, errors="replace")
        bad = sum(1 for ch in text if ch == "\ufffd" or (ord(ch) < 32 and ch not in "\t\r\n\f"))
        if bad <= len(text) // 100:
            return name
    return None


def unicode_head(head: bytes) -> bytes | None:
    """The head of a UTF-16 / UTF-32 text (with or without BOM) as UTF-8, for sniffing its
    format; None when ``head`` is not in one of those encodings."""
    for bom, name in _BOMS:
        if head.startswith(bom):
            if name == "utf-8-sig":
                return None
            width = 4 if name == "utf-32" else 2
            encoding = name
            break
    else:
        found = bomless_unicode(head)
        if found is None:
            return None
        encoding, width = found, 4 if found.startswith("utf-32") else 2
    cut = head[: len(head) // 4 * 4 if width == 4 else len(head) // 2 * 2]
    return cut.decode(encoding, errors="ignore").lstrip("\ufeff").encode("utf-8")


def detect_encoding(data: bytes) -> str:
    """The encoding :func:`decode_text` would use for ``data`` (a Python codec name)."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name
    if b"\x00" in data[:4096]:
        found = bomless_unicode(data)
        if found is not None:
            return found
    try:
        data.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        pass
    if _looks_like_utf8(data):
        return "utf-8"
    guess = _guess_legacy(data) or "cp1252"
    if guess in ("cp1252", "cp1250", "iso8859_2", "latin_1", "iso8859_15"):
        # charset-normalizer scores these pages alike for short text ("trčs" for "très");
        # which reading spells words of one language tells them apart.
        from omnireader.formats.plain.charset import western_or_central

        return western_or_central(data, None if guess in ("cp1252", "cp1250") else guess)
    return guess


def _guess_legacy(data: bytes) -> str | None:
    from charset_normalizer import from_bytes  # lazy: only legacy-encoded files need it

    has_nul = b"\x00" in data
    matches = [
        m
        for m in from_bytes(data)
        # Without a BOM or NULs, a UTF-16/32 "match" is noise from short inputs.
        if has_nul or not m.encoding.startswith(("utf_16", "utf_32"))
    ]
    if not matches:
        return None
    best = min(m.chaos for m in matches)
    tied = [m.encoding for m in matches if m.chaos <= best + 1e-9]
    # Short Western text fits many single-byte code pages equally well; Windows-1252 is by
    # far the most common of them, so it wins a tie, and wins outright for mostly-ASCII
    # text that no multi-byte (CJK) encoding explains better.
    if "cp1252" in tied:
        return "cp1252"
    if not tied[0].startswith(_MULTIBYTE) and _mostly_ascii(data) and _is_cp1252(data):
        return "cp1252"
    if tied[0].startswith(_MULTIBYTE) and not _HIGH_PAIR.search(data) and _is_cp1252(data):
        # CJK text is runs of two-byte characters; high bytes that never stand side by side
        # are accented letters in Latin words ("très niño" is no Big5).
        return "cp1252"
    return tied[0]


_HIGH_PAIR = re.compile(rb"[\x80-\xff]{2}")


_MULTIBYTE = (
    "cp932",
    "cp949",
    "cp950",
    "shift_jis",
    "euc_",
    "gb",
    "big5",
    "hz",
    "iso2022",
    "johab",
    "utf",
)


def _mostly_ascii(data: bytes) -> bool:
    return sum(1 for b in data if b < 0x80) >= 0.7 * len(data)


def _is_cp1252(data: bytes) -> bool:
    try:
        data.decode("cp1252")
        return True
    except UnicodeDecodeError:
        return False


def decode_text(data: bytes, label: str) -> str:
    """``data`` as text, whatever its encoding; never raises on bad bytes.

    BOMs decide first (UTF-8, UTF-16, UTF-32), then strict UTF-8, then UTF-8 with stray
    bytes read as Windows-1252, then charset-normalizer's guess (cp932, gb18030, cp1251,
    ...; Windows-1252 against -1250 by :func:`.charset.western_or_central`). Double-encoded
    runs ("Ã©") are repaired (:func:`.charset.repair_double_encoding`). Bytes invalid in the chosen encoding are replaced; NUL characters are removed;
    line ends become ``\\n``.
    Raises :class:`UnsupportedFormatError` naming ``label`` only when the bytes are not
    text at all.
    """
    encoding = detect_encoding(data)
    if encoding == "utf-8" and not data.startswith(codecs.BOM_UTF8):
        text = data.decode("utf-8", errors=_FALLBACK_HANDLER)
    else:
        text = data.decode(encoding, errors="replace")
    if text and text.count("\ufffd") > len(text) // 2:
        raise UnsupportedFormatError(label, f"not text: most bytes are invalid as {encoding}")
    text = text.replace("\x00", "")
    if "\r" in text:  # Windows and classic Mac line ends: one kind of line break in items
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text.isascii():
        return text
    from omnireader.formats.plain.charset import repair_double_encoding

    return repair_double_encoding(text)  # UTF-8 once misread as Windows-1252 at its source


def decode_declared(data: bytes, declared: str | None, label: str = "<text>") -> str:
    """``data`` as text: :func:`decide_charset`, else :func:`.text.decode_text`'s guess;
    double encoding repaired, NULs removed, line ends ``\\n``. Never raises on bad bytes
    (only :class:`UnsupportedFormatError` for bytes that are not text at all)."""
    codec = decide_charset(data, declared)
    if codec is None:
        return decode_text(data, label)
    text = data.decode(codec).lstrip("\ufeff") if codec.endswith("-sig") else data.decode(codec)
    text = text.replace("\x00", "")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return repair_double_encoding(text)
