"""Fine mode for media: images (vision), scanned pages (render + vision), audio (speech).

The bytes come from the payload when the caller still has it, else from the item's source
(path, archive member or URL, fetched under the same guards as the fast pass).
"""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

from omnireader.errors import LLMError, ReadError
from omnireader.file_names import disk_path
from omnireader.formats.pdf.pdfium_lock import PDFIUM
from omnireader.llm.schemas import ExtractedMemory, Extraction, ImageReading
from omnireader.models import MemoryItem, Source
from omnireader.normalize import guess_lang
from omnireader.options import ReadOptions
from omnireader.payloads import Blob
from omnireader.prompts import load_prompt
from omnireader.refine.build import check_written, fine_items
from omnireader.refine.memory_guard import MemoryGuard
from omnireader.refine.text_kinds import reference_time
from omnireader.text.tokens import count_tokens

__all__ = ["source_bytes", "render_page", "refine_image", "refine_scanned_page", "refine_audio"]

# Vision models downscale anyway; a bigger render only costs upload time.
_MAX_RENDER_SIDE = 2000


def source_bytes(item: MemoryItem, payload: Any, options: ReadOptions) -> bytes:
    """The original bytes behind ``item``: from ``payload`` if given, else its source."""
    if isinstance(payload, Blob) and (payload.data is not None or payload.path):
        if payload.data is None and payload.member:
            from omnireader.formats.archives.containers import read_member

            return read_member(payload, options)
        try:
            return payload.read_bytes()
        except OSError as e:
            raise ReadError(payload.label, f"cannot read: {e.strerror or e}") from None
    s = item.source
    label = (s.path or s.url or s.filename or "<source>") if s else "<source>"
    if s and s.path:
        path = disk_path(s.path) or s.path  # a name that is not UTF-8 is stored as \xNN
        if s.member:
            from omnireader.formats.archives.containers import read_member

            return read_member(Blob(path=path, member=s.member), options)
        try:
            return Path(path).read_bytes()
        except OSError as e:
            raise ReadError(label, f"source file is gone: {e.strerror or e}") from None
    if s and s.url and s.url.startswith(("http://", "https://")):
        from omnireader.net.fetch import fetch_for

        return fetch_for(s.url, options).data
    raise ReadError(
        label,
        "the original bytes were not kept (inline data); read it again in fine mode to refine it",
    )


def _system(messages: list[dict[str, Any]]) -> str:
    return "\n".join(
        m["content"]
        for m in messages
        if m.get("role") == "system" and isinstance(m["content"], str)
    )


def _name(s: Source | None, default: str) -> str:
    if s is None:
        return default
    return s.member or s.filename or (Path(s.path).name if s.path else None) or default


async def refine_image(llm: Any, item: MemoryItem, data: bytes) -> list[MemoryItem]:
    """The vision model describes the image and reads its text, fused with the message.

    The first fine item is the fusion (what the image shows, its text, the message sent
    with it), keeping the fast item's EXIF time and place; the facts follow.
    """
    s = item.source
    name = _name(s, "image")
    message = ((s.content if s else None) or item.metadata.extra.get("context") or "").strip()
    prompt = load_prompt("image", guess_lang(message) if message else "en")
    messages = prompt.render(
        image_name=name, context=message or "(none)", reference_time=reference_time(item)
    )
    reading, _ = await llm.acomplete_json(messages, ImageReading, images=[data])
    description = check_written(reading.description, "image description")
    if not description and not reading.text_in_image.strip() and not reading.memories:
        raise LLMError(f"the vision model did not describe {name}", reason="error_text")
    parts = [f"Image {name}: {description}" if description else f"Image {name}."]
    if reading.text_in_image.strip():
        parts.append(f"Text in the image: {reading.text_in_image.strip()}")
    if message:
        parts.append(f"Message: {message}")
    fused = ExtractedMemory(
        memory=" ".join(parts), key=item.metadata.key or name, tags=[*item.metadata.tags, "vision"]
    )
    m = item.metadata
    head = fine_items(
        item,
        [fused],
        verbatim=True,
        memory_type=m.memory_type,
        timestamp=m.timestamp,
        location=m.location,
        extra=dict(m.extra),
    )
    # The model read pixels: persons and dates cannot be checked against a text.
    guard = MemoryGuard(None, prompt=_system(messages))
    return [*head, *fine_items(item, reading.memories, first_index=1, guard=guard)]


def render_page(data: bytes, page: int, password: str | None) -> bytes:
    """PNG of one PDF page (1-based), for a vision model to read."""
    import pypdfium2 as pdfium

    with PDFIUM:  # PDFium is not thread-safe: one call at a time in a process
        pdf = pdfium.PdfDocument(data, password=password)
        try:
            pg = pdf[page - 1]
            width, height = pg.get_size()
            scale = min(2.0, _MAX_RENDER_SIDE / max(width, height, 1.0))
            image = pg.render(scale=scale).to_pil()
        finally:
            pdf.close()
    buf = io.BytesIO()
    image.save(buf, "PNG")
    return buf.getvalue()


# layout_failed too: it says the OCR reading was not laid out, and the vision reading replaces it.
_OCR_FLAGS = ("needs_ocr", "ocr", "ocr_low_confidence", "ocr_unread_script", "layout_failed")


def _pieces(text: str, budget: int) -> list[str]:
    """``text`` cut at line ends into pieces of about ``budget`` tokens, in order."""
    pieces: list[str] = []
    current: list[str] = []
    used = 0
    for line in text.splitlines():
        cost = count_tokens(line)
        if current and used + cost > budget:
            pieces.append("\n".join(current))
            current, used = [], 0
        current.append(line)
        used += cost
    if current:
        pieces.append("\n".join(current))
    return [p.strip() for p in pieces if p.strip()]


async def refine_scanned_page(
    llm: Any, item: MemoryItem, data: bytes, options: ReadOptions
) -> list[MemoryItem]:
    """A page with no text layer: render it and let the vision model read it.

    The page's text becomes items tagged ``ocr`` (cut like document chunks), then the
    facts the model found on it; every item keeps the page's provenance.
    """
    s = item.source
    page = (s.page if s else None) or 1
    png = await asyncio.to_thread(render_page, data, page, options.password)
    name = f"page {page} of {_name(s, 'a document')}"
    prompt = load_prompt("image", "en")
    reading, _ = await llm.acomplete_json(
        prompt.render(
            image_name=name,
            reference_time=item.metadata.timestamp or "unknown",
            context="A scanned document page: read all of its text, in reading order.",
        ),
        ImageReading,
        images=[png],
    )
    key = item.metadata.key or ""
    text_memories = [
        ExtractedMemory(memory=p, key=key, tags=["ocr"])
        for p in _pieces(reading.text_in_image, options.chunk_tokens)
    ]
    # The vision model's reading replaces OCR's: its items carry neither OCR flags nor boxes.
    kept = dict(
        flags=[f for f in item.metadata.flags if f not in _OCR_FLAGS],
        extra={k: v for k, v in item.metadata.extra.items() if not k.startswith("ocr_")},
    )
    ocr = fine_items(item, text_memories, verbatim=True, memory_type="LongTermMemory", **kept)
    facts = fine_items(item, reading.memories, first_index=len(ocr), **kept)
    return [*ocr, *facts]


async def refine_audio(
    llm: Any, item: MemoryItem, data: bytes, options: ReadOptions
) -> list[MemoryItem]:
    """Transcribe, then extract like a chat; items keep their segments' times.

    The transcript itself becomes items (runs of segments of about a chunk's size), then
    the facts, each with the segments it comes from as sources.
    """
    s = item.source or Source(kind="audio")
    name = _name(s, "audio.wav")
    fmt = item.metadata.extra.get("format")
    transcript = await llm.atranscribe(data, name, str(fmt).lower() if fmt else None)
    segments = transcript.segments
    seg_sources = [
        s.model_copy(update={"segment_start": g.start, "segment_end": g.end, "content": g.text})
        for g in segments
    ]
    if not transcript.text.strip() and not any(g.text.strip() for g in segments):
        return []  # silence: nothing was said, so nothing to remember

    # Runs of consecutive segments, each run one transcript item.
    runs: list[list[int]] = [[]]
    used = 0
    for n, g in enumerate(segments):
        cost = count_tokens(g.text)
        if runs[-1] and used + cost > options.chunk_tokens:
            runs.append([])
            used = 0
        runs[-1].append(n)
        used += cost
    said: list[MemoryItem] = []
    for run in (r for r in runs if r):
        first, last = segments[run[0]], segments[run[-1]]
        end = last.end if last.end is not None else last.start
        text = " ".join(segments[i].text.strip() for i in run)
        memory = ExtractedMemory(
            memory=f"Transcript of {name} ({first.start:.1f}–{end:.1f} s): {text}",
            tags=["transcript"],
            source_indexes=run,
        )
        said += fine_items(
            item,
            [memory],
            sources=seg_sources,
            first_index=len(said),
            verbatim=True,
            memory_type=item.metadata.memory_type,
            extra=dict(item.metadata.extra),
        )

    lines = "\n".join(
        f"[{n}] {g.start:.1f}–{(g.end if g.end is not None else g.start):.1f}: {g.text}"
        for n, g in enumerate(segments)
    )
    prompt = load_prompt("audio_transcript", guess_lang(transcript.text or lines))
    when = reference_time(item)
    messages = prompt.render(audio_name=name, transcript=lines, reference_time=when)
    got, _ = await llm.acomplete_json(messages, Extraction)
    guard = MemoryGuard(lines, times=[when], prompt=_system(messages))
    facts = fine_items(item, got.memories, sources=seg_sources, first_index=len(said), guard=guard)
    return [*said, *facts]
