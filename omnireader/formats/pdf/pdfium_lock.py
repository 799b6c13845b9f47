"""One PDFium call at a time in a process.

PDFium is not thread-safe, not even across documents (pypdfium2's own documentation): two
threads inside it at once read wrong text, fail on sound files or crash the process.
Measured before this lock: two threads reading the shared corpus's 49 PDFs three times each,
layout off, saw ~200 of 294 reads differ from a serial read (empty text, ``CorruptError``
on sound files) and one run in three died of a segmentation fault. Threads are how a
server reads (the HTTP service's ``/v1/read`` runs in a thread pool, the MCP tools in
``asyncio.to_thread``), and how an agent's upload handler may call ``Reader.read``.

pypdfium2 allows threads as long as the calls are serialised, so everything here that
calls PDFium holds :data:`PDFIUM`: a PDF's opening and document info, each page's text
layer (its layout's reading of words and rules included), a page or picture drawn for OCR,
the document's closing, and a page rendered for a vision model. It is re-entrant, so one
region may call another. Work that does not touch PDFium runs outside it: OCR reading a
drawn page (seconds a page: another thread's PDF goes on meanwhile), the sections handed
on, chunking, items. Processes (the batch ingest's workers) each have their own PDFium and
their own lock.
"""

from __future__ import annotations

import threading

__all__ = ["PDFIUM"]

#: Held by whatever calls PDFium (see the module).
PDFIUM = threading.RLock()
