"""Web and MarkItDown formats: HTML, and the bridge to MarkItDown (PPTX, EPUB, IPYNB, RSS)."""

__all__: list[str] = []
