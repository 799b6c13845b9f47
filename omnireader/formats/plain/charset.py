"""Which charset a text is in: the declared one weighed against what the bytes say.

Labels lie. A mail part says ``iso-8859-1`` and holds UTF-8; a web page is saved in
Windows-1252 and read as Windows-1250; text was double-encoded at its source (UTF-8 read as
Windows-1252 and written out as UTF-8 again, "cafÃ©"). One decision for HTML, mail parts
and plain text, in this order:

1. a byte-order mark wins;
2. bytes that are valid multi-byte UTF-8 win over a legacy label: legacy text almost never
   forms valid UTF-8 by accident, while UTF-8 labelled as Latin-1 is everywhere;
3. a label that decodes is kept, with ``iso-8859-1`` / ``us-ascii`` read as Windows-1252
   (what browsers do: the bytes 0x80-0x9F are its curly quotes and dashes, never C1
   control characters) and Windows-1252 against Windows-1250 decided by which reading
   spells words of one language (:func:`western_or_central`);
4. a label that does not decode, or none, leaves it to the bytes (:mod:`.text`).

After decoding, double-encoded runs are repaired (:func:`repair_double_encoding`).

>>> decode_declared("café".encode("utf-8"), "iso-8859-1")
'café'
>>> repair_double_encoding("cafÃ© crÃ¨me")
'café crème'
"""

from __future__ import annotations

import codecs
import re

__all__ = [
    "codec_for",
    "decide_charset",
    "repair_double_encoding",
    "western_or_central",
]

_UTF = ("utf-8", "utf-16", "utf-32", "utf_8", "utf_16", "utf_32")
# An ISO-8859 label over bytes 0x80-0x9F decodes them to C1 control characters, which no
# text holds: the bytes are the Windows code page of the same script, which puts quotes,
# dashes and letters there (browsers read Latin-1 and ASCII labels as Windows-1252 always).
_WINDOWS_OF = {
    "iso8859-1": "cp1252",
    "ascii": "cp1252",
    "iso8859-15": "cp1252",
    "iso8859-2": "cp1250",
    "iso8859-5": "cp1251",
    "iso8859-7": "cp1253",
    "iso8859-9": "cp1254",
    "iso8859-8": "cp1255",
    "iso8859-6": "cp1256",
    "iso8859-13": "cp1257",
    "iso8859-4": "cp1257",
}
_WESTERN = {"cp1252", "iso8859-1", "iso8859-15", "ascii"}
_CENTRAL = {"cp1250", "iso8859-2"}
_C1_BYTES = re.compile(rb"[\x80-\x9f]")

# Non-ASCII letters of the main languages written in each code page (lower case). A text
# read in the right code page draws its accented letters from one language's set; read in
# the wrong one, from several ("trčs" and "nińo": Czech č beside Polish ń).
_LANG_LETTERS = {
    "cp1252": [
        "àâæçéèêëîïôœùûüÿ",
        "áéíñóúü",
        "äöüß",
        "àáâãçéêíóôõú",
        "àèéìíîòóùú",
        "éèëïöü",
        "æøåé",
        "åäöé",
        "áðéíóúýþæö",
        "àçèéíïòóúü",
    ],
    "cp1250": [
        "áčďéěíňóřšťúůýž",
        "áäčďéíĺľňóôŕšťúýž",
        "ąćęłńóśźż",
        "áéíóöőúüű",
        "čšž",
        "čćđšž",
        "ăâîşţ",
        "áäéíóöúüß",
    ],
}
_WORD = re.compile(r"[^\W\d_]+")


def _codec(name: str | None) -> str | None:
    return codec_for(name) if name else None


def codec_for(charset: str | None) -> str | None:
    """The Python codec for a charset label (MIME, HTML), or None when there is none.

    ISO-8859-6-I / -8-I (RFC 1556) and -E name the *direction* of Arabic and Hebrew text,
    not another encoding: the bytes are ISO-8859-6 / -8, which Python knows without the
    suffix. "unknown-8bit" says nothing and is left to the guess.
    """
    if not charset:
        return None
    name = charset.strip().strip('"').lower()
    if name in ("unknown-8bit", "x-unknown", "x-user-defined"):
        return None
    for candidate in (name, re.sub(r"-[ie]$", "", name)):
        try:
            return codecs.lookup(candidate).name
        except LookupError:
            continue
    return None


def _bom(data: bytes) -> str | None:
    for bom, name in (
        (codecs.BOM_UTF32_LE, "utf-32"),
        (codecs.BOM_UTF32_BE, "utf-32"),
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if data.startswith(bom):
            return name
    return None


def _strict(data: bytes, codec: str) -> str | None:
    try:
        return data.decode(codec)
    except (UnicodeDecodeError, LookupError):
        return None


def _coherence(text: str, page: str) -> tuple[float, float]:
    """(share of accented words one language of ``page`` spells, share of accented
    letters the best such language holds) for ``text`` read in ``page``."""
    words = [w for w in _WORD.findall(text.lower()) if not w.isascii()]
    if not words:
        return (1.0, 1.0)
    sets = [set(s) for s in _LANG_LETTERS[page]]
    letters = [ch for w in words for ch in w if ord(ch) > 127]
    spelled = sum(1 for w in words if any({c for c in w if ord(c) > 127} <= s for s in sets))
    best = max(sum(1 for ch in letters if ch in s) for s in sets)
    return (spelled / len(words), best / len(letters))


def western_or_central(data: bytes, declared: str | None = None) -> str:
    """The single-byte Latin code page ``data`` reads best in: the declared one (a codec
    name), Windows-1252 or Windows-1250, by which reading spells its words in one
    language. A reading with C1 control characters loses; a tie goes to the declared
    page, else to Windows-1252 (by far the more common)."""
    candidates = list(dict.fromkeys([c for c in (declared, "cp1252", "cp1250") if c]))
    best, best_score = candidates[0], (-1.0, -1.0)
    for page in candidates:
        text = _strict(data, page)
        if text is None or any("\x80" <= ch <= "\x9f" for ch in text):
            continue
        score = _coherence(text, "cp1250" if page in _CENTRAL else "cp1252")
        if score > best_score:  # strictly better: earlier candidates win ties
            best, best_score = page, score
    return best


def decide_charset(data: bytes, declared: str | None) -> str | None:
    """The codec to read ``data`` with, weighing the ``declared`` label against the bytes;
    None when the bytes alone must decide (no label, or one that does not decode)."""
    bom = _bom(data)
    if bom:
        return bom
    codec = _codec(declared)
    if codec is None:
        return None
    if codec.startswith(_UTF):
        return codec if _strict(data, codec) is not None else None
    if not data.isascii() and _strict(data, "utf-8") is not None:
        return "utf-8"  # valid multi-byte UTF-8 under a legacy label: the label is wrong
    if codec in _WESTERN | _CENTRAL and not data.isascii():
        codec = western_or_central(data, codec)
    elif codec in _WINDOWS_OF and _C1_BYTES.search(data):
        windows = _WINDOWS_OF[codec]
        codec = windows if _strict(data, windows) is not None else codec
    return codec if _strict(data, codec) is not None else None


# Double encoding: each byte of a UTF-8 sequence became one Windows-1252 (or Latin-1)
# character. A lead byte C2-F4 shows as Â-ô, each continuation byte 80-BF as one of the
# characters below (C1 controls where Windows-1252 has no character).
_CONT_CHARS = "".join(
    bytes([b]).decode("cp1252", errors="ignore") or chr(b) for b in range(0x80, 0xC0)
) + "".join(map(chr, range(0x80, 0xA0)))  # read as Latin-1, 0x80-0x9F are C1 controls
_CONT = "[" + re.escape(_CONT_CHARS) + "]"
_MOJIBAKE = re.compile(
    "[\u00c2-\u00df]" + _CONT + "|[\u00e0-\u00ef]" + _CONT + "{2}|[\u00f0-\u00f4]" + _CONT + "{3}"
)
# Any lead followed by a continuation: one character class up front lets the regex
# engine scan for it quickly; the full pattern runs only where one is found.
_PAIR = re.compile("[\u00c2-\u00f4]" + _CONT)
# A two-character match whose second character is punctuation real text puts after a
# capital ("É»", "Ê¹") is only repaired when the lead is Â or Ã, the leads of U+0080-U+00FF,
# which is nearly all Western mojibake.
_PUNCT_CONT = set("\u00a0«»¨´·¿¡")
_WIN_EXTRA = {ch: b for b in range(0x80, 0xA0) if (ch := bytes([b]).decode("cp1252", "ignore"))}


def _to_bytes(run: str) -> bytes:
    return bytes(_WIN_EXTRA.get(ch, ord(ch)) for ch in run)


def repair_double_encoding(text: str) -> str:
    """``text`` with UTF-8-read-as-Windows-1252 runs ("Ã©", "â€™") turned back into the
    characters they were. A run is repaired only when its bytes are valid UTF-8 that
    encodes back to the same run (the repair round-trips) and the text holds no
    character that a repair would contradict; anything ambiguous is left as it is."""
    if text.isascii() or not _PAIR.search(text):  # the cheap scan first (~3x faster)
        return text

    def fix(m: re.Match[str]) -> str:
        run = m.group(0)
        if len(run) == 2 and run[1] in _PUNCT_CONT and run[0] not in "ÂÃ":
            return run
        try:  # the bytes decode as UTF-8, and so re-encode to the same run: a round trip
            return _to_bytes(run).decode("utf-8")
        except UnicodeDecodeError:
            return run

    return _MOJIBAKE.sub(fix, text)
