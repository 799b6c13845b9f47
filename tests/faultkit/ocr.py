"""OCR cases: a huge image, a corrupt TIFF, a TIFF of 1,000 pages; each next to controls.

Registered as cases of the ``files`` group, but not as builders of the all-in-one ingest
(their OCR time would dominate it).
"""

from __future__ import annotations

from pathlib import Path

from tests.faultkit import fault_cases as gen
from tests.faultkit.fault_cases import Sizes

from .checks import Readable
from .files import Spec, run_folder
from .harness import Outcome, RunEnv, fault

__all__: list[str] = []


def _text_image(width: int, height: int, lines: list[str], px: int = 40) -> object:
    from PIL import Image, ImageDraw

    from tests.support.ocr_pages import font

    image = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(image)
    face = font("aileron", px)
    for n, line in enumerate(lines):
        draw.text((px, px + int(1.5 * px) * n), line, fill=0, font=face)
    return image


def _huge_images(folder: Path, full: bool, sizes: Sizes) -> Spec:
    """A 20,000² image is refused before any pixel is decoded. At full size also: an
    81-megapixel PNG (metadata read, OCR refused: over the decode limit, page marked) and an
    80-megapixel JPEG (decoded at 1/8 scale and read)."""
    bomb = gen.write_png_bomb(folder / "huge.png", 20_000)
    spec = Spec(bad={bomb: "too_large"})
    if full:
        png = folder / "big-scan.png"
        _text_image(9_000, 9_000, ["Too large to read by OCR"]).save(png)  # type: ignore[attr-defined]
        jpg = folder / "big-photo.jpg"
        # Letters 400 px tall: still 80 px after decoding at a fraction of the size.
        _text_image(10_000, 8_000, ["NOTICE BOARD"], px=400).save(jpg, quality=80)  # type: ignore[attr-defined]
        spec.readable += [Readable(png, exact_items=1), Readable(jpg, contains=("NOTICE",))]
    return spec


@fault(
    "files",
    "ocr-huge-image",
    "OCR of a 20,000 × 20,000 image (and, full size, 81- and 80-megapixel PNG / JPEG scans)",
    "too_large before decoding; big JPEG decoded at 1/8 scale and read; big PNG: "
    "metadata item, OCR refused and the page marked unreadable",
)
def _ocr_huge(env: RunEnv) -> Outcome:
    return run_folder(
        env, lambda f, t, s: _huge_images(f, env.scale == "full", s), "ocr-huge-image"
    )


def _corrupt_tiffs(folder: Path) -> Spec:
    import io

    buf = io.BytesIO()
    _text_image(800, 300, ["A fax that was cut short"]).save(buf, "TIFF")  # type: ignore[attr-defined]
    data = buf.getvalue()
    truncated = folder / "cut-short.tif"
    truncated.write_bytes(data[: len(data) // 3])  # the header and IFD survive, pixels do not
    garbage = folder / "garbage.tif"
    garbage.write_bytes(b"II*\x00" + bytes(range(256)) * 8)
    return Spec(bad={garbage: "corrupt"}, readable=[Readable(truncated, exact_items=1)])


@fault(
    "files",
    "ocr-corrupt-tiff",
    "a TIFF cut short after its header, and one of garbage after the TIFF signature",
    "cut short: its metadata item, the page listed unreadable; garbage: corrupt",
)
def _ocr_corrupt(env: RunEnv) -> Outcome:
    return run_folder(env, lambda f, t, s: _corrupt_tiffs(f), "ocr-corrupt-tiff")


def _long_tiff(folder: Path, pages: int) -> Spec:
    from PIL import Image

    blank = Image.new("L", (850, 1100), 255)
    marked = {n for n in range(pages) if n % 100 == 99} or {pages - 1}
    frames = [
        _text_image(850, 1100, [f"Page {n + 1} of the fax"]) if n in marked else blank
        for n in range(pages)
    ]
    path = folder / "long-fax.tif"
    frames[0].save(
        path,
        "TIFF",
        save_all=True,
        append_images=frames[1:],  # type: ignore[attr-defined]
        compression="tiff_lzw",
    )
    words = tuple(f"Page {n + 1} of the fax" for n in sorted(marked))
    # One item per page with text: the image's bare placeholder gives way to what OCR read.
    return Spec(readable=[Readable(path, exact_items=len(marked), contains=words)])


@fault(
    "files",
    "ocr-tiff-1000-pages",
    "a TIFF of 1,000 pages, text on every 100th (30 pages in tests)",
    "read frame by frame: one item per page with text, blank pages skipped at the ink check",
)
def _ocr_long_tiff(env: RunEnv) -> Outcome:
    pages = 1000 if env.scale == "full" else 30
    return run_folder(env, lambda f, t, s: _long_tiff(f, pages), "ocr-tiff-1000-pages")
