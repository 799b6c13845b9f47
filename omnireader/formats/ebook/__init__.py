"""E-books: EPUB."""

__all__: list[str] = []
