"""OCR of bitmaps with the real engine (RapidOCR, models from its wheel): small drawn
images, so the engine's time stays a few seconds for the whole file."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from omnireader.formats.ocr import get_engine, image_frames, ocr_image
from tests.support import ocr_pages as pages

LINES = ["Invoice 2291 is due on the fourth of June.", "Please pay by bank transfer."]


def small_page(lines: list[str] = LINES, font: str = "aileron") -> Image.Image:
    from PIL import ImageDraw

    face = pages.font(font, 22)
    image = Image.new("L", (560, 40 + 36 * len(lines)), 255)
    draw = ImageDraw.Draw(image)
    for n, line in enumerate(lines):
        draw.text((20, 20 + 36 * n), line, fill=0, font=face)
    return image


@pytest.mark.parametrize("degrees", [0, 90, 180, 270])
def test_a_page_turned_any_quarter_reads_upright_and_says_how_it_was_turned(degrees: int) -> None:
    page = pages.rotated(pages.Page("p", small_page(), "\n".join(LINES)), degrees)
    read = ocr_image(page.image)
    assert read.rotation == degrees
    assert read.text == "\n".join(LINES)
    assert read.confidence is not None and read.confidence > 0.9
    line = read.blocks[0].lines[0]
    assert 0 <= line.bbox[0] < line.bbox[2] <= 1 and 0 <= line.bbox[1] < line.bbox[3] <= 1


def test_a_blank_page_gives_no_text_and_says_it_was_blank() -> None:
    read = ocr_image(pages.blank_page(dpi=60, speckle=40).image)
    assert read.blocks == [] and read.text == "" and read.note == "blank"


def test_a_picture_without_text_gives_no_text() -> None:
    from PIL import ImageDraw

    image = Image.linear_gradient("L").resize((300, 200))
    ImageDraw.Draw(image).ellipse((60, 40, 180, 160), fill=20)
    read = ocr_image(image)
    assert read.text == "" and read.note in ("no_text", "blank")


@pytest.mark.skipif(not pages.FONTS["cjk"].is_file(), reason="the CJK test font is missing")
def test_chinese_is_read() -> None:
    line = "请在合同上签字后将原件寄回我们的北京办公室。"
    assert ocr_image(small_page([line], font="cjk")).text.rstrip("。") == line.rstrip("。")


def test_the_engine_is_loaded_once_per_process_from_models_inside_its_wheel() -> None:
    import rapidocr

    engine = get_engine()
    assert get_engine() is engine
    models = Path(rapidocr.__file__).parent / "models"
    paths = {str(getattr(engine.bare.cfg, stage).model_path) for stage in ("Det", "Cls", "Rec")}
    assert paths and all(Path(p).parent == models and Path(p).is_file() for p in paths)
    assert engine.name.startswith("rapidocr ")


def test_tiff_frames_are_decoded_one_by_one_and_oversized_ones_are_not_decoded() -> None:
    buf = io.BytesIO()
    frames = [small_page(["Page one"]), Image.new("L", (3000, 3000), 255), small_page(["Three"])]
    frames[0].save(buf, "TIFF", save_all=True, append_images=frames[1:])
    got = list(image_frames(buf.getvalue(), max_pixels=4_000_000))
    assert [f.number for f in got] == [1, 2, 3]
    assert got[0].image.size == frames[0].size and got[2].image is not None
    assert got[1].image is None and got[1].problem == "too_large"


def test_a_huge_jpeg_is_decoded_at_a_fraction_of_its_size() -> None:
    buf = io.BytesIO()
    Image.new("L", (8000, 6000), 255).save(buf, "JPEG", quality=50)
    [frame] = image_frames(buf.getvalue(), max_pixels=10_000_000)
    assert frame.image is not None and max(frame.image.size) <= 2000
