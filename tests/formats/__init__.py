"""Format extractors: PDF, DOCX (bytes -> text per section)."""
