"""PDF: document info, pages (text layer, scans by OCR), forms and comments."""

__all__: list[str] = []
