"""Images: one item from the image's own facts (size, format, EXIF time and place) and its message.

Fast mode never comes back empty: a readable image gives an item flagged ``needs_vision``
(fine mode lets a vision model describe it), and an image that was only referenced (a URL
that was not fetched, a file id with no content) gives an item flagged
``unresolved_reference``, so the mention is not lost. Unless ``ReadOptions.ocr`` is
``off``, each frame (each page of a TIFF) is then decoded and, when the detection pass
finds text on it, read by OCR into items flagged ``ocr`` (page = frame number for
multi-page images). When OCR found text, those items are the image's items: the bare
placeholder ("Image X (JPEG, W×H).") is dropped, unless it says more than that (a message
sent with the image, a time, a camera, a place). A frame OCR read only as low-confidence
lines (a logo's shapes taken for letters) gives no item: the reading stays on the image's
item (``ocr_low_confidence_reading``, counted in ``ocr_low_confidence_lines``, flagged
``ocr_low_confidence``). Every image item is keyed by the image's name. An image too
small to hold a line of text (an icon; :func:`omnireader.formats.ocr.read.can_hold_text`)
is not OCR'd at all, so the engine is not even loaded for it.

    >>> from omnireader.parsers.base import ParseContext
    >>> from omnireader.payloads import Blob
    >>> [item] = ImageParser().parse_fast(Blob(path="photo.jpg"), ParseContext())  # doctest: +SKIP
    >>> item.memory                                                                # doctest: +SKIP
    'Image photo.jpg (JPEG, 640×480), taken 2024-05-01T10:30:00, at 48.85837, 2.29448.'
"""

from __future__ import annotations

from typing import Any, ClassVar

from omnireader.formats.media.image_metadata import ImageInfo, image_info
from omnireader.models import MemoryItem, Source
from omnireader.parsers.attachments import member_key, parent_extra
from omnireader.parsers.base import ParseContext, Parser, register
from omnireader.parsers.blob_common import (
    blob_bytes,
    blob_source,
    memory_type_for,
    message_time,
    rebuild_blob,
    reference_item,
    with_message,
)
from omnireader.parsers.ocr_items import LOW_CONFIDENCE_FLAG, all_unsure, ocr_items, unsure_reading
from omnireader.payloads import Blob

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


def _bare(item: MemoryItem, input: Blob, info: ImageInfo) -> bool:
    """Whether the image's own item says nothing but its name, format and size."""
    return not (
        input.context.strip()
        or info.taken_at
        or info.camera
        or info.gps
        or "ocr_unreadable_pages" in item.metadata.extra
        or "ocr_low_confidence_reading" in item.metadata.extra  # evidence kept only here
    )


def _ocr_extra(extra: dict[str, Any]) -> dict[str, Any]:
    shared = ("width", "height", "format", "frames", "parent_subject", "parent_message_id")
    return {k: extra[k] for k in shared if k in extra}


def _keep_unsure(item: MemoryItem, reading: dict[str, Any]) -> None:
    """Keep an all-low-confidence OCR reading on the image's own item, counted and
    flagged, so the image is neither silent about it nor stored as its garbled text."""
    extra = item.metadata.extra
    extra.setdefault("ocr_low_confidence_reading", []).append(reading)
    extra["ocr_low_confidence_lines"] = extra.get("ocr_low_confidence_lines", 0) + reading["lines"]
    if LOW_CONFIDENCE_FLAG not in item.metadata.flags:
        item.metadata.flags.append(LOW_CONFIDENCE_FLAG)


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
        name = member_key(input)  # an attachment's own file name, not its member path
        item = self.make_item(
            with_message(describe_image(name, info), input.context),
            ctx,
            sources=[source],
            position=("image",),
            memory_type=memory_type_for(input),
            timestamp=info.taken_at or message_time(input),
            location=_place(info.gps) if info.gps else None,
            key=name,
            tags=["image"],
            flags=["needs_vision"],
            extra={**{k: v for k, v in extra.items() if v is not None}, **parent_extra(input)},
        )
        if ctx.options.ocr == "off":
            return [item]
        from omnireader.formats.ocr.read import can_hold_text

        if not can_hold_text(info.width, info.height):
            item.metadata.extra["ocr_skipped"] = "too_small"  # no line of text fits
            return [item]
        read = self._ocr(data, input, ctx, item, frames=info.extra.get("frames", 1))
        if read and _bare(item, input, info):
            # The OCR items carry the image's size and format already; a second item
            # saying only "Image X (JPEG, W×H)." is a placeholder for text now read.
            return read
        return [item, *read]

    def _ocr(
        self, data: bytes, input: Blob, ctx: ParseContext, item: MemoryItem, frames: int
    ) -> list[MemoryItem]:
        """Items for the text OCR finds on each frame; frames it could not decode or read
        are listed on ``item`` (``ocr_unreadable_pages``) rather than dropped silently."""
        from omnireader.formats.ocr import image_frames, ocr_image
        from omnireader.formats.ocr.scripts import UNREAD_SCRIPT

        out: list[MemoryItem] = []
        unreadable: list[int] = []
        unread = 0  # lines in a script the OCR models do not read
        engine_name: str | None = None
        for frame in image_frames(data):
            if frame.image is None:
                unreadable.append(frame.number)
                item.metadata.extra.setdefault("ocr_notes", {})[str(frame.number)] = frame.problem
                continue
            try:
                page = ocr_image(frame.image, layout=ctx.options.layout)
            except MemoryError:
                raise
            except Exception as e:  # noqa: BLE001 - an engine failure on one frame
                unreadable.append(frame.number)
                item.metadata.extra.setdefault("ocr_notes", {})[str(frame.number)] = (
                    f"failed: {type(e).__name__}: {e}"
                )
                continue
            finally:
                frame.image = None  # one frame in memory at a time
            engine_name = page.engine
            unread += page.unread
            if not page.blocks:
                continue
            if all_unsure(page):  # shapes read as letters: evidence, not a memory
                _keep_unsure(item, unsure_reading(page, frame.number))
                continue
            number = frame.number if frames > 1 else None
            out.extend(
                ocr_items(
                    self,
                    ctx,
                    page,
                    source=item.metadata.sources[0].model_copy(update={"page": number}),
                    position=("image", "ocr", frame.number),
                    memory_type=item.metadata.memory_type,
                    timestamp=item.metadata.timestamp,
                    key=member_key(input),
                    tags=["image"],
                    extra=_ocr_extra(item.metadata.extra),
                )
            )
        if unreadable:
            item.metadata.extra["ocr_unreadable_pages"] = unreadable
        if engine_name and not out:
            item.metadata.extra["ocr_engine"] = engine_name  # read, and no text found
            if unread:  # not silence: reported (reading/unread_pages.py), not in its memory
                item.metadata.extra["not_read"] = UNREAD_SCRIPT
                item.metadata.flags.append(UNREAD_SCRIPT)
                item.metadata.extra["ocr_unread_lines"] = unread
        return out

    def create_source(self, input: Blob) -> Source:
        return blob_source(input, kind="image")

    def rebuild_from_source(self, source: Source) -> Blob:
        return rebuild_blob(source)
