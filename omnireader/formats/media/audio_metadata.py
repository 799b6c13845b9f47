"""Audio metadata, read from the stream headers and tags only: format, duration, rate, tags.

Samples are never decoded here: mutagen reads the stream headers and tags.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, Field

from omnireader.errors import CorruptError
from omnireader.formats.media.media_input import Media, open_media, tag_text

__all__ = ["AudioInfo", "audio_info"]

_AUDIO_FORMATS = {
    "MP3": "MP3",
    "EasyMP3": "MP3",
    "MP4": "M4A",
    "EasyMP4": "M4A",
    "WAVE": "WAV",
    "FLAC": "FLAC",
    "OggVorbis": "OGG",
    "OggOpus": "OPUS",
    "OggFLAC": "OGG",
    "OggSpeex": "OGG",
    "AIFF": "AIFF",
    "ASF": "WMA",
    "AAC": "AAC",
    "WavPack": "WV",
}


class AudioInfo(BaseModel):
    """What an audio file's stream headers and tags say about it."""

    format: str  # MP3, M4A, WAV, FLAC, OGG, OPUS, ...
    duration_s: float | None = None
    sample_rate: int | None = None
    channels: int | None = None
    bitrate: int | None = None  # bits per second
    title: str | None = None
    artist: str | None = None
    extra: dict[str, Any] = Field(default_factory=dict)


def audio_info(blob: Media, *, name: str = "<audio>") -> AudioInfo:
    """Format, duration, sample rate, channels, bit rate and tags of an audio file.

    Raises :class:`CorruptError` when mutagen cannot read its stream headers. (mutagen reads
    every WAV the stdlib ``wave`` module reads, and more: no second reader is needed.)
    """
    import mutagen

    source = open_media(blob, name)
    try:
        # easy=True gives the same tag keys ("title", "artist") across MP3, MP4, FLAC, Ogg.
        audio = mutagen.File(source, easy=True)
    except Exception as e:  # mutagen raises per-format errors on malformed streams
        audio, error = None, e
    else:
        error = None
    # mutagen objects are falsy when they have no tags, hence the explicit None checks.
    if audio is None or audio.info is None:
        detail = f" ({type(error).__name__}: {error})" if error else ""
        raise CorruptError(name, f"not an audio stream mutagen can read{detail}")
    stream = audio.info
    info = AudioInfo(
        format=_AUDIO_FORMATS.get(type(audio).__name__, type(audio).__name__.upper()),
        duration_s=_positive(getattr(stream, "length", None), float),
        sample_rate=_positive(getattr(stream, "sample_rate", None), int),
        channels=_positive(getattr(stream, "channels", None), int),
        bitrate=_positive(getattr(stream, "bitrate", None), int),
        title=_tag(audio, "title", "TIT2"),
        artist=_tag(audio, "artist", "TPE1"),
    )
    for key, value in (
        ("album", _tag(audio, "album", "TALB")),
        ("codec", getattr(stream, "codec_description", None) or getattr(stream, "codec", None)),
        ("bits_per_sample", _positive(getattr(stream, "bits_per_sample", None), int)),
    ):
        if value:
            info.extra[key] = value
    return info


def _positive(value: Any, kind: type[int] | type[float]) -> Any:
    try:
        number = kind(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) and number > 0 else None


def _tag(audio: Any, easy_key: str, id3_frame: str) -> str | None:
    tags = audio.tags
    if tags is None:
        return None
    try:
        # WAV / AIFF carry raw ID3 frames even when easy tags are asked for.
        value = tags.get(easy_key) or tags.get(id3_frame)
    except (KeyError, ValueError, TypeError):
        return None
    if value is None:
        return None
    values = getattr(value, "text", value)  # an ID3 frame, or a list of strings
    if isinstance(values, (list, tuple)):
        values = values[0] if values else None
    return tag_text(str(values)) if values is not None else None
