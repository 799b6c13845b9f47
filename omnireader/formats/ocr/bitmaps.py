"""Page bitmaps for OCR: decoded one frame at a time, turned upright, scaled to a bounded size.

A multi-page TIFF is decoded frame by frame, so a 1,000-page fax costs one page of memory.
Pixels are bounded before decoding where the format allows it (JPEG decodes at 1/2, 1/4 or
1/8 scale directly); an image too large to decode within :data:`MAX_OCR_PIXELS` is not
decoded at all.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    import numpy as np
    from PIL import Image

__all__ = ["Frame", "image_frames", "to_bgr", "fit", "ink", "MAX_OCR_PIXELS", "MAX_SIDE"]

#: The most pixels an image may have to be decoded for OCR (a 600 dpi A4 scan has 35 M).
MAX_OCR_PIXELS = 64_000_000
#: Bitmaps are read at most this many pixels on their long side (RapidOCR's own default):
#: more costs detection time and finds no more text on a page.
MAX_SIDE = 2000


class Frame(BaseModel):
    """One page of an image file: its bitmap, or why it could not be decoded."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    number: int  # 1-based
    image: Any = None  # PIL.Image.Image, upright and fitted
    problem: str | None = None  # "too_large" / "unreadable: ..."


def image_frames(source: bytes | Path, *, max_pixels: int = MAX_OCR_PIXELS) -> Iterator[Frame]:
    """Each frame of an image file (one for most formats), decoded only when reached."""
    from PIL import Image, ImageOps

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            im = Image.open(io.BytesIO(source) if isinstance(source, bytes) else source)
            frames = getattr(im, "n_frames", 1)  # walks a TIFF's chain of pages
        except (OSError, ValueError, SyntaxError, Image.DecompressionBombError) as e:
            yield Frame(number=1, problem=f"unreadable: {e}")
            return
        with im:
            for n in range(frames):
                try:
                    if n:
                        im.seek(n)
                    if im.width * im.height > max_pixels and not _can_draft(im):
                        yield Frame(number=n + 1, problem="too_large")
                        continue
                    if im.format == "JPEG":
                        im.draft("RGB", (MAX_SIDE, MAX_SIDE))
                    frame = ImageOps.exif_transpose(fit(_flat(im)))
                except (OSError, ValueError, SyntaxError, Image.DecompressionBombError) as e:
                    yield Frame(number=n + 1, problem=f"unreadable: {e}")
                    continue
                yield Frame(number=n + 1, image=frame)


def _can_draft(im: Image.Image) -> bool:
    # JPEG decodes at 1/8 scale, so even a huge one fits once drafted.
    return im.format == "JPEG" and im.width * im.height <= 64 * MAX_OCR_PIXELS


def _flat(im: Image.Image) -> Image.Image:
    """RGB on white: transparency becomes paper, palettes and 16-bit greys become colours."""
    from PIL import Image

    if im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info):
        rgba = im.convert("RGBA")
        paper = Image.new("RGB", rgba.size, "white")
        paper.paste(rgba, mask=rgba.getchannel("A"))
        return paper
    if im.mode in ("I;16", "I;16B", "I;16L", "I"):
        return im.point(lambda v: v / 256).convert("L").convert("RGB")
    return im.convert("RGB")


def fit(im: Image.Image, max_side: int = MAX_SIDE) -> Image.Image:
    """``im`` scaled down (never up) so its long side is at most ``max_side``."""
    from PIL import Image

    side = max(im.size)
    if side <= max_side:
        return im
    scale = max_side / side
    size = (max(1, round(im.width * scale)), max(1, round(im.height * scale)))
    return im.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)


def to_bgr(im: Image.Image) -> np.ndarray:
    """A PIL image as the uint8 BGR array OCR engines take."""
    import numpy as np

    rgb = np.asarray(im.convert("RGB"))
    return np.ascontiguousarray(rgb[:, :, ::-1])


def ink(image: np.ndarray) -> float:
    """Share of the page that is clearly darker than the paper (0 for a blank page).

    Measured on a small grey copy, so scanner speckle (isolated dots) averages away while
    lines of text, rules and pictures stay.
    """
    import numpy as np

    grey = image.mean(axis=2) if image.ndim == 3 else image.astype("float32")
    h, w = grey.shape
    step = max(3, max(h, w) // 512)  # 3 at least: a lone dark pixel is then under 60 darker
    if h >= step and w >= step:
        hh, ww = h // step * step, w // step * step
        grey = grey[:hh, :ww].reshape(hh // step, step, ww // step, step).mean(axis=(1, 3))
    paper = float(np.percentile(grey, 90))  # the paper's shade, even under a big picture
    return float((grey < paper - 60).mean())
