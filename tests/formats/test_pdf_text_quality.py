"""A page whose text layer does not decode to text is treated as having no text layer.

A font without a ToUnicode map renders fine but extracts as glyph codes
(``=47KHKDUERXUPDVWHU…``). Such a page is flagged ``needs_ocr`` (and ``garbled_text``) like a
scan, its garbage is dropped, and with OCR on it is read from its rendering instead. Real
text in any script or shape — code, numbers, formulas, part numbers, CJK — is never flagged.
"""

from __future__ import annotations

import pytest

from omnireader.formats.document import GARBLED, NEEDS_OCR, Section
from omnireader.formats.pdf.extract import extract_pdf
from omnireader.formats.pdf.text_quality import not_text_share
from omnireader.options import ReadOptions
from omnireader.parsers.base import ParseContext
from omnireader.parsers.file import FileParser
from omnireader.payloads import Blob
from tests.formats.pdf_builders import (
    PAGES,
    page_with,
    raw_pdf,
    stream,
    text_pdf,
    without_tounicode,
)

SENTENCE = ["The harbour master signed the", "delivery note for the blue containers."]


def sections(pdf: bytes, ocr: str = "off") -> list[Section]:
    # The text layer as lines (layout off): these tests are about whether it is text.
    with extract_pdf(Blob(data=pdf), ocr=ocr, layout=False) as doc:
        return list(doc.sections)


def test_a_font_without_tounicode_gives_a_page_that_needs_ocr_not_garbage() -> None:
    [page] = sections(without_tounicode(text_pdf([SENTENCE])))
    assert page.flags == [NEEDS_OCR, GARBLED]
    assert page.text == ""


def test_the_same_page_with_its_tounicode_map_is_plain_text() -> None:
    [page] = sections(text_pdf([SENTENCE]))
    assert page.flags == []
    assert page.text == "\n".join(SENTENCE)


@pytest.mark.parametrize(
    "lines",
    [
        pytest.param(["Привет, мир! Съешь же ещё этих мягких булок."], id="cyrillic"),
        pytest.param(["مرحبا بالعالم، هذه جملة عربية قصيرة للاختبار"], id="arabic"),
        pytest.param(["Καλημέρα κόσμε, η γρήγορη καφέ αλεπού"], id="greek"),
        pytest.param(["def f(x): return {k: v**2 for k in x}", "}}; // done"], id="code"),
        pytest.param(["3.50 147.00 85.75 232.75", "0.001 1e-9 12.25"], id="numbers"),
        pytest.param(["H2SO4 + 2NaOH → Na2SO4 + 2H2O", "C6H12O6 CH3COOH"], id="chemistry"),
        pytest.param(["PN-4471-XZ QX7B9K2 SKU 00-1182-ZZ", "A7F3E9C1D5"], id="part-numbers"),
    ],
)
def test_legitimate_text_of_any_kind_is_never_flagged(lines: list[str]) -> None:
    [page] = sections(text_pdf([lines]))
    assert page.flags == []
    # Every character is kept (Arabic comes out in visual order, so not compared as is).
    assert sorted("".join(page.text.split())) == sorted("".join("".join(lines).split()))


def test_cjk_in_a_predefined_cmap_font_without_tounicode_is_text() -> None:
    # CJK PDFs often name a standard font and CMap (here Simplified Chinese, UCS-2 codes)
    # and carry no ToUnicode map at all: PDFium knows the mapping, so this is real text.
    font = (
        "<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H"
        " /DescendantFonts [<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light"
        " /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 4 >> >>] >>"
    )
    words = "中文文本测试，这是一个句子。"
    codes = "".join(f"{ord(c):04X}" for c in words)
    content = f"BT /F1 24 Tf 72 700 Td <{codes}> Tj ET"
    catalog = "<< /Type /Catalog /Pages 2 0 R >>"
    pdf = raw_pdf([catalog, PAGES, font, stream(content), page_with("")])
    [page] = sections(pdf)
    assert page.flags == []
    assert page.text == words


def test_cid_runs_private_use_and_replacement_characters_are_not_text() -> None:
    assert not_text_share("(cid:72)(cid:101)(cid:108)(cid:108)(cid:111)") == 1.0
    assert not_text_share("\ue001\ue002\ue003 \ufffd\ufffd") == 1.0
    assert not_text_share("The ﬁnal ﬂoor plan — “quoted”, 42 °C, ½ cup") == 0.0
    assert not_text_share("Total: 147.00 (incl. VAT)") == 0.0


def test_a_bullet_from_an_icon_font_does_not_make_a_page_garbled() -> None:
    # Symbol fonts map their glyphs to private-use code points: a few bullets are fine.
    text = "\uf0b7 First point of the agenda\n\uf0b7 Second point of the agenda"
    assert not_text_share(text) < 0.1


def test_with_ocr_off_a_garbled_page_is_reported_like_a_scan() -> None:
    ctx = ParseContext(options=ReadOptions(ocr="off"))
    [item] = FileParser().parse_fast(Blob(data=without_tounicode(text_pdf([SENTENCE]))), ctx)
    assert item.metadata.flags == [NEEDS_OCR, GARBLED]
    # Like a scanned page's: no text (not the garbage), why in extra, for the report.
    assert item.memory == "" and item.metadata.extra["not_read"] == GARBLED


@pytest.mark.parametrize("ocr", ["auto", "always"])
def test_with_ocr_on_a_garbled_page_is_read_from_its_rendering(ocr: str) -> None:
    [page] = sections(without_tounicode(text_pdf([SENTENCE], size=24)), ocr=ocr)
    assert page.flags == ["ocr"]
    assert "harbour master signed" in page.text
