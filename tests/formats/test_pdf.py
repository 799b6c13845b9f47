"""PDF extraction: text per page, scans flagged, passwords, broken files, document info."""

from __future__ import annotations

import inspect
import json
import re
import tracemalloc
import unicodedata
from pathlib import Path

import pytest

from omnireader.errors import CorruptError, EncryptedError
from omnireader.formats.document import EMPTY, NEEDS_OCR, DocInfo, Section, pdf_date_to_iso
from omnireader.formats.pdf.extract import clean_pdf_text, extract_pdf
from omnireader.payloads import Blob

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
USER_PASSWORD = "asdfzxcv"
OPEN_WITHOUT_PASSWORD = [
    "unencrypted.pdf",
    "r4-aes-v2-no-key-length.pdf",
    *(f"r{r}-empty-password.pdf" for r in (2, 3, 5, 6)),
    *(f"r{r}-owner-password.pdf" for r in (2, 4, 5, 6)),
]
NEED_USER_PASSWORD = [f"r{r}-user-password.pdf" for r in (2, 3, 4, 5, 6)] + [
    "r4-aes-user-password.pdf"
]


def words(text: str) -> str:
    """Compare text the way a reader would: ligatures expanded, whitespace collapsed,
    Markdown heading marks (the layout's) left out."""
    text = re.sub(r"(?m)^#{1,6} ", "", text)
    return " ".join(unicodedata.normalize("NFKC", text).split())


def read(blob: Blob, password: str | None = None) -> tuple[DocInfo, list[Section]]:
    with extract_pdf(blob, password) as doc:
        return doc.info, list(doc.sections)


def make_pdf(contents: list[bytes], padding: int = 0) -> bytes:
    """A valid PDF with one page per content stream (Helvetica as /F1), written by hand.

    ``padding`` adds that many bytes of comment lines after the header: a big file with
    tiny content, which every reader skips.
    """
    n = len(contents)
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(n))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {n} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for i, content in enumerate(contents):
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {5 + 2 * i} 0 R"
            " /Resources << /Font << /F1 3 0 R >> >> >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n")
    out += (b"%" + b"x" * 79 + b"\n") * (padding // 81)
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def text_op(text: str) -> bytes:
    return f"BT /F1 18 Tf 72 700 Td ({text}) Tj ET".encode()


def test_text_matches_the_ground_truth_of_crazyones(corpus: Path) -> None:
    info, [page] = read(Blob(path=str(corpus / "pypdf" / "crazyones.pdf")))
    expected = (corpus / "pypdf" / "crazyones.txt").read_text(encoding="utf-8")
    assert page.page == 1 and page.flags == []
    assert words(page.text) == words(expected)
    assert info.page_count == 1


def _pdf_expectations() -> list[tuple[str, list[str]]]:
    # Read at collection time, so not through the `corpus` fixture; same location.
    path = CORPUS / "markitdown" / "expected.json"
    if not path.is_file():
        return [("absent.pdf", [])]  # the corpus fixture skips these
    files = json.loads(path.read_text(encoding="utf-8"))["files"]
    return [(n, e["must_find"]) for n, e in files.items() if n.endswith(".pdf") and e["must_find"]]


@pytest.mark.parametrize(("name", "must_find"), _pdf_expectations())
def test_corpus_pdfs_yield_their_expected_fragments(
    corpus: Path, name: str, must_find: list[str]
) -> None:
    _, pages = read(Blob(path=str(corpus / "markitdown" / name)))
    text = " ".join(words(p.text).lower() for p in pages)
    assert [p.page for p in pages] == list(range(1, len(pages) + 1))
    assert [f for f in must_find if words(f).lower() not in text] == []


def test_text_is_normalised_and_line_end_hyphens_are_rejoined(corpus: Path) -> None:
    _, [page] = read(Blob(path=str(corpus / "markitdown" / "test.pdf")))
    assert not set("\r\x00\x0c\x02\ufffe") & set(page.text)
    # "con-" / "firming" across a line break in the PDF becomes one word.
    assert "reasons confirming its" in words(page.text)


def test_non_latin_scripts_survive(corpus: Path) -> None:
    _, [page] = read(Blob(path=str(corpus / "pypdf" / "hello-world.pdf")))
    assert "مرحبا بالعالم" in page.text and "Привет" in page.text


def test_clean_pdf_text_strips_control_characters_and_crlf() -> None:
    raw = "Title\r\n\x00line one  \r\nhyphen\ufffeated\x0cnext page\r\n\r\n\r\n\r\nend"
    assert clean_pdf_text(raw) == "Title\nline one\nhyphenated\nnext page\n\nend"


def test_a_scanned_pdf_flags_every_page_as_needing_ocr(corpus: Path) -> None:
    path = corpus / "markitdown" / "MEDRPT-2024-PAT-3847_medical_report_scan.pdf"
    info, pages = read(Blob(path=str(path)))
    assert len(pages) == info.page_count == 3
    assert all(p.flags == [NEEDS_OCR] and p.text == "" for p in pages)


def test_text_placed_off_the_page_does_not_count_as_a_text_layer(corpus: Path) -> None:
    # Each page is a full-page image; some carry an invisible "Background" label off-page.
    _, pages = read(Blob(path=str(corpus / "pypdf" / "imagemagick-images.pdf")))
    assert len(pages) == 6 and all(p.flags == [NEEDS_OCR] for p in pages)


def test_a_caption_over_a_large_image_is_kept_but_flagged(corpus: Path) -> None:
    _, [page] = read(Blob(path=str(corpus / "pypdf" / "jpeg.pdf")))
    assert page.text == "A PDF with a JPEG image." and page.flags == [NEEDS_OCR]


def test_an_ocr_text_layer_counts_as_text(corpus: Path) -> None:
    _, pages = read(Blob(path=str(corpus / "pypdf" / "Seige_of_Vicksburg_Sample_OCR.pdf")))
    assert all(p.flags == [] for p in pages)
    assert "did not last long" in pages[0].text
    # The book's running head, misread a letter apart on some pages, is no body text.
    assert not any("THE SIEGE" in p.text for p in pages if p.part is None)


def test_handwritten_pdf_pages_text_blank_and_drawing_only() -> None:
    drawing = b"0 0 1 rg 100 100 200 200 re f"
    data = make_pdf([text_op("Hello page one"), b"", drawing])
    info, pages = read(Blob(data=data, filename="three.pdf"))
    assert info.page_count == 3
    assert [(p.page, p.text, p.flags) for p in pages] == [
        (1, "Hello page one", []),
        (2, "", [EMPTY]),  # nothing drawn at all
        (3, "", [NEEDS_OCR]),  # drawn, but no text layer
    ]


def test_pages_are_produced_lazily_and_close_stops_them() -> None:
    data = make_pdf([text_op(f"Page number {n}") for n in range(1, 6)])
    doc = extract_pdf(Blob(data=data))
    assert inspect.isgenerator(doc.sections)
    first = next(doc.sections)
    assert (first.page, first.text) == (1, "Page number 1")
    doc.close()
    assert list(doc.sections) == []
    doc.close()  # twice is harmless


def test_a_pdf_given_by_path_is_not_read_into_python_memory(tmp_path: Path) -> None:
    path = tmp_path / "big.pdf"
    path.write_bytes(make_pdf([text_op("small text, big file")], padding=8_000_000))
    tracemalloc.start()
    try:
        info, [page] = read(Blob(path=str(path)))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert page.text == "small text, big file" and info.page_count == 1
    assert path.stat().st_size > 8_000_000
    assert peak < 2_000_000  # far below the file's 8 MB


@pytest.mark.parametrize("name", OPEN_WITHOUT_PASSWORD)
def test_pdfs_with_an_empty_or_owner_only_password_open_without_one(
    corpus: Path, name: str
) -> None:
    _, [page] = read(Blob(path=str(corpus / "pypdf" / "encryption" / name)))
    assert page.text.startswith("pdf encryption test")


@pytest.mark.parametrize("name", NEED_USER_PASSWORD)
def test_a_user_password_is_asked_for_then_accepted(corpus: Path, name: str) -> None:
    path = str(corpus / "pypdf" / "encryption" / name)
    with pytest.raises(EncryptedError) as caught:
        extract_pdf(Blob(path=path))
    assert caught.value.input_name == path and caught.value.code == "encrypted"
    assert "--password" in str(caught.value) and "ReadOptions.password" in str(caught.value)
    info, [page] = read(Blob(path=path), password=USER_PASSWORD)
    assert page.text.startswith("pdf encryption test")
    assert info.authors == ["cheng"] and info.extra["encrypted"] is True


def test_a_wrong_password_is_reported_as_wrong(corpus: Path) -> None:
    path = str(corpus / "pypdf" / "encryption" / "r4-aes-user-password.pdf")
    with pytest.raises(EncryptedError, match="password is wrong"):
        extract_pdf(Blob(path=path), password="not-it")


def test_the_password_can_come_with_the_blob(corpus: Path) -> None:
    path = corpus / "pypdf" / "encryption" / "r6-both-passwords.pdf"
    _, [page] = read(Blob(data=path.read_bytes(), filename=path.name, password="foo"))
    assert page.text.startswith("pdf encryption test")


def test_aes256_crazyones_reads_with_its_password(corpus: Path) -> None:
    path = str(corpus / "pypdf" / "crazyones-encrypted-256.pdf")
    _, [page] = read(Blob(path=path), password="password")
    expected = (corpus / "pypdf" / "crazyones.txt").read_text(encoding="utf-8")
    assert words(page.text) == words(expected)


@pytest.mark.parametrize("name", ["encrypted-file.pdf", "libreoffice-writer-password.pdf"])
def test_encrypted_pdfs_without_a_known_password_fail_clearly(corpus: Path, name: str) -> None:
    with pytest.raises(EncryptedError, match="encrypted; pass the password"):
        extract_pdf(Blob(path=str(corpus / "pypdf" / name)))


@pytest.mark.parametrize("keep", [0.1, 0.5, 0.9])
def test_a_truncated_pdf_is_corrupt_and_names_the_input(corpus: Path, keep: float) -> None:
    data = (corpus / "markitdown" / "test.pdf").read_bytes()
    with pytest.raises(CorruptError) as caught:
        extract_pdf(Blob(data=data[: int(len(data) * keep)], filename="cut.pdf"))
    assert caught.value.input_name == "cut.pdf" and caught.value.code == "corrupt"


@pytest.mark.parametrize("data", [b"", b"%PDF-1.7\n", b"not a pdf at all " * 50])
def test_bytes_that_are_not_a_pdf_are_corrupt(data: bytes) -> None:
    with pytest.raises(CorruptError, match="not a readable PDF"):
        extract_pdf(Blob(data=data, filename="x.pdf"))


def test_a_handwritten_pdf_cut_before_its_xref_is_corrupt(tmp_path: Path) -> None:
    data = make_pdf([text_op("soon gone")])
    path = tmp_path / "cut.pdf"
    path.write_bytes(data[: data.index(b"xref")])
    with pytest.raises(CorruptError) as caught:
        extract_pdf(Blob(path=str(path)))
    assert str(path) in str(caught.value)


def test_document_info_is_read_with_dates_as_iso(corpus: Path) -> None:
    info, _ = read(Blob(path=str(corpus / "pypdf" / "metadata.pdf")))
    assert info.title == "The Title" and info.authors == ["Martin Thoma"]
    assert info.created == info.modified == "2022-04-15T09:32:43+02:00"
    assert info.extra["subject"] == "The Subject" and info.extra["encrypted"] is False


_XMP = (
    '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">'
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
    '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">'
    '<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Only In XMP</rdf:li></rdf:Alt></dc:title>'
    "<dc:creator><rdf:Seq><rdf:li>Ada Lovelace</rdf:li></rdf:Seq></dc:creator>"
    '</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>'
)


@pytest.mark.parametrize("given", ["path", "bytes"])
def test_a_title_and_author_only_in_the_xmp_packet_are_read(tmp_path: Path, given: str) -> None:
    # The Info dict (PDFium's, free) lacks them: the XMP packet is looked for and read.
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(200, 200)
    writer.xmp_metadata = _XMP.encode()
    path = tmp_path / "xmp.pdf"
    writer.write(path)
    blob = Blob(path=str(path)) if given == "path" else Blob(data=path.read_bytes())
    info, _ = read(blob)
    assert (info.title, info.authors) == ("Only In XMP", ["Ada Lovelace"])


def test_placeholder_titles_and_authors_are_dropped(corpus: Path) -> None:
    # ReportLab writes "(anonymous)" / "(unspecified)" when nobody set them.
    path = corpus / "markitdown" / "RECEIPT-2024-TXN-98765_retail_purchase.pdf"
    info, _ = read(Blob(path=str(path)))
    assert info.title is None and info.authors == [] and "subject" not in info.extra
    assert info.created == "2025-12-05T10:49:51+01:00"


@pytest.mark.parametrize("name", ["missing_info.pdf", "issue-297.pdf"])
def test_missing_or_malformed_info_gives_empty_fields_not_errors(corpus: Path, name: str) -> None:
    info, pages = read(Blob(path=str(corpus / "pypdf" / name)))
    assert (info.title, info.authors, info.created) == (None, [], None)
    assert info.page_count == len(pages) == 1 and pages[0].text


@pytest.mark.parametrize(
    ("raw", "iso"),
    [
        ("D:20240101120000+01'00'", "2024-01-01T12:00:00+01:00"),
        ("D:20100802090958-05'00'", "2010-08-02T09:09:58-05:00"),
        ("D:20231005000756Z", "2023-10-05T00:07:56+00:00"),
        ("D:20240101120000Z00'00'", "2024-01-01T12:00:00+00:00"),
        ("D:20220415120659", "2022-04-15T12:06:59"),
        ("D:202204", "2022-04-01T00:00:00"),
        ("20220415", "2022-04-15T00:00:00"),
        ("D:20221315", None),  # month 13
        ("yesterday", None),
        ("", None),
        (None, None),
    ],
)
def test_pdf_dates_become_iso_8601(raw: str | None, iso: str | None) -> None:
    assert pdf_date_to_iso(raw) == iso
