"""One conversation, one thread id. A message's headers name its thread root: the first id of
``References`` (the parent's references, then the parent: RFC 5322 3.6.4), else its
``In-Reply-To``, else itself. Mailers that write References partly or not at all make each
reply name a different root; within one mailbox a message whose parent (or any ancestor it
names) is in the same mbox takes that message's thread."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

from omnireader import Reader
from omnireader.payloads import Blob


def _message(own: str, *, in_reply_to: str = "", references: str = "", subject: str = "") -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"] = "ann@example.org", "list@example.org"
    msg["Subject"] = subject or "Re: plum harvest"
    msg["Message-ID"] = own
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
    if references:
        msg["References"] = references
    msg.set_content(f"The text of {own}.")
    return msg.as_bytes()


def _mbox(tmp_path: Path, *messages: bytes) -> Path:
    path = tmp_path / "list.mbox"
    path.write_bytes(
        b"".join(b"From ann@example.org Mon Jun  1 09:56:31 2009\n" + m + b"\n" for m in messages)
    )
    return path


def _threads(path: Path) -> dict[str, str]:
    return {i.metadata.extra["message_id"]: i.metadata.extra["thread"] for i in Reader().read(path)}


def test_replies_that_name_only_their_parent_join_the_parents_thread(tmp_path: Path) -> None:
    # complex.mbox's shape: the question is not in the mailbox; the first answer names it by
    # In-Reply-To, the next reply names only the answer (References), the last only In-Reply-To
    path = _mbox(
        tmp_path,
        _message("<answer@x>", in_reply_to="<question@x>"),
        _message("<thanks@x>", in_reply_to="<answer@x>", references="<answer@x>"),
        _message("<more@x>", in_reply_to="<thanks@x>"),
        _message("<other@x>", subject="A new topic"),
    )
    assert _threads(path) == {
        "<answer@x>": "<question@x>",
        "<thanks@x>": "<question@x>",
        "<more@x>": "<question@x>",
        "<other@x>": "<other@x>",
    }


def test_a_reply_stored_before_its_parent_still_finds_it(tmp_path: Path) -> None:
    path = _mbox(
        tmp_path,
        _message("<reply@x>", in_reply_to="<answer@x>"),
        _message("<answer@x>", in_reply_to="<question@x>"),
    )
    assert set(_threads(path).values()) == {"<question@x>"}


def test_full_references_name_the_root_as_they_did(tmp_path: Path) -> None:
    path = _mbox(
        tmp_path,
        _message("<b@x>", in_reply_to="<a@x>", references="<root@x> <a@x>"),
        _message("<c@x>", in_reply_to="<b@x>", references="<root@x> <a@x> <b@x>"),
    )
    assert set(_threads(path).values()) == {"<root@x>"}


def test_a_single_message_keeps_the_thread_its_headers_name() -> None:
    data = _message("<thanks@x>", in_reply_to="<answer@x>", references="<answer@x>")
    [item] = Reader().read(Blob(data=data, filename="thanks.eml"))
    assert item.metadata.extra["thread"] == "<answer@x>"


def test_ids_that_name_each_other_do_not_loop(tmp_path: Path) -> None:
    path = _mbox(
        tmp_path,
        _message("<a@x>", in_reply_to="<b@x>"),
        _message("<b@x>", in_reply_to="<a@x>"),
    )
    assert len(_threads(path)) == 2


def test_the_complex_mbox_conversation_has_one_thread(corpus: Path) -> None:
    threads = _threads(corpus / "realworld" / "complex.mbox")
    assert len(threads) == 3
    assert set(threads.values()) == {"<440622.41041.qm@web111005.mail.gq1.yahoo.com>"}
