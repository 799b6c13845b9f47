"""The image parser and image metadata: size, format, EXIF time and place, bombs, broken files.

Images are generated with Pillow in ``tmp_path`` (EXIF written the way cameras write it)
or taken from the shared corpus.
"""

from __future__ import annotations

import base64
import struct
import zipfile
import zlib
from datetime import datetime
from pathlib import Path

import pytest
from PIL import Image

from omnireader.errors import CorruptError, EmptyInputError, TooLargeError
from omnireader.formats.media.metadata import image_info
from omnireader.ids import content_hash
from omnireader.options import ReadOptions
from omnireader.parsers.base import ParseContext
from omnireader.parsers.image import ImageParser
from omnireader.payloads import Blob

PARIS = (48.85837, 2.29448)
TAKEN = datetime(2024, 5, 1, 10, 30, 0)


# ----------------------------------------------------------------------- generators


def _dms(value: float) -> tuple[float, float, float]:
    """Decimal degrees as EXIF's (degrees, minutes, seconds)."""
    value = abs(value)
    d = int(value)
    m = int((value - d) * 60)
    return float(d), float(m), round((value - d - m / 60) * 3600, 4)


def make_exif_jpeg(
    path: Path,
    taken_at: datetime,
    lat: float,
    lon: float,
    size: tuple[int, int] = (64, 48),
    make: str = "Canon",
    model: str = "Canon EOS 5D",
    offset: str | None = None,
) -> Path:
    """A JPEG whose EXIF holds the camera, DateTimeOriginal (and offset) and a GPS position."""
    exif = Image.Exif()
    exif[0x010F] = make
    exif[0x0110] = model
    exif.get_ifd(0x8769)[0x9003] = taken_at.strftime("%Y:%m:%d %H:%M:%S")
    if offset:
        exif.get_ifd(0x8769)[0x9011] = offset  # OffsetTimeOriginal
    gps = exif.get_ifd(0x8825)
    gps[1], gps[2] = ("N" if lat >= 0 else "S"), _dms(lat)
    gps[3], gps[4] = ("E" if lon >= 0 else "W"), _dms(lon)
    Image.new("RGB", size, (200, 80, 40)).save(path, "JPEG", exif=exif)
    return path


def make_png(path: Path, size: tuple[int, int] = (30, 20)) -> Path:
    Image.new("RGBA", size, (0, 0, 255, 128)).save(path, "PNG")
    return path


def bomb_png(width: int = 40_000, height: int = 40_000) -> bytes:
    """A real, valid 1-bit PNG of width x height: ~200 KB on disk, 1.6 G pixels decoded."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    packer = zlib.compressobj(9)
    row = b"\0" * (1 + width // 8)  # filter byte + 1 bit per pixel
    idat = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    body = chunk(b"IHDR", header) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + body


@pytest.fixture(scope="module")
def bomb() -> bytes:
    return bomb_png()


NO_OCR = ReadOptions(ocr="off")


def parse(blob: Blob, **ctx: object) -> list:
    return ImageParser().parse_fast(blob, ParseContext(**ctx))


# ----------------------------------------------------------------- image metadata


def test_exif_time_place_and_camera_round_trip(tmp_path: Path) -> None:
    path = make_exif_jpeg(tmp_path / "eiffel.jpg", TAKEN, *PARIS)
    info = image_info(path)
    assert (info.format, info.width, info.height, info.mode) == ("JPEG", 64, 48, "RGB")
    assert info.taken_at == "2024-05-01T10:30:00"
    assert info.gps == pytest.approx(PARIS, abs=1e-5)
    assert info.camera == "Canon EOS 5D"  # the make is not repeated
    assert info.mime == "image/jpeg"


def test_exif_time_offset_is_kept_when_the_camera_wrote_one(tmp_path: Path) -> None:
    path = make_exif_jpeg(tmp_path / "p.jpg", TAKEN, *PARIS, offset="+02:00")
    assert image_info(path).taken_at == "2024-05-01T10:30:00+02:00"


@pytest.mark.parametrize(
    "lat, lon",
    [(-33.85678, 151.21530), (40.68925, -74.04450), (-22.95192, -43.21049)],
    ids=["south-east", "north-west", "south-west"],
)
def test_southern_and_western_hemispheres_give_negative_degrees(
    tmp_path: Path, lat: float, lon: float
) -> None:
    info = image_info(make_exif_jpeg(tmp_path / "p.jpg", TAKEN, lat, lon).read_bytes())
    assert info.gps == pytest.approx((lat, lon), abs=1e-5)


def test_png_has_size_and_mode_but_no_exif(tmp_path: Path) -> None:
    info = image_info(make_png(tmp_path / "shot.png"))
    assert (info.format, info.width, info.height, info.mode) == ("PNG", 30, 20, "RGBA")
    assert info.taken_at is None and info.gps is None and info.camera is None


def test_animated_gif_reports_its_frame_count(tmp_path: Path) -> None:
    frames = [Image.new("RGB", (8, 8), color) for color in ("red", "green", "blue")]
    frames[0].save(tmp_path / "a.gif", save_all=True, append_images=frames[1:], duration=100)
    info = image_info(tmp_path / "a.gif")
    assert (info.format, info.extra["frames"]) == ("GIF", 3)


def test_decompression_bomb_is_too_large(tmp_path: Path, bomb: bytes) -> None:
    path = tmp_path / "bomb.png"
    path.write_bytes(bomb)
    assert path.stat().st_size < 1_000_000  # small on disk: the danger is in decoding it
    with pytest.raises(TooLargeError) as info:
        image_info(path, name="bomb.png")
    assert info.value.code == "too_large" and info.value.input_name == "bomb.png"


def test_pixel_limit_can_be_lowered(tmp_path: Path) -> None:
    data = make_png(tmp_path / "a.png", size=(30, 20)).read_bytes()
    assert image_info(data, max_pixels=600).width == 30
    with pytest.raises(TooLargeError, match="30x20 pixels is over the 599 pixel limit"):
        image_info(data, max_pixels=599)


def test_jpeg_cut_after_its_header_still_gives_metadata(tmp_path: Path) -> None:
    # Decided: fast mode reads headers only, so a JPEG truncated in its pixel data is still
    # described; only decoding (a vision model, later) would notice the missing pixels.
    data = make_exif_jpeg(tmp_path / "p.jpg", TAKEN, *PARIS, size=(400, 300)).read_bytes()
    info = image_info(data[: len(data) * 2 // 3])
    assert (info.width, info.height, info.taken_at) == (400, 300, "2024-05-01T10:30:00")


def test_jpeg_cut_inside_its_header_is_corrupt(tmp_path: Path) -> None:
    data = make_exif_jpeg(tmp_path / "p.jpg", TAKEN, *PARIS).read_bytes()
    with pytest.raises(CorruptError) as info:
        image_info(data[:40], name="cut.jpg")
    assert info.value.code == "corrupt" and "cut.jpg" in str(info.value)


def test_bytes_that_only_start_like_a_jpeg_are_corrupt() -> None:
    with pytest.raises(CorruptError):
        image_info(b"\xff\xd8\xff" + bytes(range(256)) * 4)


def test_empty_image_is_an_empty_input() -> None:
    with pytest.raises(EmptyInputError):
        image_info(b"")


@pytest.mark.parametrize("name", ["test.jpg", "test_llm.jpg"])
def test_corpus_photos_report_the_size_pillow_reports(corpus: Path, name: str) -> None:
    path = corpus / "markitdown" / name
    with Image.open(path) as im:
        expected = im.size
    [item] = parse(Blob(path=str(path)), options=NO_OCR)  # metadata only: OCR is tested apart
    assert (item.metadata.extra["width"], item.metadata.extra["height"]) == expected
    assert item.memory.startswith(f"Image {name} (JPEG, {expected[0]}×{expected[1]})")


def test_corpus_photo_exif_time_becomes_the_timestamp(corpus: Path) -> None:
    path = corpus / "markitdown" / "test.jpg"
    with Image.open(path) as im:
        raw = im.getexif().get_ifd(0x8769)[0x9003]  # DateTimeOriginal, "YYYY:MM:DD HH:MM:SS"
    [item] = parse(Blob(path=str(path)), options=NO_OCR)
    assert item.metadata.timestamp == datetime.strptime(raw, "%Y:%m:%d %H:%M:%S").isoformat()


# ------------------------------------------------------------------- image parser


def test_fast_item_tells_size_time_place_and_the_message(tmp_path: Path) -> None:
    path = make_exif_jpeg(tmp_path / "photo.jpg", TAKEN, *PARIS, size=(640, 480))
    blob = Blob(
        path=str(path),
        mime="image/jpeg",
        context="Our first evening in Paris!",
        role="user",
        chat_time="2024-05-02T09:00:00",
        message_id="m7",
    )
    [item] = parse(blob, user_id="u1", session_id="s1")
    assert item.memory == (
        "Image photo.jpg (JPEG, 640×480), taken 2024-05-01T10:30:00 with a Canon EOS 5D, "
        "at 48.85837, 2.29448. Message: Our first evening in Paris!"
    )
    meta = item.metadata
    assert meta.timestamp == "2024-05-01T10:30:00"  # when the photo was taken, not sent
    assert meta.location == "48.85837, 2.29448"
    assert meta.tags == ["image"] and meta.flags == ["needs_vision"]
    assert meta.memory_type == "UserMemory" and meta.user_id == "u1"
    assert meta.extra["width"] == 640 and meta.extra["camera"] == "Canon EOS 5D"
    assert meta.extra["format"] == "JPEG"
    src = item.source
    assert src is not None
    assert (src.kind, src.path, src.mime) == ("image", str(path), "image/jpeg")
    assert src.content_hash == content_hash(path.read_bytes())
    assert (src.chat_time, src.message_id, src.content) == (
        "2024-05-02T09:00:00",
        "m7",
        "Our first evening in Paris!",
    )


def test_image_without_exif_takes_the_message_time(tmp_path: Path) -> None:
    data = make_png(tmp_path / "x.png").read_bytes()
    [item] = parse(Blob(data=data, filename="screen.png", chat_time="2025-01-15 10:00"))
    assert item.memory == "Image screen.png (PNG, 30×20)."
    assert item.metadata.timestamp == "2025-01-15T10:00:00"
    assert item.metadata.location is None
    assert item.source is not None and item.source.mime == "image/png"  # from the header


def test_same_image_gives_the_same_id_and_another_image_another(tmp_path: Path) -> None:
    a = make_exif_jpeg(tmp_path / "a.jpg", TAKEN, *PARIS).read_bytes()
    b = make_exif_jpeg(tmp_path / "b.jpg", TAKEN, 0.5, 0.5).read_bytes()
    [first], [again], [other] = parse(Blob(data=a)), parse(Blob(data=a)), parse(Blob(data=b))
    assert first.id == again.id != other.id


def test_bomb_through_the_parser_names_the_file(tmp_path: Path, bomb: bytes) -> None:
    path = tmp_path / "innocent.png"
    path.write_bytes(bomb)
    with pytest.raises(TooLargeError, match="innocent.png"):
        parse(Blob(path=str(path)))


def test_referenced_image_without_content_is_kept_as_unresolved(tmp_path: Path) -> None:
    blob = Blob(url="https://example.org/cat.png", context="look at my cat", role="user")
    [item] = parse(blob)
    assert item.memory == (
        "An image was referenced (https://example.org/cat.png) but its content was not read. "
        "Message: look at my cat"
    )
    assert item.metadata.flags == ["unresolved_reference"]
    assert item.source is not None and item.source.url == "https://example.org/cat.png"
    [other] = parse(Blob(url="https://example.org/dog.png", context="look at my cat"))
    assert other.id != item.id


def test_rebuild_from_source_reads_the_same_image_again(tmp_path: Path) -> None:
    path = make_exif_jpeg(tmp_path / "trip.jpg", TAKEN, *PARIS)
    parser = ImageParser()
    [item] = parse(Blob(path=str(path), context="at the tower", message_id="m1"))
    assert item.source is not None
    rebuilt = parser.rebuild_from_source(item.source)
    assert (rebuilt.path, rebuilt.context, rebuilt.message_id) == (str(path), "at the tower", "m1")
    [again] = parser.parse_fast(rebuilt, ParseContext())
    assert (again.id, again.memory) == (item.id, item.memory)


# ------------------------------------------------------------------------ routing


def _router():  # noqa: ANN202 - the module
    # Imported here, not at the top: the router imports every parser module, and a broken
    # one must fail these routing tests, not the whole file's collection.
    import omnireader.intake.router

    return omnireader.intake.router


def test_router_sends_an_image_file_to_the_image_parser(tmp_path: Path) -> None:
    router = _router()
    path = make_exif_jpeg(tmp_path / "IMG_0001.JPG", TAKEN, *PARIS)
    [task] = router.route(path)
    assert task.parser == "image" and task.payload.mime == "image/jpeg"
    [item] = ImageParser().parse_fast(task.payload, ParseContext())
    assert item.metadata.location == "48.85837, 2.29448"


def test_router_reads_an_image_data_url_with_the_message_around_it(tmp_path: Path) -> None:
    router = _router()
    encoded = base64.b64encode(make_png(tmp_path / "x.png").read_bytes()).decode()
    message = {
        "role": "user",
        "chat_time": "2025-03-01T08:00:00",
        "content": [
            {"type": "text", "text": "my new logo"},
            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{encoded}"}},
        ],
    }
    tasks = [t for t in router.route(message) if t.parser == "image"]
    [item] = ImageParser().parse_fast(tasks[0].payload, ParseContext())
    assert item.memory.endswith("(PNG, 30×20). Message: my new logo")
    assert item.metadata.timestamp == "2025-03-01T08:00:00"


def test_image_in_a_zip_is_read_and_rebuilt_from_its_member(tmp_path: Path) -> None:
    router = _router()
    photo = make_exif_jpeg(tmp_path / "p.jpg", TAKEN, *PARIS)
    archive = tmp_path / "holiday.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.write(photo, "day1/eiffel.jpg")
    [task] = [t for t in router.route(archive) if t.parser == "image"]
    [item] = ImageParser().parse_fast(task.payload, ParseContext())
    assert item.memory.startswith("Image day1/eiffel.jpg (JPEG, 64×48)")  # named as in the ZIP
    assert item.source is not None
    assert (item.source.path, item.source.member) == (str(archive), "day1/eiffel.jpg")
    # The stored source names the archive and the member: that is enough to read it again.
    rebuilt = ImageParser().rebuild_from_source(item.source)
    assert rebuilt.data is None
    [again] = ImageParser().parse_fast(rebuilt, ParseContext())
    assert (again.id, again.memory) == (item.id, item.memory)


def test_wording_for_a_nameless_image_and_a_camera_starting_with_a_vowel() -> None:
    from omnireader.formats.media.metadata import ImageInfo
    from omnireader.parsers.image import describe_image

    info = ImageInfo(format="PNG", width=4, height=3, mode="RGB", camera="OmniCam X1")
    assert describe_image("<bytes>", info) == "An image (PNG, 4×3), taken with an OmniCam X1."
    assert describe_image("a.png", info.model_copy(update={"camera": "Canon"})) == (
        "Image a.png (PNG, 4×3), taken with a Canon."
    )
