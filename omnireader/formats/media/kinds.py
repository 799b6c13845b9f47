"""The image and audio formats: how each is recognised from its first bytes. Reading them is
the image and audio parsers' work (metadata from headers: :mod:`.metadata`; text: OCR)."""

from __future__ import annotations

from omnireader.formats.plain.text import unicode_head
from omnireader.formats.probe import Probe
from omnireader.formats.registry import Format, Magic

__all__ = ["FORMATS"]

_IMAGE_HINT = "an image: the image parser reads it"
_AUDIO_HINT = "audio: the audio parser reads it"
_IMAGES = "image (JPEG, PNG, TIFF incl. multi-page, BMP, GIF, WebP, HEIC / HEIF, AVIF)"
_IMAGE_README = (
    "format, size, EXIF time → timestamp, GPS → location, the message text; the "
    "text on it, by OCR (each TIFF page its own page; when OCR finds text, its "
    'items replace the bare "Image X (PNG, W×H)." item; an image too small to '
    "hold a line of text, an icon, is not OCR'd); HEIC / HEIF through pillow-heif, "
    "AVIF through Pillow"
)
# ISO base media brands of still images (HEIF / HEIC from phones, AVIF).
_HEIF_BRANDS = {
    b"heic": ("heic", "image/heic"), b"heix": ("heic", "image/heic"),
    b"heim": ("heic", "image/heic"), b"heis": ("heic", "image/heic"),
    b"hevc": ("heic", "image/heic-sequence"), b"hevx": ("heic", "image/heic-sequence"),
    b"mif1": ("heif", "image/heif"), b"msf1": ("heif", "image/heif-sequence"),
    b"avif": ("avif", "image/avif"), b"avis": ("avif", "image/avif"),
}  # fmt: skip
_M4A_BRANDS = (b"M4A ", b"M4B ", b"mp42", b"isom", b"dash")


def _starts(*magics: bytes):  # noqa: ANN202
    return lambda p: p.head.startswith(magics)


def _riff(form: bytes):  # noqa: ANN202
    return lambda p: p.head[:4] == b"RIFF" and p.head[8:12] == form


def _heif(fmt: str):  # noqa: ANN202
    def test(p: Probe) -> str | None:
        if p.head[4:8] != b"ftyp":
            return None
        found = _HEIF_BRANDS.get(p.head[8:12])
        return found[1] if found and found[0] == fmt else None

    return test


def _m4a(p: Probe) -> bool:
    return p.head[4:8] == b"ftyp" and p.head[8:12] in _M4A_BRANDS and p.ext not in (".mp4", ".mov")


def _mpeg_frame(p: Probe) -> bool:
    head = p.head
    if not (len(head) >= 2 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0):
        return False
    # FF FE is also the byte-order mark of UTF-16-LE text (a saved e-mail, a note)
    return p.ext in ("", ".mp3") and unicode_head(head) is None


def _image(name: str, mime: str, ext: tuple[str, ...], *magic: Magic) -> Format:
    return Format(
        name=name,
        rank=90,
        display=name.upper(),
        kind="image",
        subtype=name,
        family="image",
        extensions=ext,
        mimes=(mime,),
        magic=magic,
        hint=_IMAGE_HINT,
        readme_group=_IMAGES,
        readme=_IMAGE_README,
    )


def _audio(name: str, mime: str, ext: tuple[str, ...], *magic: Magic) -> Format:
    return Format(
        name=name,
        rank=91,
        display=name.upper(),
        kind="audio",
        subtype=name,
        family="audio",
        extensions=ext,
        mimes=(mime,),
        magic=magic,
        hint=_AUDIO_HINT,
        readme_group="audio",
        readme="duration, sample rate, channels, format, the message text",
    )


FORMATS = (
    _image("jpeg", "image/jpeg", (".jpg", ".jpeg"), Magic(60, _starts(b"\xff\xd8\xff"))),
    _image("png", "image/png", (".png",), Magic(60, _starts(b"\x89PNG\r\n\x1a\n"))),
    _image("gif", "image/gif", (".gif",), Magic(60, _starts(b"GIF87a", b"GIF89a"))),
    _image("bmp", "image/bmp", (".bmp",), Magic(60, _starts(b"BM"))),
    _image("tiff", "image/tiff", (".tif", ".tiff"), Magic(60, _starts(b"II*\x00", b"MM\x00*"))),
    _image("webp", "image/webp", (".webp",), Magic(70, _riff(b"WEBP"))),
    _audio("wav", "audio/wav", (".wav",), Magic(71, _riff(b"WAVE"))),
    _audio("m4a", "audio/mp4", (".m4a", ".m4b"), Magic(80, _m4a)),
    _image("heic", "image/heic", (".heic",), Magic(81, _heif("heic"))),
    _image("heif", "image/heif", (".heif",), Magic(81, _heif("heif"))),
    _image("avif", "image/avif", (".avif",), Magic(81, _heif("avif"))),
    # Other ISO media (video): known, and not read.
    Format(
        name="video",
        display="video",
        kind="unknown",
        mimes=("video/mp4",),
        listed=False,
        magic=(Magic(82, lambda p: p.head[4:8] == b"ftyp"),),
    ),
    _audio("mp3", "audio/mpeg", (".mp3",), Magic(90, _starts(b"ID3")), Magic(95, _mpeg_frame)),
    _audio("flac", "audio/flac", (".flac",), Magic(90, _starts(b"fLaC"))),
    _audio("ogg", "audio/ogg", (".ogg", ".oga"), Magic(90, _starts(b"OggS"))),
)
