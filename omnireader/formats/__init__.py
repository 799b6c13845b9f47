"""Bytes to text, per format: sniffing, PDF, DOCX, MarkItDown, text, archives, media."""

__all__: list[str] = []
