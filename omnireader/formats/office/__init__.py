"""Office documents: DOCX, legacy DOC/PPT, OpenDocument, RTF, XLSX and XLS."""
