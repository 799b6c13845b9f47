"""A bounce's MAILER-DAEMON and a notice's noreply sender are no persons of a message.

Before, every delivery report of a mailbox listed "Mail Delivery Subsystem",
"MAILER-DAEMON" and "postmaster" among its persons, beside the address that bounced.
"""

from __future__ import annotations

import email
from pathlib import Path

from omnireader import Reader
from omnireader.formats.mail.headers import mail_headers

SYSTEM = {"MAILER-DAEMON", "Mail Delivery Subsystem", "postmaster", "root", "mailer-daemon"}


def test_bounces_name_the_address_that_bounced_not_the_mail_system(corpus: Path) -> None:
    items = Reader().read(corpus / "realworld" / "mbox-0")
    persons = [p for item in items for p in item.metadata.persons]
    assert not SYSTEM & set(persons)
    returned = next(i for i in items if i.source.member == "message/2.eml")
    assert returned.metadata.persons == ["user1@example.jp"]
    # The headers are kept as written: the From line still says who sent the report.
    assert "From: Mail Delivery Subsystem <MAILER-DAEMON>" in returned.memory


def test_a_noreply_sender_is_left_out_and_its_reader_kept() -> None:
    headers = mail_headers(
        email.message_from_string(
            "From: GitHub <noreply@github.com>\nTo: Anna Berg <anna@example.org>\n"
            "Cc: bounces+5f2a=anna@lists.example.org, Root Beer Fans <rootbeer@example.org>"
            "\nSubject: [harbour] New issue\n\nA new issue was opened."
        )
    )
    assert headers.persons == [
        "Anna Berg",
        "anna@example.org",
        "Root Beer Fans",
        "rootbeer@example.org",
    ]
    assert headers.sender == "GitHub <noreply@github.com>"


def test_a_mailing_lists_robots_are_no_persons(corpus: Path) -> None:
    # CPython's msg_02.txt: a Mailman digest, From ppp-request@zzz.org
    [digest, *_] = Reader().read(corpus / "realworld" / "msg_02.txt")
    assert digest.metadata.persons == ["ppp@zzz.org"]
    assert "From: ppp-request@zzz.org" in digest.memory
    headers = mail_headers(
        email.message_from_string(
            "From: harbour-bounces+anna=example.org@lists.example.org\n"
            "To: Anna Berg <anna@example.org>\nCc: Harbour owners <harbour-owner@example.org>"
            "\nSubject: Your message awaits moderator approval\n\nHeld."
        )
    )
    # the list's owner address is read by people: it stays
    assert headers.persons == [
        "Anna Berg",
        "anna@example.org",
        "Harbour owners",
        "harbour-owner@example.org",
    ]
