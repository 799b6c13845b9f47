"""A reply's quoted history is not stored again as its text when the message it quotes is
read with it (an mbox holding both): the tail that quotes earlier messages is cut off the
item's memory and kept, as written, in ``extra["quoted"]``. A reply read alone keeps its
quotes as text: they are the only copy of what they quote. What a person wrote is never
cut: replies between quotes, a body that is only a quote, a forward, and quote-like lines
inside the reply's own words stay in the memory."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.formats.mail.headers import mail_headers
from omnireader.formats.mail.message import message_text
from omnireader.payloads import Blob


def _read(body: str, subject: str = "Re: Plums", subtype: str = "plain") -> tuple[str, str]:
    """(the text's body, the quoted tail cut) of a reply whose parent is read with it."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "bob@example.org", "ann@example.org", subject
    msg.set_content(body, subtype=subtype)
    split = message_text(msg, mail_headers(msg), "reply.eml", quotes_read=True)
    return split.text.split("\n\n", 1)[1], split.quoted


def test_a_reply_read_alone_keeps_its_quotes_as_text() -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "bob@example.org", "ann@example.org", "Re: Plums"
    msg.set_content("Twelve kilos.\n\nOn Monday, Ann wrote:\n> How many plums?\n")
    [item] = Reader().read(Blob(data=msg.as_bytes(), filename="reply.eml"))
    assert "> How many plums?" in item.memory
    assert "quoted" not in item.metadata.extra


def test_an_attribution_and_the_quoted_lines_below_it_are_cut_and_kept() -> None:
    text, quoted = _read(
        "Twelve kilos, picked today.\n\nBob\n\n"
        'On 5/30/09 10:00 AM, "Ann Lee" <ann@example.org> wrote:\n\n'
        "> How many plums did you pick?\n>\n> Ann\n> \n>\n"
    )
    assert text == "Twelve kilos, picked today.\n\nBob"
    assert quoted.startswith('On 5/30/09 10:00 AM, "Ann Lee"')
    assert "> How many plums did you pick?" in quoted


def test_an_attribution_wrapped_onto_two_lines_goes_with_the_quote() -> None:
    text, quoted = _read(
        "Twelve kilos.\n\nOn Mon, Jun 1, 2009 at 10:00 AM, Ann Lee <\n"
        "ann@example.org> wrote:\n> How many?\n"
    )
    assert text == "Twelve kilos."
    assert quoted.startswith("On Mon, Jun 1, 2009")


def test_an_outlook_header_block_starts_the_history() -> None:
    text, quoted = _read(
        "Thanks a lot, Ann.\n\n________________________________\n"
        "From: Ann Lee <ann@example.org>\nTo: bob@example.org\n"
        "Sent: Monday, June 1, 2009 12:26:31 PM\nSubject: Plums\n\n"
        "How many plums did you pick?\n"
    )
    assert text == "Thanks a lot, Ann."
    assert quoted.startswith("________________________________\nFrom: Ann Lee")
    assert quoted.endswith("How many plums did you pick?")


def test_an_original_message_line_starts_the_history() -> None:
    text, quoted = _read(
        "Twelve kilos.\n\n-----Original Message-----\nFrom: Ann Lee\n"
        "Date: Monday, 2 June 2025 09:00\nSubject: Plums\n\nHow many?\n"
    )
    assert (text, quoted.splitlines()[0]) == ("Twelve kilos.", "-----Original Message-----")


def test_a_run_of_quoted_lines_that_ends_the_body_is_cut() -> None:
    text, quoted = _read("Yes, Tuesday.\n\n> Can we meet on Tuesday?\n> Ann\n")
    assert (text, quoted) == ("Yes, Tuesday.", "> Can we meet on Tuesday?\n> Ann")


def test_an_html_reply_loses_its_blockquote() -> None:
    html = (
        "<div>Sure, Tuesday works.</div><div class=gmail_quote>On Mon, Jun 1, 2009, Ann "
        "&lt;ann@example.org&gt; wrote:<blockquote>Can we meet on Tuesday?</blockquote></div>"
    )
    text, quoted = _read(html, subtype="html")
    assert text == "Sure, Tuesday works."
    assert quoted == "On Mon, Jun 1, 2009, Ann <ann@example.org> wrote:\n> Can we meet on Tuesday?"


def test_an_interleaved_reply_keeps_its_quotes_and_answers() -> None:
    body = (
        "On Mon, Ann wrote:\n> How many plums?\nTwelve kilos.\n\n"
        "> And the pears?\nNone yet, they ripen in August.\n"
    )
    text, quoted = _read(body)
    assert text == body.strip() and quoted == ""


def test_only_the_unanswered_quote_after_the_last_answer_is_cut() -> None:
    text, quoted = _read("> How many plums?\nTwelve kilos.\n\n> See you Tuesday?\n> Ann\n")
    assert text == "> How many plums?\nTwelve kilos."
    assert quoted == "> See you Tuesday?\n> Ann"


def test_a_message_that_is_only_a_quote_keeps_it() -> None:
    body = "On Mon, Ann wrote:\n> How many plums did you pick?\n> Ann"
    assert _read(body) == (body, "")


@pytest.mark.parametrize("subject", ["Fwd: Plums", "FW: Plums", "WG: Pflaumen"])
def test_a_forward_keeps_the_message_it_forwards(subject: str) -> None:
    body = (
        "See below.\n\n________________________________\nFrom: Ann Lee\n"
        "Sent: Monday, June 1, 2009\nTo: Bob\nSubject: Plums\n\nTwelve kilos of plums.\n"
    )
    assert _read(body, subject=subject) == (body.strip(), "")


def test_a_forwarded_message_line_keeps_what_follows() -> None:
    body = (
        "For you.\n\n---------- Forwarded message ---------\nFrom: Ann Lee <ann@example.org>\n"
        "Date: Mon, Jun 1, 2009 at 10:00 AM\nSubject: Plums\nTo: Bob\n\nTwelve kilos.\n"
    )
    assert _read(body, subject="Plums") == (body.strip(), "")


def test_words_that_look_like_an_attribution_or_headers_inside_the_reply_stay() -> None:
    body = (
        "On second thought, I agree.\nAnn wrote: the figures are late.\n\n"
        "From: the plum desk\nWe ship on Monday.\n"
    )
    assert _read(body) == (body.strip(), "")


def test_the_complex_mbox_thread_stores_each_reply_once(corpus: Path) -> None:
    items = Reader().read(corpus / "realworld" / "complex.mbox")
    by_member = {i.metadata.sources[0].member: i for i in items}
    assert len(by_member) == 3 == len(items)
    first = "When a Mapper completes, MapCompletionEvents are generated."
    question = "I am being confused by the protocol between mapper and reducer."
    # message 1's answer is in message 1's text only (the later replies quote it: kept in
    # their "quoted"); the question message 1 quotes is in no message of the mailbox, so
    # message 1 keeps it as text
    assert [first in i.memory for i in by_member.values()] == [True, False, False]
    assert [question in i.memory for i in by_member.values()] == [True, False, False]
    assert "quoted" not in by_member["message/1.eml"].metadata.extra
    assert first in by_member["message/2.eml"].metadata.extra["quoted"]
    assert by_member["message/3.eml"].memory.endswith("ChainMapper/ChainReducer.\n\nJothi")
