"""E-books: EPUB."""
