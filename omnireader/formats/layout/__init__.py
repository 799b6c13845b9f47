"""Document structure: a page's positioned text (a PDF text layer or OCR boxes) becomes
blocks in reading order: headings with levels, paragraphs, lists, tables with cells,
captions and page furniture. It knows nothing of items, stores or files."""

__all__: list[str] = []
