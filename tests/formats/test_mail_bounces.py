"""Bounces and other mail that carries a copy of another message's header block: the copy
is read for what it says (subject, sender, recipients, date), never stored as a page of
Received / DKIM / X- lines; and a From that names a program is no person."""

from __future__ import annotations

from pathlib import Path

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


def test_a_returned_header_block_is_folded_into_the_bounce() -> None:
    result = Reader().read_report(Blob(data=bounce(_RETURNED_HEADERS), filename="bounce.eml"))
    assert not result.failures  # no empty "part" from the copied multipart type
    # One item: the copy has no body, and four header lines alone were an item of their own.
    (report,) = result.items
    assert "user unknown" in report.memory and "Status: 5.1.1" in report.memory
    for junk in ("Received:", "DKIM-Signature", "X-Mailer", "inner-boundary", "Return-Path"):
        assert junk not in report.memory
    assert report.memory.endswith(
        "Status: 5.1.1\n\n"
        "Subject: Quarterly plum figures\nFrom: Ann Lee <ann@example.org>\n"
        "To: <nobody@example.net>\nDate: Mon, 2 Jun 2025 08:59:58 +0200"
    )
    extra = report.metadata.extra
    assert extra["returned_subject"] == "Quarterly plum figures"
    assert extra["returned_to"] == "<nobody@example.net>"
    assert extra["returned_message_id"] == "<plums-42@example.org>"
    assert report.metadata.key == "Undelivered Mail Returned to Sender"  # the bounce's own
    assert report.metadata.timestamp == "2025-06-02T09:00:01+02:00"


def test_a_returned_copy_without_text_is_folded_and_one_with_text_stays_a_message() -> None:
    empty = (
        "From: Ann Lee <ann@example.org>\nTo: <nobody@example.net>\n"
        "Subject: Quarterly plum figures\nMessage-ID: <plums-42@example.org>\n\n"
    )
    data = bounce("").replace(
        b"Content-Type: text/rfc822-headers\n\n\n",
        b"Content-Type: message/rfc822\n\n" + empty.encode(),
    )
    (report,) = Reader().read(Blob(data=data, filename="bounce.eml"))
    assert report.metadata.extra["returned_subject"] == "Quarterly plum figures"
    assert report.memory.endswith(
        "Subject: Quarterly plum figures\nFrom: Ann Lee <ann@example.org>\nTo: <nobody@example.net>"
    )
    whole = data.replace(
        b"<plums-42@example.org>\n\n", b"<plums-42@example.org>\n\nThe plum figures.\n"
    )
    report, returned = Reader().read(Blob(data=whole, filename="bounce.eml"))
    assert "returned_subject" not in report.metadata.extra
    assert returned.memory.endswith("The plum figures.")


def test_no_item_of_the_corpus_mailbox_of_bounces_is_a_header_block_alone(corpus: Path) -> None:
    items = Reader().read(corpus / "realworld" / "mbox-0")
    alone = [i for i in items if i.memory.startswith("Subject:") and "\n\n" not in i.memory]
    assert not alone  # were 31 of 72 items: "Subject: TEST\nFrom: …\nTo: …\nDate: …"
    folded = {i.source.member for i in items if "returned_subject" in i.metadata.extra}
    assert len(folded) == 31 and all("!" not in m for m in folded)  # the bounces' own items


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
    # Typed by a mail client for a person: no transport field, so not a copied block (and
    # the message it quotes is not read with it: the quote is the only copy, kept as text).
    quote = "From: Ann Lee\nSent: Monday, 2 June 2025 09:00\nTo: Bob\nSubject: Plums"
    data = (
        "From: bob@example.org\nTo: ann@example.org\nSubject: Re: Plums\n\n"
        f"Twelve kilos.\n\n-----Original Message-----\n{quote}\n\nHow many?\n"
    ).encode()
    (item,) = Reader().read(Blob(data=data, filename="reply.eml"))
    assert quote in item.memory


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
