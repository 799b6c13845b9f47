"""The audio parser and audio metadata: format, duration, rate, channels, tags, broken files.

WAV files are generated with the stdlib ``wave`` module in ``tmp_path``; MP3, M4A and WAV
recordings made by other tools come from the shared corpus.
"""

from __future__ import annotations

import base64
import math
import struct
import wave
from pathlib import Path

import pytest

from omnireader.errors import CorruptError, EmptyInputError
from omnireader.formats.media.metadata import audio_info
from omnireader.ids import content_hash
from omnireader.parsers.audio import AudioParser, format_duration
from omnireader.parsers.base import ParseContext
from omnireader.payloads import Blob


def make_wav(path: Path, seconds: float = 1.5, rate: int = 16000, channels: int = 1) -> Path:
    """A 440 Hz tone, 16-bit PCM."""
    frames = bytearray()
    for n in range(int(seconds * rate)):
        sample = struct.pack("<h", int(8000 * math.sin(2 * math.pi * 440 * n / rate)))
        frames += sample * channels
    with wave.open(str(path), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(bytes(frames))
    return path


def parse(blob: Blob, **ctx: object) -> list:
    return AudioParser().parse_fast(blob, ParseContext(**ctx))


def _router():  # noqa: ANN202 - the module
    # Imported here, not at the top: the router imports every parser module, and a broken
    # one must fail these routing tests, not the whole file's collection.
    import omnireader.intake.router

    return omnireader.intake.router


# ------------------------------------------------------------------ audio metadata


def test_wav_metadata_matches_what_was_written(tmp_path: Path) -> None:
    info = audio_info(make_wav(tmp_path / "tone.wav", seconds=2.0, rate=22050, channels=2))
    assert info.format == "WAV"
    assert info.duration_s == pytest.approx(2.0)
    assert (info.sample_rate, info.channels) == (22050, 2)
    assert info.bitrate == 22050 * 2 * 16
    assert info.extra["bits_per_sample"] == 16


def test_wav_id3_title_and_artist_are_read(tmp_path: Path) -> None:
    from mutagen.id3 import TIT2, TPE1
    from mutagen.wave import WAVE

    path = make_wav(tmp_path / "standup.wav")
    tagged = WAVE(path)
    tagged.add_tags()
    tagged.tags.add(TIT2(encoding=3, text="Monday standup"))
    tagged.tags.add(TPE1(encoding=3, text="Ana Lopez"))
    tagged.save()
    info = audio_info(path.read_bytes())
    assert (info.title, info.artist) == ("Monday standup", "Ana Lopez")


@pytest.mark.parametrize(
    "name, fmt", [("test.wav", "WAV"), ("test.mp3", "MP3"), ("test.m4a", "M4A")]
)
def test_corpus_recordings_have_format_duration_and_rate(corpus: Path, name: str, fmt: str) -> None:
    info = audio_info(corpus / "markitdown" / name)
    assert info.format == fmt
    assert info.duration_s is not None and 1 < info.duration_s < 60
    assert info.sample_rate and info.channels and info.bitrate


def test_corpus_wav_duration_agrees_with_the_stdlib(corpus: Path) -> None:
    path = corpus / "markitdown" / "test.wav"
    with wave.open(str(path)) as w:
        expected = w.getnframes() / w.getframerate()
    assert audio_info(path).duration_s == pytest.approx(expected)


def test_corpus_mp3_tags_are_read(corpus: Path) -> None:
    info = audio_info(corpus / "markitdown" / "test.mp3")
    assert info.artist == "Artist Name Test String"
    assert info.extra["album"] == "Album Name Test String"


@pytest.mark.parametrize(
    "blob",
    [b"RIFF\x24\x00\x00\x00WAVEjunk" + bytes(64), b"ID3" + bytes(200), bytes(range(256)) * 8],
    ids=["riff-without-chunks", "id3-without-frames", "noise"],
)
def test_unreadable_audio_is_corrupt(blob: bytes) -> None:
    with pytest.raises(CorruptError) as info:
        audio_info(blob, name="memo.wav")
    assert info.value.code == "corrupt" and info.value.input_name == "memo.wav"


def test_empty_audio_is_an_empty_input() -> None:
    with pytest.raises(EmptyInputError):
        audio_info(b"")


@pytest.mark.parametrize(
    "seconds, text",
    [(12.34, "12.3 s"), (59.94, "59.9 s"), (65, "1 min 05 s"), (3723.4, "1 h 02 min 03 s")],
)
def test_durations_read_naturally(seconds: float, text: str) -> None:
    assert format_duration(seconds) == text


# -------------------------------------------------------------------- audio parser


def test_fast_item_tells_format_duration_and_the_message(tmp_path: Path) -> None:
    path = make_wav(tmp_path / "voice_note.wav", seconds=1.5, rate=16000)
    blob = Blob(
        path=str(path),
        mime="audio/wav",
        context="notes from the call",
        role="user",
        chat_time="2025-02-03T11:00:00Z",
        message_id="m3",
    )
    [item] = parse(blob, user_id="u1")
    assert item.memory == (
        "Audio recording voice_note.wav (WAV, 1.5 s, 16000 Hz, mono). Message: notes from the call"
    )
    meta = item.metadata
    assert meta.flags == ["needs_transcription"] and meta.tags == ["audio"]
    assert meta.timestamp == "2025-02-03T11:00:00+00:00"
    assert meta.memory_type == "UserMemory"
    assert meta.extra == {
        "duration_s": 1.5,
        "sample_rate": 16000,
        "channels": 1,
        "format": "WAV",
        "bitrate": 256000,
        "bits_per_sample": 16,
    }
    src = item.source
    assert src is not None
    assert (src.kind, src.path, src.mime, src.message_id) == ("audio", str(path), "audio/wav", "m3")
    assert src.content_hash == content_hash(path.read_bytes())
    assert src.content == "notes from the call"


def test_corpus_mp3_item_names_title_and_artist(corpus: Path) -> None:
    [item] = parse(Blob(path=str(corpus / "markitdown" / "test.mp3")))
    assert item.memory.startswith("Audio recording test.mp3 (MP3, 6.5 s, 48000 Hz, stereo)")
    assert item.memory.endswith(", by Artist Name Test String.")
    assert item.metadata.extra["artist"] == "Artist Name Test String"


def test_referenced_audio_without_content_is_kept_as_unresolved() -> None:
    [item] = parse(Blob(url="https://example.org/memo.ogg", context="listen"))
    assert item.memory.startswith(
        "An audio recording was referenced (https://example.org/memo.ogg)"
    )
    assert item.metadata.flags == ["unresolved_reference"]
    assert item.metadata.tags == ["audio"]


def test_rebuild_from_source_reads_the_same_recording_again(tmp_path: Path) -> None:
    path = make_wav(tmp_path / "memo.wav")
    parser = AudioParser()
    [item] = parse(Blob(path=str(path), context="reminder", chat_time="2025-01-01T00:00:00"))
    assert item.source is not None
    [again] = parser.parse_fast(parser.rebuild_from_source(item.source), ParseContext())
    assert (again.id, again.memory, again.metadata.timestamp) == (
        item.id,
        item.memory,
        item.metadata.timestamp,
    )


# ------------------------------------------------------------------------ routing


def test_router_sends_a_wav_file_to_the_audio_parser(tmp_path: Path) -> None:
    router = _router()
    [task] = router.route(make_wav(tmp_path / "recording.bin"))  # content decides, not the name
    assert task.parser == "audio" and task.payload.mime == "audio/wav"


def test_input_audio_part_is_parsed_with_its_message(tmp_path: Path) -> None:
    router = _router()
    encoded = base64.b64encode(make_wav(tmp_path / "a.wav", seconds=0.5).read_bytes()).decode()
    message = {
        "role": "user",
        "content": [
            {"type": "text", "text": "here is my answer"},
            {"type": "input_audio", "input_audio": {"data": encoded, "format": "wav"}},
        ],
    }
    [task] = [t for t in router.route(message) if t.parser == "audio"]
    [item] = AudioParser().parse_fast(task.payload, ParseContext())
    assert item.memory == (
        "Audio recording audio.wav (WAV, 0.5 s, 16000 Hz, mono). Message: here is my answer"
    )
