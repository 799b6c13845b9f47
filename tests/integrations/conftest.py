"""A folder of real files for the framework adapters: a PDF, a DOCX and an e-mail.

Each is written here with the libraries that make such files (no fixture files checked in),
and each says something only it says, so a test can tell which file a hit came from.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

import pytest

__all__ = ["mixed_folder", "served_folder", "PDF_FACT", "DOCX_FACT", "MAIL_FACT"]

PDF_FACT = "The Lisbon warehouse shipped 4,210 crates in September."
DOCX_FACT = "The Osprey migration finishes when the Oslo data centre closes."
MAIL_FACT = "The board meets in Utrecht on Thursday to approve the budget."


def _pdf(path: Path) -> None:
    from samples.make_samples import write_text_pdf

    write_text_pdf(
        path,
        [["Logistics review", "Quarter three in brief."], ["Warehouses", PDF_FACT]],
        title="Logistics review",
        author="Maria Santos",
        created=datetime(2024, 10, 1, 9, 0, 0),
    )


def _docx(path: Path) -> None:
    import docx

    d = docx.Document()
    d.core_properties.author = "Daniel Okafor"
    d.core_properties.title = "Osprey plan"
    d.core_properties.created = datetime(2024, 11, 4, 14, 30)
    d.add_heading("Osprey plan", level=1)
    d.add_paragraph("Why the move is needed and who runs it.")
    d.add_heading("Timeline", level=1)
    d.add_paragraph(DOCX_FACT)
    d.save(str(path))


def _mail(path: Path) -> None:
    msg = EmailMessage(policy=SMTP)
    msg["Subject"] = "Board meeting"
    msg["From"] = "Ann Lee <ann@example.org>"
    msg["To"] = "Bo Chen <bo@example.org>"
    msg["Date"] = "Tue, 06 May 2025 10:30:00 +0200"
    msg["Message-ID"] = "<board-2025-05@example.org>"
    msg.set_content(f"Hello Bo,\n\n{MAIL_FACT}\n\nAnn\n")
    path.write_bytes(msg.as_bytes())


@pytest.fixture
def mixed_folder(tmp_path: Path) -> Path:
    """tmp_path/docs with logistics.pdf, osprey.docx and board.eml."""
    folder = tmp_path / "docs"
    folder.mkdir()
    _pdf(folder / "logistics.pdf")
    _docx(folder / "osprey.docx")
    _mail(folder / "board.eml")
    return folder


@pytest.fixture
def served_folder(mixed_folder: Path) -> Iterator[str]:
    """The folder's files over real HTTP on 127.0.0.1: the base URL (no trailing slash)."""
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:  # keep the test output clean
            pass

    handler = functools.partial(Quiet, directory=str(mixed_folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        thread.join(5)
