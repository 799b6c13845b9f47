"""Audio: one item from the recording's stream facts (format, duration, rate, channels, tags).

Fast mode reads headers only and is never empty; the item is flagged ``needs_transcription``
so fine mode can send the recording to a speech model. A recording that was only referenced
gives an ``unresolved_reference`` item instead.

    >>> from omnireader.parsers.base import ParseContext
    >>> from omnireader.payloads import Blob
    >>> [item] = AudioParser().parse_fast(Blob(path="test.wav"), ParseContext())  # doctest: +SKIP
    >>> item.memory                                                               # doctest: +SKIP
    'Audio recording test.wav (WAV, 12.3 s, 16000 Hz, mono).'
"""

from __future__ import annotations

from typing import ClassVar

from omnireader.formats.media.audio_metadata import AudioInfo, audio_info
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
from omnireader.payloads import Blob

__all__ = ["AudioParser", "describe_audio", "format_duration"]


def format_duration(seconds: float) -> str:
    """``12.3 s`` under a minute, ``4 min 05 s`` under an hour, ``1 h 02 min 03 s`` beyond."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    total = round(seconds)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes:02d} min {secs:02d} s"
    return f"{minutes} min {secs:02d} s"


def _channels(n: int) -> str:
    return {1: "mono", 2: "stereo"}.get(n, f"{n} channels")


def describe_audio(name: str, info: AudioInfo) -> str:
    """One sentence from the stream headers and tags."""
    facts = [info.format]
    if info.duration_s is not None:
        facts.append(format_duration(info.duration_s))
    if info.sample_rate:
        facts.append(f"{info.sample_rate} Hz")
    if info.channels:
        facts.append(_channels(info.channels))
    head = "An audio recording" if name.startswith("<") else f"Audio recording {name}"
    text = f"{head} ({', '.join(facts)})"
    if info.title:
        text += f', titled "{info.title}"'
    if info.artist:
        text += f", by {info.artist}"
    return text + "."


@register
class AudioParser(Parser[Blob]):
    """An audio file, ``input_audio`` part or fetched URL: its stream facts and message."""

    name: ClassVar[str] = "audio"
    payload: ClassVar[type[Blob]] = Blob

    def parse_fast(self, input: Blob, ctx: ParseContext) -> list[MemoryItem]:
        data = blob_bytes(input, ctx.options)
        if data is None:
            return [reference_item(self, input, ctx, kind="audio", noun="An audio recording")]
        source = self.create_source(input)
        info = audio_info(data, name=input.label)
        extra = {
            "duration_s": round(info.duration_s, 3) if info.duration_s is not None else None,
            "sample_rate": info.sample_rate,
            "channels": info.channels,
            "format": info.format,
            "bitrate": info.bitrate,
            "title": info.title,
            "artist": info.artist,
            **info.extra,
        }
        return [
            self.make_item(
                with_message(describe_audio(member_key(input), info), input.context),
                ctx,
                sources=[source],
                position=("audio",),
                memory_type=memory_type_for(input),
                timestamp=message_time(input),
                key=member_key(input),
                tags=["audio"],
                flags=["needs_transcription"],
                extra={**{k: v for k, v in extra.items() if v is not None}, **parent_extra(input)},
            )
        ]

    def create_source(self, input: Blob) -> Source:
        return blob_source(input, kind="audio")

    def rebuild_from_source(self, source: Source) -> Blob:
        return rebuild_blob(source)
