"""E-mail: MIME messages, their bodies and headers, mailboxes and Outlook messages."""

__all__: list[str] = []
