"""Office documents: DOCX, legacy DOC/PPT, OpenDocument, RTF, XLSX and XLS."""

__all__: list[str] = []
