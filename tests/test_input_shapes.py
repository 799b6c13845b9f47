"""Every input shape an agent or a library user really sends is read as what it is."""

from __future__ import annotations

import base64
import functools
import threading
import warnings
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from omnireader import OmniReaderWarning, Reader
from omnireader.errors import InvalidInputError


def b64(path: Path) -> str:
    return base64.b64encode(path.read_bytes()).decode()


def text_of(items) -> str:
    return " ".join(i.memory for i in items)


@pytest.fixture()
def files_server(sample_files: Path) -> Iterator[str]:
    """samples/files over real HTTP on 127.0.0.1."""

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(sample_files))
    srv = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


def test_a_developer_message_is_read_like_a_system_message() -> None:
    items = Reader().read(
        [
            {"role": "developer", "content": "Answer briefly."},
            {"role": "user", "content": "I moved to Berlin in May."},
        ]
    )
    assert "Berlin" in text_of(items)


def test_responses_api_parts_are_read(sample_files: Path) -> None:
    png = "data:image/png;base64," + b64(sample_files / "whiteboard.png")
    pdf = "data:application/pdf;base64," + b64(sample_files / "quarterly_report.pdf")
    items = Reader().read(
        [
            {
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "Here is the report and the board."},
                    {"type": "input_image", "image_url": png, "detail": "low"},
                    {"type": "input_file", "filename": "q3.pdf", "file_data": pdf},
                ],
            }
        ]
    )
    kinds = [i.source.kind for i in items]
    assert kinds.count("chat") == 1 and "image" in kinds and kinds.count("file") >= 1
    pdf_items = [i for i in items if i.source.kind == "file"]
    assert pdf_items[0].source.filename == "q3.pdf" and "revenue" in text_of(pdf_items).lower()


def test_image_url_as_a_plain_string_is_accepted(sample_files: Path) -> None:
    png = "data:image/png;base64," + b64(sample_files / "whiteboard.png")
    # OCR off: the whiteboard's text would add an OCR item beside the image's own.
    [item] = Reader(ocr="off").read([{"type": "image_url", "image_url": png}])
    assert item.source.kind == "image" and item.metadata.extra.get("width")


def test_a_file_part_with_bare_base64_is_read_as_the_file_it_is(sample_files: Path) -> None:
    part = {
        "type": "file",
        "file": {"filename": "q3.pdf", "file_data": b64(sample_files / "quarterly_report.pdf")},
    }
    items = Reader().read([part])
    assert "JVBERi" not in text_of(items)
    assert [i.source.page for i in items] == [1, 2, 3]
    assert items[0].source.mime == "application/pdf"


def test_a_file_part_with_plain_text_stays_text() -> None:
    part = {"type": "file", "file": {"filename": "n.txt", "file_data": "Ship it in May."}}
    [item] = Reader().read([part])
    assert item.memory == "Ship it in May."


def test_a_string_path_a_file_url_and_an_http_url_are_read_as_files(
    sample_files: Path, files_server: str
) -> None:
    pdf = sample_files / "quarterly_report.pdf"
    reader = Reader(allow_private_urls=True)
    for given in (str(pdf), pdf.as_uri(), f"{files_server}/quarterly_report.pdf"):
        items = reader.read(given)
        assert [i.source.page for i in items] == [1, 2, 3], given
    assert Reader(strings_as_text=True).read(str(pdf))[0].memory == str(pdf)


def test_a_string_folder_is_read_file_by_file(sample_files: Path) -> None:
    result = Reader().read_report(str(sample_files))
    assert result.inputs == len(list(sample_files.iterdir()))


def test_a_missing_path_string_warns_and_is_kept_as_text() -> None:
    with pytest.warns(OmniReaderWarning, match="no such file"):
        [item] = Reader().read("/nonexistent/file.pdf")
    assert item.memory == "/nonexistent/file.pdf"


def test_a_bad_part_is_reported_and_the_rest_of_the_message_kept(sample_files: Path) -> None:
    png = "data:image/png;base64," + b64(sample_files / "whiteboard.png")
    message = {
        "role": "user",
        "content": [
            {"type": "text", "text": "Two pictures from the offsite in Lisbon."},
            {"type": "image_url", "image_url": {"url": "http://127.0.0.1:9/gone.png"}},
            {"type": "image_url", "image_url": {"url": png}},
        ],
    }
    reader = Reader(ocr="off")  # one item per picture (OCR would add the whiteboard's text)
    with pytest.warns(OmniReaderWarning, match="blocked_url"):
        items = reader.read([message])
    assert [i.source.kind for i in items] == ["chat", "image"]
    report = reader.read_report([message])
    assert [f.error for f in report.failures] == ["blocked_url"] and not report.lost
    assert len(report.items) == 2


def test_an_input_that_gives_nothing_still_raises() -> None:
    with pytest.raises(InvalidInputError):
        Reader().read([{"type": "input_image"}])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Reader().read([{"type": "input_image"}], on_error="skip") == []
