"""Pages of known text, drawn as bitmaps: the OCR benchmark's data and the tests' too.

Each page is drawn with a TrueType font (Pillow's own Aileron, which ships inside Pillow;
DejaVu when the system has it; a subset of Droid Sans Fallback for Chinese, kept in
``tests/support/fonts/``), and knows its text in reading order. Variants turn, blur, spoil with
noise or JPEG artefacts, as scanners and phones do.

    page = text_page(seed=3, dpi=150)
    page = rotated(noisy(page, seed=3), 90)
    write_pdf([page.image], Path("scan.pdf"), dpi=150)

Word F1 (:func:`word_f1`) compares bags of words (Han characters count one each), so
reading order is measured apart (:func:`order_score`).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image, ImageFont

__all__ = [
    "Page",
    "FONTS",
    "font",
    "available_fonts",
    "text_page",
    "two_column_page",
    "table_page",
    "receipt",
    "picture_with_caption",
    "chinese_page",
    "blank_page",
    "rotated",
    "noisy",
    "blurred",
    "jpeg",
    "write_pdf",
    "write_tiff",
    "word_f1",
    "words",
    "order_score",
]

FONT_DIR = Path(__file__).resolve().parent / "fonts"
_SYSTEM = Path("/usr/share/fonts/truetype/dejavu")
#: Font name -> file (None: Pillow's built-in Aileron, always there).
FONTS: dict[str, Path | None] = {
    "aileron": None,
    "dejavu-sans": _SYSTEM / "DejaVuSans.ttf",
    "dejavu-serif": _SYSTEM / "DejaVuSerif.ttf",
    "cjk": FONT_DIR / "DroidSansFallback-subset.ttf",
}

SENTENCES = [
    "The committee approved the revised budget for the northern bridge repairs.",
    "Shipments from the Rotterdam warehouse arrive every second Tuesday.",
    "Our survey of 412 households found that most families cook at home.",
    "Please return the signed lease agreement before the end of March.",
    "The patient reported mild headaches and was advised to rest for a week.",
    "Quarterly revenue rose by seven percent, driven by online subscriptions.",
    "A new bicycle lane will connect the station with the university campus.",
    "The museum extends its opening hours during the summer festival.",
    "Invoice 2291 remains unpaid; a reminder was sent on the fourth of June.",
    "Volunteers planted three hundred oak trees along the river bank.",
    "The software update fixes a memory leak in the export module.",
    "Heavy rain delayed the harvest, but the grapes are of excellent quality.",
    "Interest on the savings account is calculated daily and paid monthly.",
    "The library lends laptops to students for up to fourteen days.",
    "Engineers measured the vibration of the turbine at full load.",
    "Tickets for the evening concert can be collected at the main entrance.",
    "The contract may be terminated by either party with sixty days notice.",
    "Fresh bread is delivered to the cafeteria at half past six each morning.",
    "The island ferry does not run when wind speeds exceed forty knots.",
    "Samples were stored at minus twenty degrees until the analysis began.",
    "The mayor thanked the firefighters for their quick response on Sunday.",
    "Each workshop participant receives a certificate and a printed handbook.",
    "Water pressure in the eastern district will be reduced overnight.",
    "The hotel offers a discount for guests who stay longer than five nights.",
]

CHINESE = [
    "今天下午三点在第二会议室召开项目进度会议。",
    "请各部门在本周五之前提交下个季度的预算计划。",
    "新产品的市场反馈良好，销售额比去年同期增长了百分之十五。",
    "由于天气原因，原定于周六的户外活动改为下周举行。",
    "图书馆将于国庆节期间暂停开放，请读者提前办理借阅手续。",
    "公司决定在上海设立新的研发中心，预计明年春天投入使用。",
    "本次调查共收到一千二百份有效问卷，结果将在月底公布。",
    "医生建议患者每天适量运动，并注意保持充足的睡眠。",
    "火车站到机场的地铁线路已经正式开通运营。",
    "请在合同上签字后将原件寄回我们的北京办公室。",
    "学校食堂每天早上六点半开始供应早餐。",
    "这座桥梁的维修工程预计需要三个月才能完成。",
]

# Receipts and tables: short cells, so they read row by row.
_ITEMS = [
    "Coffee beans",
    "Whole milk",
    "Rye bread",
    "Green apples",
    "Olive oil",
    "Eggs (12)",
    "Cheddar",
    "Bananas",
    "Pasta",
    "Tomatoes",
    "Rice 1kg",
    "Butter",
    "Honey",
    "Tea",
]


@dataclass(frozen=True)
class Page:
    """A drawn page and the text on it, in reading order (one line per drawn line)."""

    name: str
    image: Image.Image
    text: str
    lang: str = "en"


def available_fonts(latin_only: bool = True) -> list[str]:
    """The fonts this machine can draw with (Aileron always; DejaVu when installed)."""
    names = [n for n, p in FONTS.items() if p is None or p.is_file()]
    return [n for n in names if n != "cjk"] if latin_only else names


@lru_cache(maxsize=64)
def font(name: str, px: int) -> ImageFont.FreeTypeFont:
    from PIL import ImageFont

    path = FONTS[name]
    if path is None:
        return ImageFont.load_default(size=px)  # type: ignore[return-value]
    if not path.is_file():
        raise FileNotFoundError(f"font {name} not found at {path}")
    return ImageFont.truetype(str(path), px)


def _px(points: float, dpi: int) -> int:
    return max(1, round(points * dpi / 72))


def _wrap(sentences: list[str], face: ImageFont.FreeTypeFont, width: float) -> list[str]:
    lines: list[str] = []
    for sentence in sentences:
        line = ""
        for word in sentence.split():
            trial = f"{line} {word}".strip()
            if line and face.getlength(trial) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        if line:
            lines.append(line)
    return lines


def _paper(size: tuple[int, int]) -> Image.Image:
    from PIL import Image

    return Image.new("L", size, 255)


def text_page(
    seed: int = 0,
    *,
    dpi: int = 150,
    font_name: str = "aileron",
    points: float = 11,
    sentences: int = 8,
    size_in: tuple[float, float] = (8.27, 11.69),
) -> Page:
    """A page of prose (A4 by default): one column, 1-inch margins."""
    from PIL import ImageDraw

    rng = random.Random(seed)
    face = font(font_name, _px(points, dpi))
    w, h = round(size_in[0] * dpi), round(size_in[1] * dpi)
    margin = min(dpi, round(min(w, h) * 0.12))
    lines = _wrap(rng.sample(SENTENCES, sentences), face, w - 2 * margin)
    image = _paper((w, h))
    draw = ImageDraw.Draw(image)
    step = _px(points * 1.5, dpi)
    kept = []
    for n, line in enumerate(lines):
        y = margin + n * step
        if y + step > h - margin:
            break
        draw.text((margin, y), line, fill=0, font=face)
        kept.append(line)
    return Page(f"text-{font_name}-{seed}", image, "\n".join(kept))


def two_column_page(seed: int = 0, *, dpi: int = 150, font_name: str = "aileron") -> Page:
    """A title across the page, then two columns of prose: read left column first."""
    from PIL import ImageDraw

    rng = random.Random(seed)
    face, big = font(font_name, _px(10, dpi)), font(font_name, _px(16, dpi))
    w, h = round(8.27 * dpi), round(11.69 * dpi)
    margin, gutter = dpi, dpi // 3
    col = (w - 2 * margin - gutter) / 2
    picks = rng.sample(SENTENCES, 10)
    left, right = _wrap(picks[:5], face, col), _wrap(picks[5:], face, col)
    title = "Annual Report of the Harbour Trust"
    image = _paper((w, h))
    draw = ImageDraw.Draw(image)
    draw.text((margin, margin), title, fill=0, font=big)
    top, step = margin + _px(40, dpi), _px(15, dpi)
    for n, line in enumerate(left):
        draw.text((margin, top + n * step), line, fill=0, font=face)
    for n, line in enumerate(right):
        draw.text((margin + col + gutter, top + n * step), line, fill=0, font=face)
    return Page(f"two-column-{seed}", image, "\n".join([title, *left, *right]))


def table_page(seed: int = 0, *, dpi: int = 150, font_name: str = "aileron") -> Page:
    """A heading and a four-column table with rules: read row by row."""
    from PIL import ImageDraw

    rng = random.Random(seed)
    face = font(font_name, _px(11, dpi))
    w, h = round(8.27 * dpi), round(6 * dpi)
    margin = dpi
    xs = [margin + round(f * (w - 2 * margin)) for f in (0, 0.38, 0.58, 0.8)]
    rows = [["Item", "Quantity", "Unit price", "Total"]]
    for name in rng.sample(_ITEMS, 6):
        qty, price = rng.randint(1, 9), rng.randint(100, 2000) / 100
        rows.append([name, str(qty), f"{price:.2f}", f"{qty * price:.2f}"])
    image = _paper((w, h))
    draw = ImageDraw.Draw(image)
    heading = "Order summary for March"
    draw.text((margin, margin // 2), heading, fill=0, font=face)
    step = _px(22, dpi)
    for r, row in enumerate(rows):
        y = margin + r * step
        draw.line(
            (margin, y - step // 5, w - margin, y - step // 5), fill=90, width=max(1, dpi // 100)
        )
        for x, cell in zip(xs, row):
            draw.text((x, y), cell, fill=0, font=face)
    lines = [heading, *(" ".join(row) for row in rows)]
    return Page(f"table-{seed}", image, "\n".join(lines))


def receipt(seed: int = 0, *, dpi: int = 200, font_name: str = "aileron") -> Page:
    """A narrow till receipt: shop, items with prices on the right, total."""
    from PIL import ImageDraw

    rng = random.Random(seed)
    face = font(font_name, _px(9, dpi))
    w = round(2.8 * dpi)
    items = rng.sample(_ITEMS, 7)
    prices = [rng.randint(50, 1500) / 100 for _ in items]
    lines = ["CORNER GROCERY", "12 Mill Street", *items, "TOTAL", "Thank you for shopping"]
    step = _px(14, dpi)
    h = step * (len(lines) + 4)
    image = _paper((w, h))
    draw = ImageDraw.Draw(image)
    margin = dpi // 6
    truth = []
    y = margin
    for n, line in enumerate(lines):
        draw.text((margin, y), line, fill=0, font=face)
        text = line
        price = None
        if 2 <= n < 2 + len(items):
            price = f"{prices[n - 2]:.2f}"
        elif line == "TOTAL":
            price = f"{sum(prices):.2f}"
        if price:
            draw.text((w - margin - face.getlength(price), y), price, fill=0, font=face)
            text = f"{line} {price}"
        truth.append(text)
        y += step
    return Page(f"receipt-{seed}", image, "\n".join(truth))


def picture_with_caption(seed: int = 0, *, dpi: int = 150, font_name: str = "aileron") -> Page:
    """Mostly a picture (shapes and gradients), with one line of text under it."""
    from PIL import Image, ImageDraw

    rng = random.Random(seed)
    w, h = round(6 * dpi), round(4.5 * dpi)
    image = Image.linear_gradient("L").resize((w, h)).point(lambda v: 80 + v // 3)
    draw = ImageDraw.Draw(image)
    for _ in range(12):
        x, y = rng.randrange(w), rng.randrange(int(h * 0.75))
        r = rng.randrange(dpi // 8, dpi // 2)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=rng.randrange(0, 256))
    caption = rng.choice(SENTENCES)
    face = font(font_name, _px(10, dpi))
    band = int(h * 0.82)
    draw.rectangle((0, band, w, h), fill=255)
    draw.text((dpi // 4, band + dpi // 8), caption, fill=0, font=face)
    return Page(f"picture-{seed}", image.convert("L"), caption)


def chinese_page(seed: int = 0, *, dpi: int = 150, lines: int = 6) -> Page:
    """Simplified Chinese sentences, one per line (needs the CJK font in tests/support/fonts)."""
    from PIL import ImageDraw

    rng = random.Random(seed)
    face = font("cjk", _px(12, dpi))
    picks = rng.sample(CHINESE, lines)
    w = round(7 * dpi)
    step = _px(22, dpi)
    image = _paper((w, dpi + step * lines))
    draw = ImageDraw.Draw(image)
    for n, line in enumerate(picks):
        draw.text((dpi // 2, dpi // 2 + n * step), line, fill=0, font=face)
    return Page(f"chinese-{seed}", image, "\n".join(picks), lang="zh")


def blank_page(*, dpi: int = 150, speckle: int = 0) -> Page:
    """An empty A4 page, with ``speckle`` scanner dots sprinkled on it."""
    rng = random.Random(speckle)
    image = _paper((round(8.27 * dpi), round(11.69 * dpi)))
    for _ in range(speckle):
        image.putpixel((rng.randrange(image.width), rng.randrange(image.height)), 0)
    return Page("blank", image, "")


# ---------------------------------------------------------------------------- variants


def rotated(page: Page, degrees: int) -> Page:
    """The page turned ``degrees`` clockwise (as a sideways or upside-down scan)."""
    from PIL import Image

    turns = {
        90: Image.Transpose.ROTATE_270,
        180: Image.Transpose.ROTATE_180,
        270: Image.Transpose.ROTATE_90,
    }
    if degrees % 360 == 0:
        return page
    return replace(
        page, name=f"{page.name}-r{degrees}", image=page.image.transpose(turns[degrees % 360])
    )


def noisy(page: Page, seed: int = 0, sigma: float = 18.0, speckle: float = 0.002) -> Page:
    """Grey noise, scanner speckle and a slight skew (0.4°)."""
    import numpy as np
    from PIL import Image

    rng = np.random.default_rng(seed)
    a = np.asarray(page.image.convert("L"), dtype=np.float32)
    a = a + rng.normal(0, sigma, a.shape)
    dots = rng.random(a.shape)
    a[dots < speckle / 2] = 0
    a[dots > 1 - speckle / 2] = 255
    image = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))
    image = image.rotate(0.4, resample=Image.Resampling.BILINEAR, fillcolor=255)
    return replace(page, name=f"{page.name}-noisy", image=image)


def blurred(page: Page, radius: float = 1.2) -> Page:
    from PIL import ImageFilter

    return replace(
        page, name=f"{page.name}-blur", image=page.image.filter(ImageFilter.GaussianBlur(radius))
    )


def jpeg(page: Page, quality: int = 25) -> Page:
    import io

    from PIL import Image

    buf = io.BytesIO()
    page.image.convert("L").save(buf, "JPEG", quality=quality)
    buf.seek(0)
    return replace(page, name=f"{page.name}-jpeg{quality}", image=Image.open(buf).convert("L"))


# ---------------------------------------------------------------------------- files


def write_pdf(images: list[Image.Image], path: Path, dpi: int) -> Path:
    """An image-only PDF (a scan): one page per image, sized from ``dpi``."""
    first, *rest = [im.convert("L") for im in images]
    first.save(path, "PDF", resolution=float(dpi), save_all=True, append_images=rest)
    return path


def write_tiff(images: list[Image.Image], path: Path) -> Path:
    first, *rest = [im.convert("L") for im in images]
    first.save(path, "TIFF", save_all=True, append_images=rest, compression="tiff_lzw")
    return path


# ---------------------------------------------------------------------------- scoring

_WORD = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]|[^\W_]+", re.U)


def words(text: str) -> list[str]:
    """Lower-case words; every Han character is a word of its own; punctuation is not."""
    return [w.lower() for w in _WORD.findall(text)]


def word_f1(truth: str, found: str) -> float:
    """F1 of the bags of words (1.0 when both are empty)."""
    t, f = Counter(words(truth)), Counter(words(found))
    if not t and not f:
        return 1.0
    same = sum((t & f).values())
    if not same:
        return 0.0
    precision, recall = same / sum(f.values()), same / sum(t.values())
    return 2 * precision * recall / (precision + recall)


def order_score(truth: str, found: str) -> float:
    """Share of the truth's lines that appear in the found text in the truth's order
    (the longest run in order among the lines found at all, over all lines)."""
    flat = " ".join(words(found))
    positions = []
    for line in truth.splitlines():
        key = " ".join(words(line))
        at = flat.find(key) if key else -1
        if at >= 0:
            positions.append(at)
    lines = sum(1 for line in truth.splitlines() if words(line))
    if not lines:
        return 1.0
    best: list[int] = []  # longest increasing subsequence, patience style
    import bisect

    for p in positions:
        i = bisect.bisect_left(best, p)
        if i == len(best):
            best.append(p)
        else:
            best[i] = p
    return len(best) / lines
