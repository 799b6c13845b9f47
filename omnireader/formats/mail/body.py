"""A message part's text: its bytes decoded (transfer encoding, charset), and which of a
``multipart/alternative``'s versions to read.

Real mail gets much of this wrong or leaves it implicit, so each step falls back to what
the bytes say: a charset label Python does not know (``iso-8859-8-i``) is mapped to its
codec (:func:`.text.codec_for`), an HTML part with no MIME charset is decoded by its ``<meta charset>``, a
``format=flowed`` text has its soft line breaks joined (RFC 3676), and a plain-text
alternative that only says "view this in an HTML mail client" gives way to the HTML.
"""

from __future__ import annotations

import html
import re
from email.message import Message

from omnireader.formats.mail.headers import header_text
from omnireader.formats.plain.text import codec_for, decode_declared

__all__ = ["payload", "part_text", "html_text", "best_alternative", "unflow"]

_META_CHARSET = re.compile(rb"""<meta[^>]{0,200}?charset\s*=\s*["']?\s*([\w.:-]{1,40})""", re.I)
_TAGS = re.compile(r"<(script|style)\b.*?</\1\s*>|<[^>]*>", re.I | re.S)
_WORD = re.compile(r"\w{3,}")


def payload(part: Message) -> bytes | None:
    """The part's bytes after its transfer encoding; None when they do not decode."""
    try:
        data = part.get_payload(decode=True)
    except (ValueError, AssertionError, LookupError):  # broken base64 / qp: keep what decodes
        data = None
    return data if isinstance(data, bytes) else None


def part_text(part: Message) -> str:
    """A leaf part's text in its declared charset, or the one its bytes fit."""
    blocks = part.get_payload()
    if isinstance(blocks, list):  # message/delivery-status: blocks of "Field: value" lines
        return "\n\n".join(
            "\n".join(f"{k}: {header_text(v)}" for k, v in block.items())
            for block in blocks
            if isinstance(block, Message)
        )
    raw = payload(part) or b""
    declared = part.get_content_charset()
    if codec_for(declared) is None and part.get_content_type() == "text/html":
        found = _META_CHARSET.search(raw[:4096])
        declared = found.group(1).decode("ascii", "replace") if found else None
    # The label weighed against the bytes: iso-8859-1 over UTF-8 bytes is UTF-8, a label
    # that does not decode (iso-2022-jp that is UTF-8, say) leaves it to the bytes.
    text = decode_declared(raw, declared, "<mail part>")
    if part.get_content_type() == "text/plain" and part.get_param("format", "").lower() == "flowed":
        text = unflow(text, delsp=part.get_param("delsp", "").lower() == "yes")
    return text


def unflow(text: str, delsp: bool = False) -> str:
    """Join ``format=flowed`` lines (RFC 3676): a line ending in a space goes on in the next
    line of the same quote depth; a leading space that guards a line ("stuffing") goes.
    The signature separator ``-- `` is never joined."""
    out: list[str] = []
    carry: tuple[str, str] | None = None  # (quote prefix, text so far) of a flowed line
    for line in text.splitlines():
        quote = re.match(r">*", line).group(0)  # type: ignore[union-attr]  (always matches)
        body = line[len(quote) :]
        if body.startswith(" "):
            body = body[1:]
        if carry is not None and carry[0] == quote:
            body = carry[1] + body
        elif carry is not None:
            out.append(carry[0] + carry[1])
        carry = None
        if body.endswith(" ") and body != "-- ":
            carry = (quote, body[:-1] if delsp else body)
            continue
        out.append((quote + " " if quote else "") + body if quote else body)
    if carry is not None:
        out.append(carry[0] + carry[1])
    return "\n".join(out)


def html_text(markup: str) -> str:
    """An HTML part as Markdown, with its title when the body does not repeat it."""
    from omnireader.formats.web.html_markdown import html_markdown
    from omnireader.formats.web.markitdown import clean_markdown

    # The markup is text already (decoded by part_text): no <meta charset> applies to it.
    converted = html_markdown(markup, "<mail part>")
    text = clean_markdown(converted.text)
    if converted.title and converted.title not in text[:500]:
        text = f"# {converted.title}\n\n{text}"
    return text


def best_alternative(children: list[Message]) -> Message:
    """The version of a ``multipart/alternative`` to read.

    The plain text when it says what the HTML says, else the HTML: a plain version much
    shorter than the HTML's text, or sharing few of its words, is a stub ("your mail client
    cannot show this message") or a teaser. Without either, the first that says something,
    else the last (richest) one.
    """
    plain = _first(children, "text/plain")
    rich = _first(children, "text/html")
    if plain is not None and rich is not None and _stub(part_text(plain), part_text(rich)):
        return rich
    for chosen in (plain, rich):
        if chosen is not None:
            return chosen
    for child in children:
        if child.is_multipart():
            return child
    return children[-1]


def _first(children: list[Message], ctype: str) -> Message | None:
    for child in children:
        if child.get_content_type() == ctype and (payload(child) or b"").strip():
            return child
    return None


def _stub(plain: str, markup: str) -> bool:
    """Whether ``plain`` says much less than the HTML ``markup`` shows."""
    shown = " ".join(html.unescape(_TAGS.sub(" ", markup)).split())
    said = " ".join(plain.split())
    if 5 * len(shown) < 2 * len(said):
        return False  # the HTML shows little text (pictures, say): the plain text is it
    if 3 * len(said) < len(shown):
        return True
    words = {w.lower() for w in _WORD.findall(said)}
    seen = {w.lower() for w in _WORD.findall(shown)}
    return bool(words) and len(words & seen) < len(words) / 2
