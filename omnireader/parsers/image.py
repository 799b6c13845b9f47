"""Images: one item from the image's own facts (size, format, EXIF time and place) and its message.

Fast mode never decodes pixels and never comes back empty: a readable image gives an item
flagged ``needs_vision`` (fine mode lets a vision model describe it), and an image that was
only referenced (a URL that was not fetched, a file id with no content) gives an item
flagged ``unresolved_reference``, so the mention is not lost.

    >>> from omnireader.parsers.base import ParseContext
    >>> from omnireader.payloads import Blob
    >>> [item] = ImageParser().parse_fast(Blob(path="photo.jpg"), ParseContext())  # doctest: +SKIP
    >>> item.memory                                                                # doctest: +SKIP
    'Image photo.jpg (JPEG, 640×480), taken 2024-05-01T10:30:00, at 48.85837, 2.29448.'
"""

from __future__ import annotations

from typing import ClassVar

from ..formats.media import ImageInfo, image_info
from ..models import MemoryItem, Source
from ..payloads import Blob
from .base import ParseContext, Parser, register
from .blob_common import (
    blob_bytes,
    blob_source,
    memory_type_for,
    message_time,
    rebuild_blob,
    reference_item,
    with_message,
)

__all__ = ["ImageParser", "describe_image"]


def describe_image(name: str, info: ImageInfo) -> str:
    """One sentence from what the header says: name, format, size, time, camera, place."""
    # Bytes without a name (a data: URL) have no name worth printing.
    text = "An image" if name.startswith("<") else f"Image {name}"
    text += f" ({info.format}, {info.width}×{info.height})"
    camera = f"{_article(info.camera)} {info.camera}" if info.camera else ""
    if info.taken_at and camera:
        text += f", taken {info.taken_at} with {camera}"
    elif info.taken_at:
        text += f", taken {info.taken_at}"
    elif camera:
        text += f", taken with {camera}"
    if info.gps:
        text += f", at {_place(info.gps)}"
    return text + "."


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _place(gps: tuple[float, float]) -> str:
    return f"{gps[0]:.5f}, {gps[1]:.5f}"


@register
class ImageParser(Parser[Blob]):
    """An image file, data URL or fetched URL: its metadata and the text sent with it."""

    name: ClassVar[str] = "image"
    payload: ClassVar[type[Blob]] = Blob

    def parse_fast(self, input: Blob, ctx: ParseContext) -> list[MemoryItem]:
        data = blob_bytes(input, ctx.options)
        if data is None:
            return [reference_item(self, input, ctx, kind="image", noun="An image")]
        source = self.create_source(input)
        info = image_info(data, name=input.label)
        if source.mime is None:
            source.mime = info.mime
        extra = {
            "width": info.width,
            "height": info.height,
            "format": info.format,
            "mode": info.mode,
            "camera": info.camera,
            **info.extra,
        }
        return [
            self.make_item(
                with_message(describe_image(input.display_name, info), input.context),
                ctx,
                sources=[source],
                position=("image",),
                memory_type=memory_type_for(input),
                timestamp=info.taken_at or message_time(input),
                location=_place(info.gps) if info.gps else None,
                tags=["image"],
                flags=["needs_vision"],
                extra={k: v for k, v in extra.items() if v is not None},
            )
        ]

    def create_source(self, input: Blob) -> Source:
        return blob_source(input, kind="image")

    def rebuild_from_source(self, source: Source) -> Blob:
        return rebuild_blob(source)
