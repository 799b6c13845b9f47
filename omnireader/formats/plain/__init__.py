"""Text-like files: plain text in any encoding, Markdown, XML and delimited tables."""

__all__: list[str] = []
