"""Scanned PDF pages, images and TIFF pages read by OCR into items: text in reading order,
where it came from (page, boxes, confidence, engine), and the flag fine mode upgrades."""

from __future__ import annotations

from pathlib import Path

from omnireader.models import MemoryItem
from omnireader.options import ReadOptions
from omnireader.parsers.base import ParseContext
from omnireader.parsers.file import FileParser
from omnireader.parsers.image import ImageParser
from omnireader.payloads import Blob
from tests.formats.test_ocr import LINES, small_page
from tests.support import ocr_pages as pages

OFF = ParseContext(options=ReadOptions(ocr="off"))


def read_file(path: Path, ctx: ParseContext = ParseContext()) -> list[MemoryItem]:
    return FileParser().parse_fast(Blob(path=str(path)), ctx)


def test_a_scanned_pdf_page_is_read_with_its_page_boxes_confidence_and_engine(
    tmp_path: Path,
) -> None:
    path = pages.write_pdf(
        [small_page(), pages.blank_page(dpi=40).image], tmp_path / "scan.pdf", dpi=150
    )
    [item] = read_file(path)  # the blank second page gives no item and no error
    meta = item.metadata
    assert item.memory == "\n".join(LINES)
    assert meta.flags == ["ocr"] and item.source.page == 1
    assert meta.extra["ocr_engine"].startswith("rapidocr") and meta.extra["ocr_confidence"] > 0.9
    [block] = meta.extra["ocr_blocks"]
    assert [line["text"] for line in block["lines"]] == LINES
    assert all(len(line["bbox"]) == 4 and 0.9 < line["confidence"] <= 1 for line in block["lines"])
    assert (item.source.char_start, item.source.char_end) == (0, len(item.memory))


def test_with_ocr_off_the_same_scan_reads_as_it_did_before_ocr(tmp_path: Path) -> None:
    path = pages.write_pdf([small_page()], tmp_path / "scan.pdf", dpi=150)
    [item] = read_file(path, OFF)
    assert item.metadata.flags == ["needs_ocr"]
    assert item.memory == "" and item.metadata.extra["not_read"] == "ocr_off"


def test_a_page_of_pictures_without_text_stays_flagged_for_a_vision_model(tmp_path: Path) -> None:
    from PIL import Image, ImageDraw

    image = Image.new("L", (400, 300), 255)
    ImageDraw.Draw(image).rectangle((40, 40, 360, 260), fill=30)
    [item] = read_file(pages.write_pdf([image], tmp_path / "photo.pdf", dpi=100))
    assert item.metadata.flags == ["needs_ocr"] and item.memory == ""
    assert item.metadata.extra["ocr_note"] == "no_text"
    assert item.metadata.extra["not_read"] == "no_text_found"


def test_an_image_with_text_gives_its_ocr_items_and_no_placeholder_beside_them() -> None:
    import io

    buf = io.BytesIO()
    small_page().save(buf, "PNG")
    [text_item] = ImageParser().parse_fast(
        Blob(data=buf.getvalue(), filename="note.png"), ParseContext()
    )
    assert text_item.memory == "\n".join(LINES) and text_item.metadata.flags == ["ocr"]
    assert text_item.source.kind == "image" and text_item.source.page is None
    assert text_item.metadata.extra["format"] == "PNG"
    assert text_item.metadata.extra["width"] == small_page().width


def test_an_image_with_a_message_keeps_its_item_beside_the_text_on_it() -> None:
    import io

    buf = io.BytesIO()
    small_page().save(buf, "PNG")
    meta_item, text_item = ImageParser().parse_fast(
        Blob(data=buf.getvalue(), filename="note.png", context="the note from the fridge"),
        ParseContext(),
    )
    assert meta_item.metadata.flags == ["needs_vision"]
    assert "the note from the fridge" in meta_item.memory
    assert text_item.memory == "\n".join(LINES) and text_item.metadata.flags == ["ocr"]


def test_an_image_without_text_keeps_its_placeholder() -> None:
    import io

    from PIL import Image, ImageDraw

    image = Image.new("L", (400, 300), 255)
    ImageDraw.Draw(image).ellipse((40, 40, 360, 260), fill=30)
    buf = io.BytesIO()
    image.save(buf, "PNG")
    [item] = ImageParser().parse_fast(
        Blob(data=buf.getvalue(), filename="blob.png"), ParseContext()
    )
    assert item.metadata.flags == ["needs_vision"] and item.memory.startswith("Image blob.png")


def test_an_icon_too_small_for_a_line_of_text_is_not_ocrd() -> None:
    import io

    from PIL import Image, ImageDraw

    from omnireader.formats.ocr.read import MIN_LINE_PIXELS, can_hold_text, ocr_image

    icon = Image.new("RGB", (27, 27), "white")
    ImageDraw.Draw(icon).text((2, 8), "Hi", fill="black")
    buf = io.BytesIO()
    icon.save(buf, "PNG")
    [item] = ImageParser().parse_fast(
        Blob(data=buf.getvalue(), filename="icon.png"), ParseContext()
    )
    assert item.metadata.extra["ocr_skipped"] == "too_small"
    assert item.metadata.flags == ["needs_vision"]
    assert ocr_image(icon).note == "too_small"
    assert not can_hold_text(MIN_LINE_PIXELS - 1, MIN_LINE_PIXELS - 1)
    assert can_hold_text(MIN_LINE_PIXELS, 12) and can_hold_text(12, MIN_LINE_PIXELS)


def test_each_page_of_a_multipage_tiff_is_read_as_its_page(tmp_path: Path) -> None:
    frames = [
        small_page(["Fax page one: shipment arrives Tuesday"]),
        pages.blank_page(dpi=30).image,
        small_page(["Fax page three: sign and return"]),
    ]
    path = pages.write_tiff(frames, tmp_path / "fax.tif")
    texts = ImageParser().parse_fast(Blob(path=str(path)), ParseContext())
    assert all(i.metadata.extra["frames"] == 3 for i in texts)
    assert [(i.source.page, i.memory) for i in texts] == [
        (1, "Fax page one: shipment arrives Tuesday"),
        (3, "Fax page three: sign and return"),
    ]
    assert [i.metadata.flags for i in ImageParser().parse_fast(Blob(path=str(path)), OFF)] == [
        ["needs_vision"]
    ]


ALWAYS = ParseContext(options=ReadOptions(ocr="always"))


def pdf_with_text_and_picture(path: Path) -> Path:
    import pypdfium2 as pdfium

    from samples.make_samples import write_text_pdf

    write_text_pdf(path, [["Minutes of the site visit on Monday."]], title="Visit")
    pdf = pdfium.PdfDocument(path)
    page = pdf[0]
    picture = pdfium.PdfImage.new(pdf)
    picture.set_bitmap(pdfium.PdfBitmap.from_pil(small_page().convert("RGB")))
    picture.set_matrix(pdfium.PdfMatrix().scale(280, 56).translate(60, 300))
    page.insert_obj(picture)
    page.gen_content()
    out = path.with_name("with-picture.pdf")
    pdf.save(out)
    pdf.close()
    return out


def test_auto_leaves_pictures_in_text_pdfs_alone_and_always_reads_them(tmp_path: Path) -> None:
    path = pdf_with_text_and_picture(tmp_path / "visit.pdf")
    [text] = read_file(path)
    assert "site visit" in text.memory and text.metadata.flags == []
    page_text, picture = read_file(path, ALWAYS)
    assert page_text.memory == text.memory
    assert picture.memory == "\n".join(LINES) and picture.metadata.flags == ["ocr"]
    assert picture.source.page == 1 and picture.metadata.extra["ocr_image"] == 1


def test_always_reads_the_pictures_of_a_docx(tmp_path: Path) -> None:
    import io

    import docx

    document = docx.Document()
    document.add_paragraph("The whiteboard from the planning meeting:")
    buf = io.BytesIO()
    small_page().save(buf, "PNG")
    buf.seek(0)
    document.add_picture(buf)
    path = tmp_path / "meeting.docx"
    document.save(str(path))
    assert ["ocr" in i.metadata.flags for i in read_file(path)] == [False]
    paragraph, picture = read_file(path, ALWAYS)
    assert "whiteboard" in paragraph.memory
    assert picture.memory == "\n".join(LINES) and picture.metadata.flags == ["ocr"]
    assert picture.metadata.extra["heading"].startswith("picture ")


def test_a_mail_with_an_icon_does_not_load_the_ocr_engine(tmp_path: Path) -> None:
    import base64
    import io
    import subprocess
    import sys

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (27, 27), "navy").save(buf, "PNG")
    icon = base64.b64encode(buf.getvalue()).decode()
    mail = tmp_path / "icon.eml"
    mail.write_text(
        "From: a@example.org\r\nTo: b@example.org\r\nSubject: Logo\r\nMIME-Version: 1.0\r\n"
        'Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\n'
        "Content-Type: text/plain\r\n\r\nSee the logo.\r\n--b\r\n"
        'Content-Type: image/png; name="logo.png"\r\nContent-Transfer-Encoding: base64\r\n'
        f'Content-Disposition: attachment; filename="logo.png"\r\n\r\n{icon}\r\n--b--\r\n'
    )
    code = (
        "import sys; from omnireader import Reader; "
        f"r = Reader().read_report({str(mail)!r}); assert len(r.items) == 2, r; "
        "print(sorted(m for m in ('rapidocr', 'onnxruntime') if m in sys.modules))"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[]", out


def test_an_image_read_only_as_low_confidence_lines_keeps_the_reading_on_its_own_item(
    corpus: Path,
) -> None:
    import email

    # The EPA seal of the saved page in the corpus: OCR takes its ring for letters.
    page = email.message_from_bytes((corpus / "realworld" / "testRFC822_oddfrom").read_bytes())
    [seal] = [
        p.get_payload(decode=True) for p in page.walk() if p.get_content_type() == "image/gif"
    ]
    [item] = ImageParser().parse_fast(Blob(data=seal, filename="logo_epaseal.gif"), ParseContext())
    assert item.memory == "Image logo_epaseal.gif (GIF, 100×111)."  # not "PR\n\nELUISSGIN.S"
    assert item.metadata.flags == ["needs_vision", "ocr_low_confidence"]
    [reading] = item.metadata.extra["ocr_low_confidence_reading"]
    assert reading["text"] and reading["lines"] == item.metadata.extra["ocr_low_confidence_lines"]
    assert reading["confidence"] < 0.75 and reading["page"] == 1
    assert item.metadata.extra["ocr_engine"]


def test_image_items_and_the_text_read_on_them_are_keyed_by_the_image_name() -> None:
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (32, 32), "red").save(buf, "PNG")
    [icon] = ImageParser().parse_fast(Blob(data=buf.getvalue(), filename="dot.png"), ParseContext())
    assert icon.metadata.key == "dot.png"
    buf = io.BytesIO()
    small_page().save(buf, "PNG")
    items = ImageParser().parse_fast(
        Blob(data=buf.getvalue(), filename="note.png", context="the note from the fridge"),
        ParseContext(),
    )
    assert [i.metadata.key for i in items] == ["note.png", "note.png"]
