"""What a conversion to Markdown gives: its text, and the title and language it found."""

from __future__ import annotations

from pydantic import BaseModel

from omnireader.formats.web.html_meta import PageMeta

__all__ = ["Converted"]


class Converted(BaseModel):
    """Markdown for one input (MarkItDown's, or the HTML converter's), and the title it
    found (if any)."""

    text: str
    title: str | None = None
    #: The language the page declares (``<html lang>``), for HTML; None when it says none.
    lang: str | None = None
    #: What a web page says of itself (its dates and authors), for HTML; None otherwise.
    page: PageMeta | None = None
