"""E-mail: MIME messages, their bodies and headers, mailboxes and Outlook messages."""

__all__ = ["ATTACHMENT_PREFIX"]

#: How a message names its attachments, ``mail.eml!attachment/<file name>`` (here, not in
#: ``message.py``: the parsers read it without importing the mail reader).
ATTACHMENT_PREFIX = "attachment/"
