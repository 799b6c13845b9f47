"""OCR's language coverage: the bundled recognition model reads Chinese, Japanese, the
Latin-script languages and Greek letters; text in another script (Korean, Cyrillic) is not
stored as the marks the model makes of it, and the items say what could not be read.
Pictures are drawn in the test (a Hangul font subset ships in tests/support/fonts)."""

from __future__ import annotations

import unicodedata
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from omnireader import Reader
from omnireader.formats.ocr.scripts import READS, UNREAD_SCRIPT, unread_line

FONTS = Path(__file__).resolve().parents[1] / "support" / "fonts"
HANGUL = FONTS / "HangulSubset.ttf"
DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
KOREAN = ["안녕하세요, 오늘 어떻게 지내세요?", "회의는 금요일 오후에 있습니다."]
ENGLISH = "Sales report for the third quarter"


def draw(lines: list[tuple[str, Path | None]], path: Path) -> Path:
    image = Image.new("RGB", (900, 70 * len(lines) + 40), "white")
    pen = ImageDraw.Draw(image)
    for n, (text, font) in enumerate(lines):
        face = ImageFont.truetype(str(font), 32) if font else ImageFont.load_default(32)
        pen.text((20, 20 + 70 * n), text, font=face, fill="black")
    image.save(path)
    return path


def test_the_bundled_model_reads_han_kana_latin_and_greek_and_no_hangul_or_cyrillic() -> None:
    import onnxruntime
    import rapidocr

    model = Path(rapidocr.__file__).parent / "models" / "PP-OCRv6_rec_small.onnx"
    session = onnxruntime.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    chars = session.get_modelmeta().custom_metadata_map["character"].splitlines()
    scripts = Counter(unicodedata.name(c, "?").split()[0] for c in chars if len(c) == 1)
    assert scripts["CJK"] > 15000 and scripts["HIRAGANA"] > 80 and scripts["KATAKANA"] > 80
    assert scripts["LATIN"] > 500 and scripts["GREEK"] >= 48
    for missing in ("HANGUL", "CYRILLIC", "ARABIC", "HEBREW", "DEVANAGARI", "THAI"):
        assert scripts[missing] == 0, missing
    assert READS == "Chinese, Japanese, Latin-script languages and Greek"


def test_a_line_with_far_fewer_characters_than_its_length_is_unread() -> None:
    assert unread_line("", 0.0, 600, 50)  # Korean: nothing at all
    assert unread_line(",  ?", 0.9, 700, 50)  # Cyrillic: a comma and a question mark
    assert unread_line("3  R", 0.3, 285, 66)  # Arabic: a few marks, unsure
    assert not unread_line("The meeting is on Friday.", 0.99, 500, 40)
    assert not unread_line("会议在星期五", 0.95, 300, 50)
    assert not unread_line("", 0.0, 100, 50)  # too short to hold a line: the noise rule's


def test_a_picture_of_korean_text_reports_it_instead_of_storing_garbage(tmp_path: Path) -> None:
    picture = draw([(line, HANGUL) for line in KOREAN], tmp_path / "notice.png")
    result = Reader().read_report(picture)
    [item] = result.items  # the picture's own item: no OCR item of marks
    assert UNREAD_SCRIPT in item.metadata.flags
    # The detector may split a line at a gap ("안녕하세요," | "오늘 ..."): lines found, not drawn.
    assert item.metadata.extra["ocr_unread_lines"] >= 2
    assert item.memory == "Image notice.png (PNG, 900×180)."  # its facts, no status sentence
    [failure] = result.failures  # the report says what was not read, and what to do
    assert failure.error == "needs_ocr" and failure.message == (
        f"{picture}: it has only lines of text in a script the OCR models do not read (they "
        f"read {READS}): a vision model may read it (fine mode)"
    )


def test_korean_beside_english_keeps_the_english_and_counts_the_korean(tmp_path: Path) -> None:
    picture = draw([(ENGLISH, None), (KOREAN[1], HANGUL)], tmp_path / "mixed.png")
    items = Reader().read_report(picture).items
    read = [i for i in items if "ocr" in i.metadata.flags]
    assert [i.memory for i in read] == [ENGLISH]
    assert UNREAD_SCRIPT in read[0].metadata.flags
    assert read[0].metadata.extra["ocr_unread_lines"] == 1


@pytest.mark.skipif(not DEJAVU.is_file(), reason="DejaVu Sans (Cyrillic) not installed")
def test_a_scanned_page_of_russian_text_is_reported_not_stored_as_marks(tmp_path: Path) -> None:
    page = draw(
        [("Отчёт о продажах за третий квартал", DEJAVU), ("Мы встретимся в пятницу.", DEJAVU)],
        tmp_path / "page.png",
    )
    scan = tmp_path / "scan.pdf"
    Image.open(page).convert("RGB").save(scan, resolution=150)
    result = Reader().read_report(scan)
    assert result.items == []  # no marks made of the Cyrillic, no sentence about them
    [failure] = result.failures
    assert failure.error == "needs_ocr" and failure.pages == [1]
    assert "page 1 has only lines of text in a script the OCR models do not read" in failure.message
    assert failure.message.endswith("a vision model may read it (fine mode)")
