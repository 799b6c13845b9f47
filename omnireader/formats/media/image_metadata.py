"""Image metadata, read from the header only: size, format, EXIF time and place, camera.

Pixels are never decoded here, so a huge or broken file costs little: Pillow's
``Image.open`` reads the header and EXIF.

    >>> info = image_info(Path("photo.jpg"))          # doctest: +SKIP
    >>> info.width, info.taken_at, info.gps
    (640, '2024-05-01T10:30:00', (48.85837, 2.29448))
"""

from __future__ import annotations

import io
import math
import warnings
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from omnireader.errors import CorruptError, TooLargeError, UnsupportedFormatError
from omnireader.formats.media.heif import HEIF_HINT, is_heif, register_heif
from omnireader.formats.media.media_input import Media, open_media, tag_text

__all__ = ["ImageInfo", "image_info", "MAX_IMAGE_PIXELS"]

# Pillow's own hard limit (twice its warning threshold). Larger than any camera's photo; a
# file that declares more is a decompression bomb, and a vision model would have to decode it.
MAX_IMAGE_PIXELS = 178_956_970

# EXIF tag numbers (the EXIF 2.3 standard).
_EXIF_IFD, _GPS_IFD = 0x8769, 0x8825
_MAKE, _MODEL, _DATETIME, _SOFTWARE, _ORIENTATION = 0x010F, 0x0110, 0x0132, 0x0131, 0x0112
_DATETIME_ORIGINAL, _DATETIME_DIGITIZED, _OFFSET_ORIGINAL = 0x9003, 0x9004, 0x9011
_LENS_MODEL = 0xA434
_GPS_LAT_REF, _GPS_LAT, _GPS_LON_REF, _GPS_LON, _GPS_ALT_REF, _GPS_ALT = 1, 2, 3, 4, 5, 6


class ImageInfo(BaseModel):
    """What an image's header says about it."""

    format: str  # Pillow's name: JPEG, PNG, GIF, WEBP, TIFF, ...
    mime: str | None = None
    width: int
    height: int
    mode: str  # RGB, L, RGBA, 1, ...
    taken_at: str | None = None  # ISO 8601 from EXIF (camera-local time unless it says its offset)
    gps: tuple[float, float] | None = None  # (latitude, longitude), decimal degrees
    camera: str | None = None
    extra: dict[str, Any] = Field(default_factory=dict)


def image_info(
    blob: Media, *, name: str = "<image>", max_pixels: int = MAX_IMAGE_PIXELS
) -> ImageInfo:
    """Format, size and EXIF facts of an image (bytes or a path), without decoding pixels.

    Raises :class:`TooLargeError` for more than ``max_pixels`` pixels (decompression bombs),
    :class:`UnsupportedFormatError` for HEIC / AVIF when Pillow has no plugin for them, and
    :class:`CorruptError` when the header cannot be read. A file cut short after its header
    still gives its metadata: only decoding the pixels would notice. (Pillow's own
    ``Image.MAX_IMAGE_PIXELS`` check applies too; ours holds even when that one is lifted.)
    """
    from PIL import Image, UnidentifiedImageError

    source = open_media(blob, name)
    if is_heif(_head(source)):
        register_heif()
    try:
        with warnings.catch_warnings():
            # We enforce our own limit below; Pillow's warning would only add noise.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            im = Image.open(source)
    except Image.DecompressionBombError as e:
        raise TooLargeError(name, f"image too large to read safely ({e})") from None
    except UnidentifiedImageError:
        head = _head(source)
        if is_heif(head) or (head[4:8] == b"ftyp" and head[8:12] in (b"avif", b"avis")):
            raise UnsupportedFormatError(name, HEIF_HINT) from None
        raise CorruptError(name, "not an image Pillow can read") from None
    except Exception as e:  # Pillow's plugins raise many types on malformed headers
        raise CorruptError(name, f"unreadable image header ({type(e).__name__}: {e})") from None
    with im:
        width, height = im.size
        if width * height > max_pixels:
            raise TooLargeError(
                name, f"{width}x{height} pixels is over the {max_pixels} pixel limit"
            )
        info = ImageInfo(
            format=im.format or "unknown",
            mime=im.get_format_mimetype() if hasattr(im, "get_format_mimetype") else None,
            width=width,
            height=height,
            mode=im.mode,
        )
        frames = getattr(im, "n_frames", 1)
        if frames > 1:
            info.extra["frames"] = frames
        _read_exif(im, info)
    return info


def _head(source: io.BytesIO | Path) -> bytes:
    if isinstance(source, Path):
        with source.open("rb") as f:
            return f.read(16)
    return source.getvalue()[:16]


def _read_exif(im: Any, info: ImageInfo) -> None:
    # PNG keeps EXIF in a chunk that may follow the pixels; Pillow would decode the image to
    # reach it, so only EXIF already seen in the header is used.
    if im.format == "PNG" and "exif" not in im.info:
        return
    try:
        exif = im.getexif()
        sub = exif.get_ifd(_EXIF_IFD)
        gps = exif.get_ifd(_GPS_IFD)
    except Exception:  # broken EXIF must not hide the size and format we already have
        info.extra["exif_unreadable"] = True
        return
    info.taken_at = _exif_time(
        sub.get(_DATETIME_ORIGINAL) or sub.get(_DATETIME_DIGITIZED) or exif.get(_DATETIME),
        sub.get(_OFFSET_ORIGINAL),
    )
    info.gps = _gps(gps)
    info.camera = _camera(exif.get(_MAKE), exif.get(_MODEL))
    for key, value in (
        ("orientation", exif.get(_ORIENTATION)),
        ("software", tag_text(exif.get(_SOFTWARE))),
        ("lens", tag_text(sub.get(_LENS_MODEL))),
        ("altitude_m", _altitude(gps)),
    ):
        if value not in (None, ""):
            info.extra[key] = value


def _exif_time(value: Any, offset: Any) -> str | None:
    """``2024:05:01 10:30:00`` (EXIF's format) as ``2024-05-01T10:30:00``, or None if invalid."""
    from datetime import datetime

    text = tag_text(value)
    if not text:
        return None
    try:
        when = datetime.strptime(text[:19], "%Y:%m:%d %H:%M:%S")
    except ValueError:  # "0000:00:00 00:00:00" and other placeholders cameras write
        return None
    iso = when.isoformat()
    tz = tag_text(offset)
    if tz and len(tz) == 6 and tz[0] in "+-" and tz[3] == ":":
        iso += tz
    return iso


def _camera(make: Any, model: Any) -> str | None:
    make_s, model_s = tag_text(make), tag_text(model)
    if make_s and model_s and model_s.lower().startswith(make_s.split()[0].lower()):
        return model_s  # "Canon" + "Canon EOS 5D" -> "Canon EOS 5D"
    return " ".join(p for p in (make_s, model_s) if p) or None


def _degrees(value: Any) -> float | None:
    try:
        d, m, s = (float(x) for x in value)
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    result = d + m / 60 + s / 3600
    return result if math.isfinite(result) else None


def _gps(gps: dict[int, Any]) -> tuple[float, float] | None:
    lat, lon = _degrees(gps.get(_GPS_LAT)), _degrees(gps.get(_GPS_LON))
    if lat is None or lon is None:
        return None
    if (tag_text(gps.get(_GPS_LAT_REF)) or "N").upper().startswith("S"):
        lat = -lat
    if (tag_text(gps.get(_GPS_LON_REF)) or "E").upper().startswith("W"):
        lon = -lon
    if abs(lat) > 90 or abs(lon) > 180 or (lat == 0 and lon == 0):
        return None  # out of range, or the all-zero placeholder of a phone without a fix
    return round(lat, 6), round(lon, 6)


def _altitude(gps: dict[int, Any]) -> float | None:
    try:
        alt = float(gps[_GPS_ALT])
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        return None
    if not math.isfinite(alt):
        return None
    below = gps.get(_GPS_ALT_REF) in (1, b"\x01")
    return round(-alt if below else alt, 1)
