"""Fine mode for media: images (vision), scanned pages (render + vision), audio (speech).

The bytes come from the payload when the caller still has it, else from the item's source
(path, archive member or URL, fetched under the same guards as the fast pass).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from ..chunking import chunk_text
from ..errors import ReadError
from ..llm.schemas import ExtractedMemory, Extraction, ImageReading
from ..models import MemoryItem, Source
from ..normalize import guess_lang
from ..options import ReadOptions
from ..payloads import Blob
from ..prompts import load_prompt
from .build import fine_items
from .text_kinds import reference_time

__all__ = ["source_bytes", "refine_image", "refine_scanned_page", "refine_audio"]


def source_bytes(item: MemoryItem, payload: Any, options: ReadOptions) -> bytes:
    """The original bytes behind ``item``: from ``payload`` if given, else its source."""
    if isinstance(payload, Blob) and (payload.data is not None or payload.path):
        if payload.data is None and payload.member:
            from ..formats.archive import read_member

            return read_member(payload, options)
        return payload.read_bytes()
    s = item.source
    label = (s.path or s.url or s.filename or "<source>") if s else "<source>"
    if s and s.path:
        if s.member:
            from ..formats.archive import read_member

            return read_member(Blob(path=s.path, member=s.member), options)
        try:
            return Path(s.path).read_bytes()
        except OSError as e:
            raise ReadError(label, f"source file is gone: {e.strerror or e}") from None
    if s and s.url and s.url.startswith(("http://", "https://")):
        from ..fetch import fetch_url

        return fetch_url(s.url, allow_private=options.allow_private_urls,
                         timeout=options.fetch_timeout, max_bytes=options.max_fetch_bytes).data
    raise ReadError(label, "the original bytes were not kept (inline data); read it again "
                           "in fine mode to refine it")


def _reading_items(item: MemoryItem, reading: ImageReading, head: str) -> list[MemoryItem]:
    parts = [head, reading.description.strip()]
    if reading.text_in_image.strip():
        parts.append(f"Text in the image: {reading.text_in_image.strip()}")
    described = ExtractedMemory(memory=" ".join(p for p in parts if p), key=item.metadata.key or "",
                                tags=[*item.metadata.tags, "vision"])
    return fine_items(item, [described, *reading.memories],
                      memory_type=None, location=item.metadata.location)


async def refine_image(llm: Any, item: MemoryItem, data: bytes) -> list[MemoryItem]:
    """The vision model describes the image and reads its text, fused with the message."""
    s = item.source
    name = (s.member or s.filename or (Path(s.path).name if s.path else None) or "image") if s else "image"
    context = (s.content if s else None) or item.metadata.extra.get("context") or "(none)"
    prompt = load_prompt("image", guess_lang(context if context != "(none)" else item.memory))
    reading, _ = await llm.acomplete_json(
        prompt.render(image_name=name, context=context, reference_time=reference_time(item)),
        ImageReading, images=[data],
    )
    return _reading_items(item, reading, f"Image {name}:")


def render_page(data: bytes, page: int, password: str | None, scale: float = 2.0) -> bytes:
    """PNG of one PDF page (1-based), for a vision model to read."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data, password=password)
    try:
        bitmap = pdf[page - 1].render(scale=scale)
        buf = io.BytesIO()
        bitmap.to_pil().save(buf, "PNG")
        return buf.getvalue()
    finally:
        pdf.close()


async def refine_scanned_page(llm: Any, item: MemoryItem, data: bytes,
                              options: ReadOptions) -> list[MemoryItem]:
    """A page with no text layer: render it and let the vision model read it."""
    s = item.source
    page = (s.page if s else None) or 1
    png = render_page(data, page, options.password)
    name = f"page {page} of {(s.filename or s.path or 'a document') if s else 'a document'}"
    prompt = load_prompt("image", "en")
    reading, _ = await llm.acomplete_json(
        prompt.render(image_name=name, reference_time=item.metadata.timestamp or "unknown",
                      context="A scanned document page: read all of its text, in order."),
        ImageReading, images=[png],
    )
    # The page's text itself, chunked like any document text, then the facts in it.
    text_memories = [
        ExtractedMemory(memory=c.text, key=item.metadata.key or "", tags=["ocr"])
        for c in chunk_text(reading.text_in_image, options.chunk_tokens)
    ]
    return fine_items(item, [*text_memories, *reading.memories], memory_type="LongTermMemory")


async def refine_audio(llm: Any, item: MemoryItem, data: bytes) -> list[MemoryItem]:
    """Transcribe, then extract like a chat; items keep their segments' times."""
    s = item.source or Source(kind="audio")
    name = s.filename or s.member or (Path(s.path).name if s.path else "audio.wav")
    transcript = await llm.atranscribe(data, name, item.metadata.extra.get("format"))
    segments = transcript.segments or []
    seg_sources = [
        s.model_copy(update={"segment_start": g.start, "segment_end": g.end, "content": g.text})
        for g in segments
    ] or [s.model_copy(update={"content": transcript.text})]
    lines = "\n".join(
        f"[{n}] {g.start:.1f}–{(g.end if g.end is not None else g.start):.1f}: {g.text}"
        for n, g in enumerate(segments)
    ) or f"[0] {transcript.text}"
    prompt = load_prompt("audio_transcript", transcript.language or guess_lang(transcript.text))
    got, _ = await llm.acomplete_json(
        prompt.render(audio_name=name, transcript=lines, reference_time=reference_time(item)),
        Extraction,
    )
    said = [ExtractedMemory(memory=f"Transcript of {name}: {c.text}", tags=["transcript"])
            for c in chunk_text(transcript.text, 512)]
    facts = fine_items(item, got.memories, sources=seg_sources, first_index=len(said))
    return [*fine_items(item, said), *facts]
