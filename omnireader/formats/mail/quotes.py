"""The quoted history at the end of a reply, told apart from what the reply says.

A reply usually carries the messages it answers below its own text; stored as they are,
the first message of a thread is stored again in every reply (a thread of ten replies holds
it ten times, and search returns it ten times). :func:`split_quoted` cuts such a *tail* off
a body, when the body ends with one of:

* an attribution line ("On Mon, 1 Jun 2009, Ann <ann@x.org> wrote:", "Am ... schrieb ...:",
  "Le ... a écrit :") followed by nothing but ``>`` lines and blank lines;
* an "-----Original Message-----" line (Outlook, Lotus; German and French too) followed by
  a header line within a few lines;
* an Outlook header block that opens the history: a ``From:`` line followed, in the next
  few lines, by ``Sent:`` (or ``Date:``) and ``Subject:``, with the underscore rule Outlook
  draws above it;
* a run of ``>`` lines (and blank lines) that ends the body.

    >>> split_quoted("Tuesday works.\\n\\nOn Mon, Ann wrote:\\n> Can we meet?\\n>")
    QuoteSplit(text='Tuesday works.', quoted='On Mon, Ann wrote:\\n> Can we meet?\\n>')

What is kept, to lose no one's words: replies written between the quotes (interleaved:
anything not quoted after a quote keeps the quote where it is, bar a tail of quotes after
the last answer), a body that is nothing but quotes, and a forward (its "quoted" message is
what was sent). The tail is not dropped: the reader keeps it in the item's ``quoted``.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

__all__ = ["QuoteSplit", "split_quoted", "is_forward"]

_QUOTE = re.compile(r"^\s{0,3}>")
_ATTRIBUTION = re.compile(
    r"(?:\bwrote|\bschrieb|\ba\s+écrit|\bescribió|\bha\s+scritto|\bschreef)\s*:\s*$", re.I
)
_ORIGINAL = re.compile(
    r"^\s*-{2,}\s*(?:original\s+message|ursprüngliche\s+nachricht|message\s+d'origine|"
    r"mensaje\s+original|messaggio\s+originale|oorspronkelijk\s+bericht)\s*-{2,}\s*$",
    re.I,
)
_RULE = re.compile(r"^\s*_{10,}\s*$")  # the line Outlook draws above the quoted headers
# "From:", and "**From:** " as an HTML message's bold field names read
_FIELD = re.compile(r"^\s*\**([A-Za-zÀ-ÿ ]{2,12}?)\s*(?::|\*+\s*:)", re.I)
_OPENER = re.compile(r"^\s*(?:on|am|le|el|il|op)\s", re.I)  # "On <date>, <name> wrote:"
_FROM = {"from", "von", "de", "van", "da"}
_SENT = {"sent", "date", "gesendet", "datum", "envoyé", "enviado", "inviato", "verzonden"}
_SUBJECT = {"subject", "betreff", "objet", "asunto", "oggetto", "onderwerp"}
_FORWARD = re.compile(r"^\s*(?:fwd?|fw|wg|tr|rv|doorst)\s*:", re.I)
_FORWARD_LINE = re.compile(r"forwarded message|begin forwarded message|weitergeleitete", re.I)
_BLOCK = 8  # a quoted header block's lines
_ATTRIBUTION_MAX = 300  # characters: a longer line ending in "wrote:" is prose


class QuoteSplit(BaseModel):
    """A body as its own text and the quoted history cut off its end ("" when none)."""

    text: str
    quoted: str = ""


def is_forward(subject: str) -> bool:
    """Whether a subject says the message forwards another ("Fwd:", "FW:", "WG:")."""
    return bool(_FORWARD.match(subject or ""))


def _field(line: str) -> str:
    found = _FIELD.match(line)
    return found.group(1).strip().lower() if found else ""


def _header_block_at(lines: list[str], i: int) -> bool:
    """An Outlook-style block of the quoted message's headers starts at line ``i``."""
    if _field(lines[i]) not in _FROM:
        return False
    names = {_field(line) for line in lines[i + 1 : i + _BLOCK] if line.strip()}
    return bool(names & _SENT) and bool(names & _SUBJECT)


def _only_quotes_after(lines: list[str], i: int) -> bool:
    rest = [line for line in lines[i:] if line.strip()]
    return bool(rest) and all(_QUOTE.match(line) for line in rest)


def _attribution_at(lines: list[str], i: int) -> int:
    """Lines the attribution at ``i`` takes (mailers wrap a long one onto a second line),
    0 when there is none there."""
    if _is_attribution(lines[i]):
        return 1
    # "On ..., Ann <" / "ann@x.org> wrote:": the first line opens like one and is no
    # sentence of its own, the second is not an attribution alone (else it starts there)
    if (
        i + 1 < len(lines)
        and _OPENER.match(lines[i])
        and not lines[i].rstrip().endswith((".", "!", "?"))
        and not _QUOTE.match(lines[i + 1])
        and _is_attribution(lines[i].strip() + " " + lines[i + 1].strip())
    ):
        return 2
    return 0


def _is_attribution(text: str) -> bool:
    return len(text) <= _ATTRIBUTION_MAX and bool(_ATTRIBUTION.search(text))


def _tail_start(lines: list[str], forward: bool) -> int | None:
    """The first line of the quoted tail, or None."""
    if forward:
        return None  # what a forward quotes is the message it sends
    for i, line in enumerate(lines):
        if not line.strip() or _QUOTE.match(line):
            continue
        width = _attribution_at(lines, i)
        if width and _only_quotes_after(lines, i + width):
            return i
        if _FORWARD_LINE.search(line):
            return None  # a forwarded message below: all of it is what is sent
        if _ORIGINAL.match(line) and any(
            _field(x) in _FROM | _SENT | _SUBJECT for x in lines[i + 1 : i + _BLOCK]
        ):
            return i
        if _header_block_at(lines, i):
            before = i - 1
            while before >= 0 and not lines[before].strip():
                before -= 1
            return before if before >= 0 and _RULE.match(lines[before]) else i
    # a run of quoted lines that ends the body, with no attribution before it
    end = len(lines)
    while end > 0 and (not lines[end - 1].strip() or _QUOTE.match(lines[end - 1])):
        end -= 1
    while end < len(lines) and not _QUOTE.match(lines[end]):
        end += 1  # skip the blank lines before the run
    return end if end < len(lines) else None


def split_quoted(body: str, subject: str = "") -> QuoteSplit:
    """``body`` without the quoted history at its end, and that history. A body that is
    only quoted text keeps it all, as nothing else would be stored of the message."""
    lines = body.split("\n")
    start = _tail_start(lines, is_forward(subject))
    if start is None:
        return QuoteSplit(text=body)
    text = "\n".join(lines[:start]).rstrip()
    if not text.strip():
        return QuoteSplit(text=body)
    return QuoteSplit(text=text, quoted="\n".join(lines[start:]).strip())
