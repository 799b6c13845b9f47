"""Bounces and other mail that carries a copy of another message's header block: the copy
is read for what it says (subject, sender, recipients, date), never stored as a page of
Received / DKIM / X- lines; and a From that names a program is no person."""

from __future__ import annotations

from omnireader import Reader
from omnireader.payloads import Blob

_RETURNED_HEADERS = (
    "Return-Path: <ann@example.org>\n"
    "Received: from pc.example.org (pc [192.0.2.7]) by mx.example.org with ESMTP id 42\n"
    "\tfor <nobody@example.net>; Mon, 2 Jun 2025 09:00:00 +0200\n"
    "DKIM-Signature: v=1; a=rsa-sha256; d=example.org; s=sel; b=QUJDREVGR0g=\n"
    "Message-ID: <plums-42@example.org>\n"
    "From: Ann Lee <ann@example.org>\n"
    "To: <nobody@example.net>\n"
    "Subject: Quarterly plum figures\n"
    "Date: Mon, 2 Jun 2025 08:59:58 +0200\n"
    "MIME-Version: 1.0\n"
    'Content-Type: multipart/alternative; boundary="inner-boundary-0001"\n'
    "X-Mailer: Orchard Mail 2.1\n"
)


def bounce(headers_part: str) -> bytes:
    return (
        "From: Mail Delivery System <MAILER-DAEMON@mx.example.org>\n"
        "To: ann@example.org\n"
        "Subject: Undelivered Mail Returned to Sender\n"
        "Date: Mon, 2 Jun 2025 09:00:01 +0200\n"
        "MIME-Version: 1.0\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"\n\n'
        "--b1\nContent-Type: text/plain\n\n"
        "Your message could not be delivered to nobody@example.net: user unknown.\n\n"
        "--b1\nContent-Type: message/delivery-status\n\n"
        "Reporting-MTA: dns; mx.example.org\n\n"
        "Final-Recipient: rfc822; nobody@example.net\nAction: failed\nStatus: 5.1.1\n\n"
        f"--b1\nContent-Type: text/rfc822-headers\n\n{headers_part}\n--b1--\n"
    ).encode()


def test_a_returned_header_block_is_read_as_the_returned_message() -> None:
    result = Reader().read_report(Blob(data=bounce(_RETURNED_HEADERS), filename="bounce.eml"))
    assert not result.failures  # no empty "part" from the copied multipart type
    report, returned = result.items
    assert "user unknown" in report.memory and "Status: 5.1.1" in report.memory
    for junk in ("Received:", "DKIM-Signature", "X-Mailer", "inner-boundary", "Return-Path"):
        assert junk not in report.memory and junk not in returned.memory
    assert returned.memory == (
        "Subject: Quarterly plum figures\nFrom: Ann Lee <ann@example.org>\n"
        "To: <nobody@example.net>\nDate: Mon, 2 Jun 2025 08:59:58 +0200"
    )
    assert returned.source.member.endswith("Quarterly plum figures.eml")
    assert returned.metadata.persons == ["Ann Lee", "ann@example.org", "nobody@example.net"]
    assert returned.metadata.timestamp == "2025-06-02T08:59:58+02:00"


def test_a_header_block_pasted_into_a_plain_bounce_keeps_only_what_it_says() -> None:
    # qmail and many gateways paste the returned message under a line of their own.
    data = (
        "From: MAILER-DAEMON@mx.example.org\nTo: ann@example.org\nSubject: failure notice\n"
        "Date: 2 Jun 2025 09:00:00 -0000\n\n"
        "I'm afraid I wasn't able to deliver your message to nobody@example.net.\n\n"
        "--- Below this line is a copy of the message.\n\n"
        f"{_RETURNED_HEADERS}\n"
        "Here are the plum figures for the quarter.\n"
    ).encode()
    (item,) = Reader().read(Blob(data=data, filename="qmail.eml"))
    assert "Received:" not in item.memory and "DKIM" not in item.memory
    assert "X-Mailer" not in item.memory and "inner-boundary" not in item.memory
    assert (
        "--- Below this line is a copy of the message.\n\n"
        "Subject: Quarterly plum figures\nFrom: Ann Lee <ann@example.org>\n"
        "To: <nobody@example.net>\nDate: Mon, 2 Jun 2025 08:59:58 +0200\n\n"
        "Here are the plum figures for the quarter."
    ) in item.memory


def test_a_quoted_reply_header_is_text_and_stays() -> None:
    # Typed by a mail client for a person: no transport field, so not a copied block. It
    # is the reply's quoted history, kept as written beside the reply's own text.
    quote = "From: Ann Lee\nSent: Monday, 2 June 2025 09:00\nTo: Bob\nSubject: Plums"
    data = (
        "From: bob@example.org\nTo: ann@example.org\nSubject: Re: Plums\n\n"
        f"Twelve kilos.\n\n-----Original Message-----\n{quote}\n\nHow many?\n"
    ).encode()
    (item,) = Reader().read(Blob(data=data, filename="reply.eml"))
    assert item.memory.endswith("Twelve kilos.")
    assert quote in item.metadata.extra["quoted"]


def test_words_in_angle_brackets_are_no_person() -> None:
    # A web page saved as MHTML: the browser writes its own name as the sender.
    data = (
        b"From: <Saved by Windows Internet Explorer 7>\nSubject: Plum varieties\n"
        b"Date: Fri, 15 Feb 2008 15:01:15 -0800\nMIME-Version: 1.0\n"
        b"Content-Type: text/html; charset=utf-8\n\n<p>Victoria and Opal.</p>\n"
    )
    (item,) = Reader().read(Blob(data=data, filename="page.mht"))
    assert item.metadata.persons == []
    assert "Victoria and Opal." in item.memory
